// Package set is the Set node. Versions 1 and 2 write boolean, number and string values on
// every item, by dot-notation path unless disabled, optionally dropping everything else.
// Version 2 turns numeric strings given to number values (typically from expressions) into
// numbers; version 1 keeps them as they are.
package set

import (
	"context"
	_ "embed"
	"math"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	if len(items) == 0 {
		items = []workflow.Item{{JSON: workflow.NewObject(0)}}
	}
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		newItem, err := setItem(ex, item, i)
		if err != nil {
			return nil, err
		}
		out = append(out, newItem)
	}
	return [][]workflow.Item{out}, nil
}

func setItem(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	keepOnlySet, err := ex.ParamBool("keepOnlySet", i)
	if err != nil {
		return workflow.Item{}, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return workflow.Item{}, err
	}
	dotNotation := true
	if b, ok := options["dotNotation"].(bool); ok && !b {
		dotNotation = false
	}
	newItem := workflow.Item{JSON: workflow.NewObject(0), PairedItem: &workflow.PairedItems{{Item: i}}}
	if !keepOnlySet {
		if item.Binary != nil {
			newItem.Binary = make(map[string]workflow.BinaryData, len(item.Binary))
			for k, v := range item.Binary {
				newItem.Binary[k] = v
			}
		}
		if item.JSON != nil {
			newItem.JSON = item.JSON.Clone()
		}
	}
	put := func(name string, v any) {
		if dotNotation {
			workflow.SetPath(newItem.JSON, name, v)
		} else {
			newItem.JSON.Set(name, v)
		}
	}
	for _, kind := range []string{"boolean", "number", "string"} {
		entries, err := ex.ParamList("values."+kind, i)
		if err != nil {
			return workflow.Item{}, err
		}
		for _, e := range entries {
			name := jsv.ToString(nameOf(e))
			v := e["value"]
			switch kind {
			case "boolean":
				v = workflow.Truthy(v)
			case "number":
				if ex.TypeVersion() >= 2 {
					v = numericString(v)
				}
			}
			put(name, v)
		}
	}
	return newItem, nil
}

func nameOf(e map[string]any) any {
	if n, ok := e["name"]; ok {
		return n
	}
	return workflow.Undefined{}
}

// numericString converts a string that JavaScript's Number() reads as a number.
func numericString(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	if f := jsv.ToNumber(s); !math.IsNaN(f) {
		return f
	}
	return v
}
