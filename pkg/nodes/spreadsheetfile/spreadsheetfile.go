// Package spreadsheetfile is the Spreadsheet File node (versions 1 and 2): Read From File turns
// a spreadsheet in a binary property into one item per row, Write to File turns all input items
// into one spreadsheet file.
package spreadsheetfile

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
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	op, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	if op == "toFile" {
		out, err := toFile(ex)
		if err != nil {
			return nil, err
		}
		return [][]workflow.Item{out}, nil
	}
	out, err := fromFile(ctx, ex)
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{out}, nil
}
