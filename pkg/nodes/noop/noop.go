// Package noop is the No Operation node: it passes its input on unchanged.
package noop

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
