// Package readbinaryfiles is the Read Binary Files node (version 1): it reads every file that
// matches a glob pattern (fast-glob syntax: *, ?, **, {a,b}, [abc]) into one item each. Only
// files inside the files folder (FLOWMILL_FILES_DIR) are read; see Glob.
package readbinaryfiles

import (
	"context"
	_ "embed"

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

// execute runs once for the whole input, with the parameters of the first item.
func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	pattern, err := ex.ParamString("fileSelector", 0)
	if err != nil {
		return nil, err
	}
	prop, err := ex.ParamString("dataPropertyName", 0)
	if err != nil {
		return nil, err
	}
	files, err := Glob(ctx, ex.ResolveFile, pattern)
	if err != nil {
		return nil, nodes.Errorf(0, "%v", err)
	}
	out := make([]workflow.Item, 0, len(files))
	for _, path := range files {
		b, err := binaryfile.Read(ex, path)
		if err != nil {
			return nil, nodes.Errorf(0, "%v", err)
		}
		out = append(out, workflow.Item{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{prop: b},
			PairedItem: &workflow.PairedItems{{Item: 0}}})
	}
	return [][]workflow.Item{out}, nil
}
