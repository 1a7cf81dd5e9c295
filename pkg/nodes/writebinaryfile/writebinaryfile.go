// Package writebinaryfile is the Write Binary File node (version 1): for every item it writes a
// binary property to the file named by File Name, replacing or appending, and passes the item on
// with json.fileName set.
package writebinaryfile

import (
	"context"
	_ "embed"
	"os"

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
	return binaryfile.EachItem(ctx, ex, writeItem)
}

func writeItem(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	prop, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	fileName, err := ex.ParamString("fileName", i)
	if err != nil {
		return workflow.Item{}, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return workflow.Item{}, err
	}
	if item.Binary == nil {
		return workflow.Item{}, nodes.Errorf(i, "No binary data set. So file can not be written!")
	}
	bin, ok := item.Binary[prop]
	if !ok {
		return workflow.Item{}, nodes.Errorf(i, "The binary property %q does not exist. So no file can be written!", prop)
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return workflow.Item{}, nodes.Errorf(i, "%v", err)
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appendMode, _ := options["append"].(bool); appendMode {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	if err := writeFile(ex, fileName, data, flags); err != nil {
		return workflow.Item{}, nodes.Errorf(i, "%v", err)
	}
	newItem := binaryfile.CopyItem(item, i)
	newItem.JSON.Set("fileName", fileName)
	return newItem, nil
}

// writeFile writes data to the file name stands for, through the instance's file fence.
func writeFile(ex *nodes.Execution, name string, data []byte, flags int) error {
	f, err := ex.OpenFile(name, flags, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
