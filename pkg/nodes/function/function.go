// Package function is the Function node (version 1), the Code node's predecessor: the code runs
// once with all input items as `items` and returns the items to output. It sees the data
// globals of the first item ($json, $node, $item(i), …), getNodeParameter and
// getWorkflowStaticData.
package function

import (
	"context"
	_ "embed"

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
	items, err := run(ctx, ex)
	if err != nil {
		if !ex.ContinueOnFail() || ctx.Err() != nil {
			return nil, err
		}
		items = []workflow.Item{{JSON: workflow.ObjectOf("error", script.RawMessage(err))}}
	}
	return [][]workflow.Item{items}, nil
}

func run(ctx context.Context, ex *nodes.Execution) ([]workflow.Item, error) {
	code, err := ex.ParamString("functionCode", 0)
	if err != nil {
		return nil, err
	}
	globals := map[string]any{
		"items":                 ex.InputData(0),
		"getNodeParameter":      script.NodeParameterFunc(ex),
		"getWorkflowStaticData": script.StaticDataFunc(ex),
	}
	// n8n's own template loops with `for (item of items)`, an implicit global that the sealed
	// sandbox would reject; declaring it keeps such code working.
	res, err := ex.RunScript(ctx, script.Wrap("var item; ", code), 0, globals)
	if err != nil {
		return nil, script.FunctionError(err, -1)
	}
	return toItems(res)
}

// toItems checks and normalises the returned value as the Function node does: one object is
// one item, plain objects are wrapped in json, and every item needs an object as json.
func toItems(res any) ([]workflow.Item, error) {
	res = workflow.FromMaps(res)
	var list []any
	switch x := res.(type) {
	case nil, string:
		if x == nil || x == script.Undefined {
			return nil, nodes.Errorf(-1, "No data got returned. Always return an Array of items!")
		}
		return nil, nodes.Errorf(-1, "Always an Array of items has to be returned!")
	case *workflow.Object:
		if workflow.Truthy(x.Get("json")) {
			list = []any{x}
		} else {
			list = []any{workflow.ObjectOf("json", x)}
		}
	case []any:
		list = wrap(x)
		if list == nil {
			return nil, nodes.Errorf(-1, "Inconsistent item format")
		}
	default:
		return nil, nodes.Errorf(-1, "Always an Array of items has to be returned!")
	}
	out := make([]workflow.Item, len(list))
	for i, e := range list {
		m, _ := e.(*workflow.Object)
		j, ok := m.Lookup("json")
		if !ok {
			return nil, nodes.Errorf(-1, `All returned items have to contain a property named "json"!`)
		}
		if !script.IsObject(j) {
			return nil, nodes.Errorf(-1, "The json-property has to be an object!")
		}
		if b, ok := m.Lookup("binary"); ok && !script.IsObject(b) {
			return nil, nodes.Errorf(-1, "The binary-property has to be an object!")
		}
		it, err := script.ToItem(m)
		if err != nil {
			return nil, nodes.Errorf(-1, "The binary-property has to be an object!")
		}
		out[i] = it
	}
	return out, nil
}

// wrap is n8n's normalizeItems for a list: kept when every entry has json, the other keys of
// binary-only entries become json, plain values are wrapped; nil when the shapes are mixed.
func wrap(list []any) []any {
	count := func(key string) int {
		n := 0
		for _, e := range list {
			if m, ok := e.(*workflow.Object); ok && m.Has(key) {
				n++
			}
		}
		return n
	}
	withJSON, withBinary := count("json"), count("binary")
	out := make([]any, len(list))
	switch {
	case withJSON == len(list):
		return list
	case withJSON > 0:
		return nil
	case withBinary == len(list):
		for i, e := range list {
			m := e.(*workflow.Object)
			j := workflow.NewObject(m.Len())
			for k, v := range m.All() {
				if k != "binary" && k != "pairedItem" {
					j.Set(k, v)
				}
			}
			out[i] = workflow.ObjectOf("json", j, "binary", m.Get("binary"))
		}
		return out
	case withBinary > 0:
		return nil
	}
	for i, e := range list {
		out[i] = workflow.ObjectOf("json", e)
	}
	return out
}
