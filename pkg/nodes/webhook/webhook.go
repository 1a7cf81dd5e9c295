// Package webhook is the Webhook trigger node (version 1). It starts a workflow from an HTTP
// request: in webhook mode the engine feeds the request item {headers, params, query, body}
// (+ binary) to it and it passes that on. RequestItem builds that item from a request the way
// the node reads it; registering paths and answering the caller belong to the webhook layer.
package webhook

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

//go:embed webhook.svg
var iconSVG []byte

// TypeName is the node's type.
const TypeName = "n8n-nodes-base.webhook"

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Type{
		Description: nodes.MustParseDescription(descriptionJSON),
		Kind:        nodes.KindWebhook,
		Node:        nodes.NodeFunc(execute),
		IconSVG:     iconSVG,
		EffectFree:  true,
	}
}

// Icon is the node's file icon, shared with Respond to Webhook.
func Icon() []byte { return iconSVG }

// execute passes the request item on. The engine does this itself for webhook nodes; the
// function exists for callers that run the node directly.
func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	in := ex.InputData(0)
	if in == nil {
		in = []workflow.Item{{JSON: workflow.NewObject(0)}}
	}
	return [][]workflow.Item{in}, nil
}
