package itemlists

import (
	"slices"
	"sort"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// removeDuplicates works as n8n's: sort the items on the compared fields (stable), then drop
// every item equal to the last kept one, keeping the input order of what remains.
func removeDuplicates(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	if len(items) == 0 {
		return []workflow.Item{}, nil
	}
	compare, err := ex.ParamString("compare", 0)
	if err != nil {
		return nil, err
	}
	opts, err := options(ex)
	if err != nil {
		return nil, err
	}
	disableDot := opts["disableDotNotation"] == true
	removeOther := opts["removeOtherFields"] == true
	get := jsv.FieldGetter(disableDot)
	keysOf := func(obj *workflow.Object) []string {
		if disableDot {
			return jsv.Keys(obj)
		}
		return flattenKeys(obj)
	}

	var keys []string
	for _, it := range items {
		for _, k := range keysOf(it.JSON) {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	switch compare {
	case "allFieldsExcept":
		exclude, err := fieldNames(ex, "fieldsToExclude", "Fields To Exclude", 0)
		if err != nil {
			return nil, err
		}
		if len(exclude) == 0 {
			return nil, nodes.Errorf(-1, "No fields specified. Please add a field to exclude from comparison")
		}
		if !disableDot {
			keys = flattenKeys(items[0].JSON)
		}
		keys = slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(exclude, k) })
	case "selectedFields":
		selected, err := fieldNames(ex, "fieldsToCompare", "Fields To Compare", 0)
		if err != nil {
			return nil, err
		}
		if len(selected) == 0 {
			return nil, nodes.Errorf(-1, "No fields specified. Please add a field to compare on")
		}
		keys = keys[:0]
		for _, k := range selected {
			keys = append(keys, strings.TrimSpace(k))
		}
	}

	// From 3.1 values of different types are told apart instead of refused.
	byType := level(ex) >= 3.1
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := items[order[x]].JSON, items[order[y]].JSON
		for _, k := range keys {
			va, vb := get(a, k), get(b, k)
			if byType {
				if ta, tb := typeRank(va), typeRank(vb); ta != tb {
					return ta < tb
				}
			}
			if !jsv.Equal(va, vb) {
				return jsv.Less(va, vb)
			}
		}
		return false
	})

	for _, k := range keys {
		typ := ""
		for _, i := range order {
			if k == "" {
				return nil, nodes.Errorf(-1, "Name of field to compare is blank")
			}
			v := get(items[i].JSON, k)
			if jsv.IsUndefined(v) {
				e := &nodes.Error{Message: "'" + k + "' field is missing from some input items", ItemIndex: -1}
				if disableDot && strings.Contains(k, ".") {
					e.Description = nestedHint
				}
				return nil, e
			}
			if !byType && typ != "" && typ != jsv.TypeOf(v) {
				return nil, &nodes.Error{Message: "'" + k + "' isn't always the same type",
					Description: "The type of this field varies between items", ItemIndex: -1}
			}
			typ = jsv.TypeOf(v)
		}
	}

	removed := map[int]bool{}
	last := order[0]
	for _, i := range order[1:] {
		same := true
		for _, k := range keys {
			if !jsv.Equal(get(items[i].JSON, k), get(items[last].JSON, k)) {
				same = false
				break
			}
		}
		if same {
			removed[i] = true
		} else {
			last = i
		}
	}
	out := make([]workflow.Item, 0, len(items)-len(removed))
	for i, it := range items {
		if removed[i] {
			continue
		}
		if removeOther {
			// n8n numbers the paired items by position in the output here.
			it = workflow.Item{JSON: pick(it.JSON, keys), PairedItem: &workflow.PairedItems{{Item: len(out)}}}
		}
		out = append(out, it)
	}
	return out, nil
}

// typeRank orders values by JavaScript type as n8n's typeToNumber does, so that values of
// different types never count as duplicates of each other.
func typeRank(v any) int {
	switch {
	case jsv.IsUndefined(v):
		return 6
	case v == nil:
		return 10
	}
	switch v.(type) {
	case []any:
		return 9
	case map[string]any, *workflow.Object:
		return 7
	}
	switch jsv.TypeOf(v) {
	case "string":
		return 1
	case "number":
		return 2
	case "boolean":
		return 4
	}
	return 7
}
