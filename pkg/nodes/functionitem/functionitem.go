// Package functionitem is the Function Item node (version 1), the per-item predecessor of the
// Code node: the code runs once per input item with the item's json as `item`, and returns
// the json of the output item. getBinaryData/setBinaryData read and replace the item's binary
// data; the data globals ($json, $node, $item(i), …) are those of the item.
package functionitem

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/script"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	input := ex.InputData(0)
	out := make([]workflow.Item, 0, len(input))
	static := script.StaticDataFunc(ex)
	param := script.NodeParameterFunc(ex)
	for i := range input {
		it, err := runItem(ctx, ex, input[i], i, static, param)
		if err != nil {
			if !ex.ContinueOnFail() || ctx.Err() != nil {
				return nil, err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", script.RawMessage(err)),
				PairedItem: &workflow.PairedItems{{Item: i}}})
			continue
		}
		out = append(out, it)
	}
	return [][]workflow.Item{out}, nil
}

func runItem(ctx context.Context, ex *nodes.Execution, in workflow.Item, i int, static, param expr.ScriptFunc) (workflow.Item, error) {
	code, err := ex.ParamString("functionCode", i)
	if err != nil {
		return workflow.Item{}, err
	}
	// The script works on copies: item is the json, binary what getBinaryData shows.
	var binary map[string]any
	if in.Binary != nil {
		binary = script.BinaryToMap(in.Binary)
	}
	getBinary := expr.ScriptFunc(func([]any) (any, error) { return binary, nil })
	setBinary := expr.ScriptFunc(func(args []any) (any, error) {
		binary = nil
		if len(args) > 0 {
			if b, ok := workflow.AsObject(args[0]); ok {
				binary = b.ToMap()
			}
		}
		return nil, nil
	})
	globals := map[string]any{
		"item":                  nonNil(in.JSON.Clone()),
		"getBinaryData":         getBinary,
		"setBinaryData":         setBinary,
		"getBinaryDataAsync":    getBinary,
		"setBinaryDataAsync":    setBinary,
		"getNodeParameter":      param,
		"getWorkflowStaticData": static,
	}
	res, err := ex.RunScript(ctx, script.Wrap("", code), i, globals)
	if err != nil {
		return workflow.Item{}, script.FunctionError(err, i)
	}
	switch res {
	case nil, script.Undefined:
		return workflow.Item{}, nodes.Errorf(i, "No data got returned. Always an object has to be returned!")
	}
	j, ok := workflow.AsObject(res)
	if !ok {
		return workflow.Item{}, nodes.Errorf(i, "The json-property has to be an object!")
	}
	out := workflow.Item{JSON: j, PairedItem: &workflow.PairedItems{{Item: i}}}
	if len(binary) > 0 {
		if out.Binary, err = script.ToBinary(binary); err != nil {
			return workflow.Item{}, nodes.Errorf(i, "The binary-property has to be an object!")
		}
	}
	return out, nil
}

func nonNil(o *workflow.Object) *workflow.Object {
	if o == nil {
		return workflow.NewObject(0)
	}
	return o
}
