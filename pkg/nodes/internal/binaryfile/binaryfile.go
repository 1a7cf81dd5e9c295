// Package binaryfile holds what the Read Binary File, Read Binary Files and Write Binary File
// nodes share: reading a file into binary data, running once per input item, and the copy of an
// input item they return.
package binaryfile

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filetype"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Read reads the file at path into inline binary data as n8n's prepareBinaryData does for a file
// path: named after the file, typed from its name and content, with its directory. The path goes
// through the instance's file fence (Execution.OpenFile); a missing file's error matches
// fs.ErrNotExist, so callers can tell it apart.
func Read(ex *nodes.Execution, path string) (workflow.BinaryData, error) {
	f, err := ex.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return workflow.BinaryData{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return workflow.BinaryData{}, err
	}
	b := nodes.NewBinary(data, filepath.Base(path), filetype.Detect(path, data))
	b.Directory = filepath.Dir(path)
	return b, nil
}

// ItemFunc turns input item i into its output item.
type ItemFunc func(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error)

// EachItem runs fn for every item of the first input and returns the results as the only
// output. An item's error stops the node, or, with Continue On Fail, becomes that item's error
// item. A canceled ctx stops the node between items.
func EachItem(ctx context.Context, ex *nodes.Execution, fn ItemFunc) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		newItem, err := fn(ex, item, i)
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

// CopyItem copies input item i for output so the node can change it: the JSON deep-copied ({}
// for none), a binary map of its own holding the same entries, paired with item i.
func CopyItem(item workflow.Item, i int) workflow.Item {
	newItem := workflow.Item{JSON: item.JSON.Clone(), PairedItem: &workflow.PairedItems{{Item: i}},
		Binary: make(map[string]workflow.BinaryData, len(item.Binary))}
	if newItem.JSON == nil {
		newItem.JSON = workflow.NewObject(0)
	}
	for k, v := range item.Binary {
		newItem.Binary[k] = v
	}
	return newItem
}
