package code

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes/internal/script"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// itemKeys are the top-level keys of an n8n item (n8n's N8N_ITEM_KEYS).
var itemKeys = []string{"json", "binary", "pairedItem"}

// allItemsDisallowed finds what the "Run Once for All Items" mode rejects before running: the
// per-item globals. `.itemMatching` is allowed (Go's regexp has no lookahead, so the suffix is
// checked by hand).
var allItemsDisallowed = regexp.MustCompile(`\)\.item|\$input\.item|\$json|\$binary|\$itemIndex`)

// eachItemDisallowed finds the $input methods the "Run Once for Each Item" mode rejects.
var eachItemDisallowed = regexp.MustCompile(`\$input\.(first|last|all|itemMatching)`)

// checkAllItems rejects per-item syntax as n8n does: only the first occurrence counts, and
// only if a line holding it does not start with a comment.
func checkAllItems(code string) error {
	for _, loc := range allItemsDisallowed.FindAllStringIndex(code, -1) {
		found := code[loc[0]:loc[1]]
		if strings.HasSuffix(found, ".item") && strings.HasPrefix(code[loc[1]:], "Matching") {
			continue
		}
		if line := lineOf(code, found); line > 0 {
			return script.Validation("Can't use "+found+" here",
				"This is only available in 'Run Once for Each Item' mode", -1, line)
		}
		return nil
	}
	return nil
}

// checkEachItem rejects the whole-input $input methods in per-item mode.
func checkEachItem(code string, itemIndex int) error {
	m := eachItemDisallowed.FindStringSubmatch(code)
	if m == nil {
		return nil
	}
	if line := lineOf(code, m[1]); line > 0 {
		return script.Validation("Can't use ."+m[1]+"() here",
			"This is only available in 'Run Once for All Items' mode", itemIndex, line)
	}
	return nil
}

// lineOf is the 1-based number of the first line containing s that does not start with a
// comment, 0 when there is none.
func lineOf(code, s string) int {
	for i, line := range strings.Split(code, "\n") {
		if strings.Contains(line, s) && !strings.HasPrefix(line, "//") && !strings.HasPrefix(line, "*") {
			return i + 1
		}
	}
	return 0
}

// normalizeAll checks and normalises what a "Run Once for All Items" script returned, as
// n8n's Code node does: null is no items, a lone object is one item, objects without n8n item
// keys are wrapped in json.
func normalizeAll(res any) ([]workflow.Item, error) {
	res = workflow.FromMaps(res)
	if res == nil {
		return []workflow.Item{}, nil
	}
	if script.TypeOf(res) != "object" {
		return nil, script.Validation("Code doesn't return items properly",
			"Please return an array of objects, one for each item you would like to output", -1, 0)
	}
	if list, ok := res.([]any); ok {
		mustHaveItemKeys := slices.ContainsFunc(list, func(e any) bool {
			m, _ := e.(*workflow.Object)
			return slices.ContainsFunc(itemKeys, m.Has)
		})
		for _, e := range list {
			m, ok := e.(*workflow.Object)
			if !ok {
				continue
			}
			if err := checkItem(m, -1); err != nil {
				return nil, err
			}
			if mustHaveItemKeys {
				if err := checkTopLevelKeys(m, -1); err != nil {
					return nil, err
				}
			}
		}
	} else if err := checkItem(res.(*workflow.Object), -1); err != nil {
		return nil, err
	}
	maps, err := normalizeItems(res)
	if err != nil {
		return nil, err
	}
	out := make([]workflow.Item, len(maps))
	for i, m := range maps {
		if !script.IsObject(m.Get("json")) {
			return nil, script.Validation("A 'json' property isn't an object",
				"In the returned data, every key named 'json' must point to an object", i, 0)
		}
		if out[i], err = script.ToItem(m); err != nil {
			return nil, script.Validation("A 'binary' property isn't an object", err.Error(), i, 0)
		}
	}
	return out, nil
}

