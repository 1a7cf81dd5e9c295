package itemlists

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func sortItems(ctx context.Context, ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	out := append([]workflow.Item{}, items...)
	typ, err := ex.ParamString("type", 0)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "random":
		rand.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out, nil
	case "simple":
		return sortSimple(ex, out)
	}
	return sortByCode(ctx, ex, out)
}

func sortSimple(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	opts, err := options(ex)
	if err != nil {
		return nil, err
	}
	disableDot := opts["disableDotNotation"] == true
	get := jsv.FieldGetter(disableDot)
	fields, err := ex.ParamList("sortFieldsUi.sortField", 0)
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, nodes.Errorf(-1, "No sorting specified. Please add a field to sort by")
	}
	type sortField struct {
		name string
		dir  int
	}
	var by []sortField
	for _, f := range fields {
		name, _ := f["fieldName"].(string)
		found := false
		for _, it := range items {
			if disableDot {
				found = it.JSON.Has(name)
			} else {
				found = !jsv.IsUndefined(get(it.JSON, name))
			}
			if found {
				break
			}
		}
		if !found {
			if disableDot && strings.Contains(name, ".") {
				return nil, &nodes.Error{Message: "Couldn't find the field '" + name + "' in the input data", Description: nestedHint, ItemIndex: -1}
			}
			return nil, nodes.Errorf(-1, "Couldn't find the field '%s' in the input data", name)
		}
		dir := 1
		if f["order"] == "descending" {
			dir = -1
		}
		by = append(by, sortField{name, dir})
	}
	lower := func(v any) any {
		if s, ok := v.(string); ok {
			return strings.ToLower(s)
		}
		return v
	}
	jsSort(items, func(x, y workflow.Item) int {
		for _, f := range by {
			a, b := lower(get(x.JSON, f.name)), lower(get(y.JSON, f.name))
			if jsv.Equal(a, b) {
				continue
			}
			if jsv.Less(a, b) {
				return -f.dir
			}
			return f.dir
		}
		return 0
	})
	return items, nil
}

var (
	returnWord = regexp.MustCompile(`\breturn\b`)
	assigned   = regexp.MustCompile(`(?m)(?:^|[;{}(,\s])([A-Za-z_$][\w$]*)\s*=[^=>]`)
	declared   = regexp.MustCompile(`\b(?:let|const|var|function|class)\s+([A-Za-z_$][\w$]*)`)
)

// implicitGlobals lists identifiers the code assigns without declaring them.
func implicitGlobals(code string) []string {
	skip := map[string]bool{"a": true, "b": true, "this": true, "newItems": true}
	for _, m := range declared.FindAllStringSubmatch(code, -1) {
		skip[m[1]] = true
	}
	var names []string
	for _, m := range assigned.FindAllStringSubmatch(code, -1) {
		if name := m[1]; !skip[name] {
			skip[name] = true
			names = append(names, name)
		}
	}
	return names
}

// sortByCode sorts with JavaScript comparator code, run in the sandbox as the body of
// (a, b) => { … } over the items ({json, binary}).
func sortByCode(ctx context.Context, ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	code, err := ex.ParamString("code", 0)
	if err != nil {
		return nil, err
	}
	if !returnWord.MatchString(code) {
		return nil, nodes.Errorf(-1, "Sort code doesn't return. Please add a 'return' statement to your code")
	}
	// The sandbox sorts positions, so the items themselves come back unchanged. Names the code
	// assigns without declaring them (n8n's default code does, in a sloppy-mode VM) get a var.
	decl := ""
	if names := implicitGlobals(code); len(names) > 0 {
		decl = "var " + strings.Join(names, ", ") + ";\n"
	}
	script := "const __order = newItems.map((_, i) => i);\n" +
		"__order.sort((__x, __y) => (function (a, b) {\n" + decl + code + "\n})(newItems[__x], newItems[__y]));\n" +
		"return __order;"
	res, err := ex.RunScript(ctx, script, 0, map[string]any{"newItems": items})
	if err != nil {
		return nil, err
	}
	order, ok := res.([]any)
	if !ok || len(order) != len(items) {
		return nil, nodes.Errorf(-1, "Sort code did not sort the items")
	}
	out := make([]workflow.Item, len(items))
	for i, v := range order {
		idx, ok := workflow.Number(v)
		if !ok || int(idx) < 0 || int(idx) >= len(items) {
			return nil, nodes.Errorf(-1, "Sort code did not sort the items")
		}
		out[i] = items[int(idx)]
	}
	return out, nil
}

func limit(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	maxItems, err := ex.ParamFloat("maxItems", 0)
	if err != nil {
		return nil, err
	}
	keep, err := ex.ParamString("keep", 0)
	if err != nil {
		return nil, err
	}
	n := int(maxItems)
	if n > len(items) || n < 0 {
		return items, nil
	}
	if keep == "firstItems" {
		return items[:n], nil
	}
	return items[len(items)-n:], nil
}
