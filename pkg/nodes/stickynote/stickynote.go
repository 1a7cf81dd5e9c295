// Package stickynote is the Sticky Note: a canvas annotation with no inputs or outputs. If it is
// ever run it passes its input on, as n8n's does.
package stickynote

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Type{
		Description: nodes.MustParseDescription(descriptionJSON),
		Kind:        nodes.KindAction,
		Node:        nodes.NodeFunc(execute),
	}
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	return [][]workflow.Item{ex.InputData(0)}, nil
}
