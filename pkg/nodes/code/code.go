// Package code is the Code node (version 1, JavaScript): it runs the user's code once for all
// input items or once for each item, in the expression sandbox, with n8n's Code-node globals
// ($input, $json, $node, $(), $now, DateTime, $getWorkflowStaticData, …, plus items or item),
// and turns what the code returns into items as n8n does.
package code

import (
	"context"
	_ "embed"
	"fmt"

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

const (
	modeEachItem = "runOnceForEachItem"
	languageJS   = "javaScript"
)

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	// Version 2 offers Python as n8n does; Flowmill runs JavaScript only, so a Python node fails
	// with a clear message instead of running its hidden JavaScript default.
	if language, _ := ex.ParamString("language", 0); ex.TypeVersion() >= 2 && language != "" && language != languageJS {
		return nil, fmt.Errorf("The Code node's language %q is not supported: Flowmill runs JavaScript only; rewrite the code in JavaScript", language)
	}
	globals := map[string]any{
		"$getWorkflowStaticData": script.StaticDataFunc(ex),
		"$getNodeParameter":      script.NodeParameterFunc(ex),
	}
	if mode == modeEachItem {
		return eachItem(ctx, ex, globals)
	}
	return allItems(ctx, ex, globals)
}

func allItems(ctx context.Context, ex *nodes.Execution, globals map[string]any) ([][]workflow.Item, error) {
	items, err := runAllItems(ctx, ex, globals)
	if err != nil {
		if !ex.ContinueOnFail() || ctx.Err() != nil {
			return nil, err
		}
		items = []workflow.Item{{JSON: workflow.ObjectOf("error", script.Message(err))}}
	}
	return [][]workflow.Item{items}, nil
}

func runAllItems(ctx context.Context, ex *nodes.Execution, globals map[string]any) ([]workflow.Item, error) {
	code, err := ex.ParamString("jsCode", 0)
	if err != nil {
		return nil, err
	}
	if err := checkAllItems(code); err != nil {
		return nil, err
	}
	res, err := ex.RunScript(ctx, script.Wrap("var items = $input.all(); ", code), 0, globals)
	if err != nil {
		return nil, script.CodeError(err, -1)
	}
	return normalizeAll(res)
}

func eachItem(ctx context.Context, ex *nodes.Execution, globals map[string]any) ([][]workflow.Item, error) {
	input := ex.InputData(0)
	out := make([]workflow.Item, 0, len(input))
	for i := range input {
		it, ok, err := runEachItem(ctx, ex, globals, i)
		if err != nil {
			if !ex.ContinueOnFail() || ctx.Err() != nil {
				return nil, err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", script.Message(err)),
				PairedItem: &workflow.PairedItems{{Item: i}}})
			continue
		}
		if ok {
			it.PairedItem = &workflow.PairedItems{{Item: i}}
			out = append(out, it)
		}
	}
	return [][]workflow.Item{out}, nil
}

func runEachItem(ctx context.Context, ex *nodes.Execution, globals map[string]any, i int) (workflow.Item, bool, error) {
	code, err := ex.ParamString("jsCode", i)
	if err != nil {
		return workflow.Item{}, false, err
	}
	if err := checkEachItem(code, i); err != nil {
		return workflow.Item{}, false, err
	}
	res, err := ex.RunScript(ctx, script.Wrap("var item = $input.item; ", code), i, globals)
	if err != nil {
		return workflow.Item{}, false, script.CodeError(err, i)
	}
	return normalizeEach(res, i)
}
