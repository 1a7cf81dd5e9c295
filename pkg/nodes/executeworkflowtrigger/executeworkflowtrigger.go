// Package executeworkflowtrigger is the Execute Workflow Trigger (versions 1 and 1.1): a
// sub-workflow run by Execute Workflow starts here with the caller's items. Version 1 and the
// "Accept all data" input mode hand them on as they are; the other 1.1 modes keep only the fields
// of the input schema (given as fields or read from a JSON example), in the schema's order, with
// null for a field an item lacks.
package executeworkflowtrigger

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
	t := nodes.Define(descriptionJSON, nodes.KindTrigger, execute)
	t.EffectFree = true
	t.ShapesStartInput = true
	t.SubWorkflowStart = true
	return t
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	if items == nil {
		// Run by hand there is no caller: one empty item, as other triggers give.
		items = []workflow.Item{{JSON: workflow.NewObject(0)}}
	}
	source := "passthrough"
	if ex.TypeVersion() >= 1.1 {
		s, err := ex.ParamString("inputSource", 0)
		if err != nil {
			return nil, err
		}
		source = s
	}
	if source == "passthrough" {
		return [][]workflow.Item{items}, nil
	}
	fields, err := schemaFields(ex, source)
	if err != nil {
		return nil, err
	}
	out := make([]workflow.Item, len(items))
	for i, it := range items {
		obj := workflow.NewObject(len(fields))
		for _, name := range fields {
			var v any
			if it.JSON != nil {
				v = it.JSON.Get(name)
			}
			obj.Set(name, v)
		}
		out[i] = workflow.Item{JSON: obj, Binary: it.Binary, PairedItem: it.PairedItem}
	}
	return [][]workflow.Item{out}, nil
}

// schemaFields lists the names of the input schema's fields in order.
func schemaFields(ex *nodes.Execution, source string) ([]string, error) {
	var names []string
	switch source {
	case "jsonExample":
		raw, err := ex.ParamString("jsonExample", 0)
		if err != nil {
			return nil, err
		}
		v, err := workflow.DecodeJSONValue([]byte(raw))
		if err != nil {
			return nil, &nodes.Error{Message: "Invalid JSON example", Description: err.Error(), ItemIndex: -1, Parameter: "jsonExample"}
		}
		if obj, ok := v.(*workflow.Object); ok {
			names = obj.Keys()
		}
	default:
		list, err := ex.ParamList("workflowInputs.values", 0)
		if err != nil {
			return nil, err
		}
		for _, f := range list {
			if name, _ := f["name"].(string); name != "" {
				names = append(names, name)
			}
		}
	}
	return names, nil
}
