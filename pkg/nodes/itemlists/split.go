package itemlists

import (
	"fmt"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func splitOut(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	opts, err := options(ex)
	if err != nil {
		return nil, err
	}
	disableDot := opts["disableDotNotation"] == true
	get := jsv.FieldGetter(disableDot)
	var out []workflow.Item
	for i, item := range items {
		field, err := ex.ParamString("fieldToSplitOut", i)
		if err != nil {
			return nil, err
		}
		destination, err := ex.ParamString("options.destinationFieldName", i)
		if err != nil {
			return nil, err
		}
		include, err := ex.ParamString("include", i)
		if err != nil {
			return nil, err
		}
		var entries []*workflow.Object
		if level(ex) < 2 {
			entries, err = splitV1(ex, item.JSON, i, field, destination, include, get, disableDot)
		} else {
			entries, err = splitV2(ex, item.JSON, i, field, destination, include, get, disableDot)
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			out = append(out, workflow.Item{JSON: e, PairedItem: &workflow.PairedItems{{Item: i}}})
		}
	}
	if out == nil {
		out = []workflow.Item{}
	}
	return out, nil
}

func missingField(field string, disableDot bool, itemIndex int) error {
	msg := fmt.Sprintf("Couldn't find the field '%s' in the input data", field)
	if strings.Contains(field, ".") && disableDot {
		return &nodes.Error{Message: msg, Description: nestedHint, ItemIndex: -1}
	}
	return nodes.Errorf(itemIndex, "%s", msg)
}

func splitV1(ex *nodes.Execution, json *workflow.Object, i int, field, destination, include string, get jsv.Getter, disableDot bool) ([]*workflow.Object, error) {
	list := get(json, field)
	if jsv.IsUndefined(list) {
		return nil, missingField(field, disableDot, i)
	}
	elements, ok := list.([]any)
	if !ok {
		return nil, nodes.Errorf(i, "The provided field '%s' is not an array", field)
	}
	var entries []*workflow.Object
	for _, element := range elements {
		entry := workflow.NewObject(len(json.Members()))
		switch include {
		case "selectedOtherFields":
			fields, err := fieldNames(ex, "fieldsToInclude", "Fields To Include", i)
			if err != nil {
				return nil, err
			}
			if len(fields) == 0 {
				return nil, &nodes.Error{Message: "No fields specified", Description: "Please add a field to include", ItemIndex: -1}
			}
			for _, f := range fields {
				// An undefined value leaves no key in JSON.
				if v := get(json, f); f != field && !jsv.IsUndefined(v) {
					entry.Set(f, workflow.DeepCopy(v))
				}
			}
		case "allOtherFields":
			for k := range json.All() {
				entry.Set(k, workflow.DeepCopy(defined(get(json, k))))
			}
			workflow.UnsetPath(entry, field)
		}
		if workflow.IsObject(element) || element == nil {
			if include == "noOtherFields" && destination == "" {
				spread(entry, workflow.DeepCopy(element))
				entries = append(entries, entry)
				continue
			}
		}
		name := destination
		if name == "" {
			name = field
		}
		entry.Set(name, workflow.DeepCopy(element))
		entries = append(entries, entry)
	}
	return entries, nil
}

func splitV2(ex *nodes.Execution, json *workflow.Object, i int, fieldParam, destinationParam, include string, get jsv.Getter, disableDot bool) ([]*workflow.Object, error) {
	var fields []string
	for _, f := range strings.Split(fieldParam, ",") {
		fields = append(fields, strings.TrimSpace(f))
	}
	var destinations []string
	for _, f := range strings.Split(destinationParam, ",") {
		if strings.TrimSpace(f) != "" {
			destinations = append(destinations, strings.TrimSpace(f))
		}
	}
	if len(destinations) > 0 && len(destinations) != len(fields) {
		return nil, nodes.Errorf(-1, "If multiple fields to split out are given, the same number of destination fields must be given")
	}
	multi := len(fields) > 1
	var split []*workflow.Object
	for fi, field := range fields {
		destination := ""
		if fi < len(destinations) {
			destination = destinations[fi]
		}
		var elements []any
		switch list := get(json, field).(type) {
		case []any:
			elements = list
		case map[string]any, *workflow.Object:
			elements = values(list)
		default:
			switch {
			case jsv.IsUndefined(list) && level(ex) < 2.1:
				return nil, missingField(field, disableDot, i)
			case jsv.IsUndefined(list):
			case level(ex) < 2.2:
				return nil, nodes.Errorf(i, "The provided field '%s' is not an array or object", field)
			default:
				elements = []any{list}
			}
		}
		for ei, element := range elements {
			if ei >= len(split) {
				split = append(split, workflow.NewObject(1))
			}
			name := destination
			if name == "" {
				name = field
			}
			element = workflow.DeepCopy(element)
			if workflow.IsObject(element) && include == "noOtherFields" && destination == "" && !multi {
				spread(split[ei], element)
			} else {
				split[ei].Set(name, element)
			}
		}
	}
	var included []string
	if include == "selectedOtherFields" && len(split) > 0 {
		var err error
		if included, err = fieldNames(ex, "fieldsToInclude", "Fields To Include", i); err != nil {
			return nil, err
		}
		if len(included) == 0 {
			return nil, &nodes.Error{Message: "No fields specified", Description: "Please add a field to include", ItemIndex: -1}
		}
	}
	for ei, entry := range split {
		switch include {
		case "allOtherFields":
			rest := json.Clone()
			if rest == nil {
				rest = workflow.NewObject(entry.Len())
			}
			for _, f := range fields {
				if disableDot {
					rest.Delete(f)
				} else {
					workflow.UnsetPath(rest, f)
				}
			}
			for k, v := range entry.All() {
				rest.Set(k, v)
			}
			split[ei] = rest
		case "selectedOtherFields":
			if level(ex) < 3 {
				// Item Lists 2.x adds the included fields after the split ones.
				for _, f := range included {
					if v := get(json, f); !jsv.IsUndefined(v) {
						entry.Set(f, workflow.DeepCopy(v))
					}
				}
				continue
			}
			// From version 3 (and in Split Out) the included fields come first, as n8n spreads
			// them before the split ones.
			picked := workflow.NewObject(len(included) + entry.Len())
			for _, f := range included {
				if v := get(json, f); !jsv.IsUndefined(v) {
					picked.Set(f, workflow.DeepCopy(v))
				}
			}
			for k, v := range entry.All() {
				picked.Set(k, v)
			}
			split[ei] = picked
		}
	}
	return split, nil
}
