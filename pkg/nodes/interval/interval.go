// Package interval is the Interval trigger node (version 1): it fires every N seconds, minutes
// or hours once the workflow is active (see pkg/schedule); run by hand it outputs one empty item.
package interval

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
	return nodes.Type{Description: nodes.MustParseDescription(descriptionJSON), Kind: nodes.KindTrigger, Node: nodes.NodeFunc(execute)}
}

// execute checks the interval as n8n does when the trigger starts, then emits one empty item.
func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	n, err := ex.ParamFloat("interval", 0)
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nodes.Errorf(-1, "The interval has to be set to at least 1 or higher!")
	}
	return [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}, nil
}