// normalizeEach checks and normalises what a "Run Once for Each Item" script returned for
// one item; ok is false when it returned null (the item is dropped).
func normalizeEach(res any, itemIndex int) (item workflow.Item, ok bool, err error) {
	res = workflow.FromMaps(res)
	if res == nil {
		return workflow.Item{}, false, nil
	}
	if script.TypeOf(res) != "object" {
		return workflow.Item{}, false, script.Validation("Code doesn't return an object",
			"Please return an object representing the output item. ('"+script.String(res)+"' was returned instead.)",
			itemIndex, 0)
	}
	if list, isList := res.([]any); isList {
		first := "An empty array was returned."
		if len(list) > 0 {
			first = "An array of " + script.TypeOf(list[0]) + "s was returned."
		}
		return workflow.Item{}, false, script.Validation("Code doesn't return a single object",
			first+" If you need to output multiple items, please use the 'Run Once for All Items' mode instead",
			itemIndex, 0)
	}
	m := res.(*workflow.Object)
	if err := checkItem(m, itemIndex); err != nil {
		return workflow.Item{}, false, err
	}
	if !workflow.Truthy(m.Get("json")) {
		m = workflow.ObjectOf("json", m)
	}
	if err := checkTopLevelKeys(m, itemIndex); err != nil {
		return workflow.Item{}, false, err
	}
	it, err := script.ToItem(m)
	if err != nil {
		return workflow.Item{}, false, script.Validation("A 'binary' property isn't an object", err.Error(), itemIndex, 0)
	}
	return it, true, nil
}

func checkItem(m *workflow.Object, itemIndex int) error {
	if j, ok := m.Lookup("json"); ok && !script.IsObject(j) {
		return script.Validation("A 'json' property isn't an object",
			"In the returned data, every key named 'json' must point to an object", itemIndex, 0)
	}
	if b, ok := m.Lookup("binary"); ok && !script.IsObject(b) {
		return script.Validation("A 'binary' property isn't an object",
			"In the returned data, every key named 'binary’ must point to an object.", itemIndex, 0)
	}
	return nil
}

func checkTopLevelKeys(m *workflow.Object, itemIndex int) error {
	for _, k := range m.Keys() {
		if !slices.Contains(itemKeys, k) {
			return script.Validation("Unknown top-level item key: "+k,
				"Access the properties of an item under `.json`, e.g. `item.json`", itemIndex, 0)
		}
	}
	return nil
}

var errInconsistent = errors.New("Inconsistent item format")

// normalizeItems is n8n's normalizeItems: a lone object becomes a list; a list where every
// entry has json is kept; one where every entry has binary gets its other keys as json; any
// other list is wrapped entry by entry. Mixing the shapes is an error.
func normalizeItems(res any) ([]*workflow.Object, error) {
	var list []any
	switch x := res.(type) {
	case *workflow.Object:
		if workflow.Truthy(x.Get("json")) {
			return []*workflow.Object{x}, nil
		}
		return []*workflow.Object{workflow.ObjectOf("json", x)}, nil
	case []any:
		list = x
	}
	has := func(key string) func(any) bool {
		return func(e any) bool {
			m, ok := e.(*workflow.Object)
			return ok && m.Has(key)
		}
	}
	out := make([]*workflow.Object, len(list))
	switch {
	case allOf(list, has("json")):
		for i, e := range list {
			out[i] = e.(*workflow.Object)
		}
		return out, nil
	case slices.ContainsFunc(list, has("json")):
		return nil, errInconsistent
	case allOf(list, has("binary")):
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
		return out, nil
	case slices.ContainsFunc(list, has("binary")):
		return nil, errInconsistent
	}
	for i, e := range list {
		out[i] = workflow.ObjectOf("json", e)
	}
	return out, nil
}

func allOf(list []any, f func(any) bool) bool {
	for _, e := range list {
		if !f(e) {
			return false
		}
	}
	return true
}
