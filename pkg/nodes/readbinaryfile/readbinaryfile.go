// Package readbinaryfile is the Read Binary File node (version 1): for every item it reads the
// file at File Path into a binary property of the item.
package readbinaryfile

import (
	"context"
	_ "embed"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filetype"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Type{Description: nodes.MustParseDescription(descriptionJSON), Kind: nodes.KindAction, Node: nodes.NodeFunc(execute)}
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		newItem, err := readItem(ex, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		out = append(out, newItem)
	}
	return [][]workflow.Item{out}, nil
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
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return workflow.Item{}, nodes.Errorf(i, "The file %q could not be found.", path)
	}
	if err != nil {
		return workflow.Item{}, nodes.Errorf(i, "%v", err)
	}
	return withFile(item, prop, path, data, i), nil
}

// withFile copies the item and adds the file as binary property prop.
func withFile(item workflow.Item, prop, path string, data []byte, i int) workflow.Item {
	newItem := workflow.Item{JSON: workflow.CopyJSON(item.JSON), Binary: map[string]workflow.BinaryData{},
		PairedItem: &workflow.PairedItems{{Item: i}}}
	if newItem.JSON == nil {
		newItem.JSON = map[string]any{}
	}
	for k, v := range item.Binary {
		newItem.Binary[k] = v
	}
	b := nodes.NewBinary(data, filepath.Base(path), filetype.Detect(path, data))
	b.Directory = filepath.Dir(path)
	newItem.Binary[prop] = b
	return newItem
}
