// Package readbinaryfile is the Read Binary File node (version 1): for every item it reads the
// file at File Path into a binary property of the item.
package readbinaryfile

import (
	"context"
	_ "embed"
	"errors"
	"io/fs"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/binaryfile"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	return binaryfile.EachItem(ctx, ex, readItem)
}

func readItem(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	prop, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	path, err := ex.ParamString("filePath", i)
	if err != nil {
		return workflow.Item{}, err
	}
	b, err := binaryfile.Read(ex, path)
	if errors.Is(err, fs.ErrNotExist) {
		return workflow.Item{}, nodes.Errorf(i, "The file %q could not be found.", path)
	}
	if err != nil {
		return workflow.Item{}, nodes.Errorf(i, "%v", err)
	}
	newItem := binaryfile.CopyItem(item, i)
	newItem.Binary[prop] = b
	return newItem, nil
}
