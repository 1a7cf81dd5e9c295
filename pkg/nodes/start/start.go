// Package start is the Start node of older workflows: the manual run begins here and its input
// (one empty item, or the items given to the run) passes on.
package start

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
