package itemlists

import (
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func aggregate(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	mode, err := ex.ParamString("aggregate", 0)
	if err != nil {
		return nil, err
	}
	if mode == "aggregateIndividualFields" {
		return aggregateFields(ex, items)
	}
	return aggregateAll(ex, items)
}

func aggregateFields(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	opts, err := options(ex)
	if err != nil {
		return nil, err
	}
	disableDot := opts["disableDotNotation"] == true
	mergeLists := opts["mergeLists"] == true
	keepMissing := opts["keepMissing"] == true
	get := jsv.FieldGetter(disableDot)
	fields, err := ex.ParamList("fieldsToAggregate.fieldToAggregate", 0)
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, &nodes.Error{Message: "No fields specified", Description: "Please add a field to aggregate", ItemIndex: -1}
	}
	if level(ex) < 2.1 {
		for _, f := range fields {
			name, _ := f["fieldToAggregate"].(string)
			found := false
			for _, it := range items {
				if name == "" {
					return nil, &nodes.Error{Message: "Field to aggregate is blank", Description: "Please add a field to aggregate", ItemIndex: -1}
				}
				if disableDot {
					found = it.JSON.Has(name)
				} else {
					found = !jsv.IsUndefined(get(it.JSON, name))
				}
				if found {
					break
				}
			}
			if !found && disableDot && strings.Contains(name, ".") {
				return nil, &nodes.Error{Message: "Couldn't find the field '" + name + "' in the input data", Description: nestedHint, ItemIndex: -1}
			}
			if !found && !keepMissing {
				return nil, nodes.Errorf(-1, "Couldn't find the field '%s' in the input data", name)
			}
		}
	}

	json := workflow.NewObject(len(fields))
	var order []string
	values := map[string][]any{}
	var used []string
	for _, f := range fields {
		name, _ := f["fieldToAggregate"].(string)
		outName, _ := f["outputFieldName"].(string)
		field := name
		if f["renameField"] == true {
			field = outName
		}
		for _, u := range used {
			if u == field {
				return nil, &nodes.Error{Message: "The '" + field + "' output field is used more than once",
					Description: "Please make sure each output field name is unique", ItemIndex: -1}
			}
		}
		used = append(used, field)
		if outName == "" {
			outName = name
			if !disableDot && strings.Contains(name, ".") {
				outName = name[strings.LastIndex(name, ".")+1:]
			}
		}
		if name == "" {
			continue
		}
		if _, seen := values[outName]; !seen {
			order = append(order, outName)
		}
		list := []any{}
		for _, it := range items {
			v := get(it.JSON, name)
			if !keepMissing {
				if arr, ok := v.([]any); ok {
					kept := []any{}
					for _, e := range arr {
						if e != nil {
							kept = append(kept, e)
						}
					}
					v = kept
				} else if v == nil || jsv.IsUndefined(v) {
					continue
				}
			}
			if arr, ok := v.([]any); ok && mergeLists {
				for _, e := range arr {
					list = append(list, workflow.DeepCopy(e))
				}
			} else {
				list = append(list, workflow.DeepCopy(defined(v)))
			}
		}
		values[outName] = list
	}
	for _, k := range order {
		if disableDot {
			json.Set(k, values[k])
		} else {
			workflow.SetPath(json, k, values[k])
		}
	}
	return []workflow.Item{{JSON: json, PairedItem: pairedAll(len(items))}}, nil
}

func aggregateAll(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	destination, err := ex.ParamString("destinationFieldName", 0)
	if err != nil {
		return nil, err
	}
	exclude, err := fieldNames(ex, "fieldsToExclude", "Fields To Exclude", 0)
	if err != nil {
		return nil, err
	}
	include, err := fieldNames(ex, "fieldsToInclude", "Fields To Include", 0)
	if err != nil {
		return nil, err
	}
	list := []any{}
	var paired workflow.PairedItems
	for i, it := range items {
		obj := it.JSON.Clone()
		if len(exclude) > 0 || len(include) > 0 {
			for _, k := range obj.Keys() {
				if contains(exclude, k) || (len(include) > 0 && !contains(include, k)) {
					obj.Delete(k)
				}
			}
			if obj.Len() == 0 {
				continue
			}
		}
		if obj == nil {
			obj = workflow.NewObject(0)
		}
		list = append(list, obj)
		paired = append(paired, workflow.PairedItem{Item: i})
	}
	return []workflow.Item{{JSON: workflow.ObjectOf(destination, list), PairedItem: &paired}}, nil
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
