package itemlists

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var aggregationPrefix = map[string]string{
	"append": "appended_", "average": "average_", "concatenate": "concatenated_", "count": "count_",
	"countUnique": "unique_count_", "max": "max_", "min": "min_", "sum": "sum_",
}

type aggregation struct {
	kind, field, separator string
	includeEmpty           bool
}

// row is an input item's json and its position, for paired items.
type row struct {
	json  *workflow.Object
	index int
}

// group is one split of the summary: either rows to aggregate (leaf) or sub-groups, in the
// order JavaScript enumerates the keys of n8n's grouping object.
type group struct {
	rows []row
	keys []string
	subs map[string]*group
	// values holds each key's field value when splits keep their types (Summarize 1.1).
	values map[string]any
}

// typedSplits reports Summarize 1.1 and later, which groups by the split fields' values as
// they are (the number 1 and the text "1" apart), in the order they first appear, and adds the
// split fields after the aggregations, the innermost first.
func typedSplits(ex *nodes.Execution) bool {
	return ex.Node().Type == summarizeType && ex.TypeVersion() >= 1.1
}

const summarizeType = "n8n-nodes-base.summarize"

func summarize(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	opts, err := options(ex)
	if err != nil {
		return nil, err
	}
	splitParam, err := ex.ParamString("fieldsToSplitBy", 0)
	if err != nil {
		return nil, err
	}
	var splitBy []string
	for _, f := range strings.Split(splitParam, ",") {
		if f = strings.TrimSpace(f); f != "" {
			splitBy = append(splitBy, f)
		}
	}
	list, err := ex.ParamList("fieldsToSummarize.values", 0)
	if err != nil {
		return nil, err
	}
	var aggs []aggregation
	named := false
	for _, e := range list {
		a := aggregation{kind: str(e["aggregation"]), field: str(e["field"]), includeEmpty: e["includeEmpty"] == true}
		a.separator = str(e["separateBy"])
		if _, ok := e["separateBy"]; !ok {
			a.separator = ","
		}
		if a.separator == "other" {
			a.separator = str(e["customSeparator"])
		}
		named = named || a.field != ""
		aggs = append(aggs, a)
	}
	if !named {
		return nil, nodes.Errorf(-1, "You need to add at least one aggregation to 'Fields to Summarize' with non empty 'Field'")
	}
	get := jsv.FieldGetter(opts["disableDotNotation"] == true)
	rows := make([]row, len(items))
	for i, it := range items {
		rows[i] = row{json: it.JSON, index: i}
	}
	v2 := level(ex) >= 2
	// From version 3 Min and Max compare any values (dates as text, for instance), not only
	// numbers.
	compareAny := level(ex) >= 3
	// Summarize 1 also refuses such a field unless Continue if Field Not Found is on; 1.1 never does.
	summarize1 := ex.Node().Type == summarizeType && ex.TypeVersion() < 1.1 && opts["continueIfFieldNotFound"] != true
	if level(ex) < 2.1 || summarize1 {
		for _, a := range aggs {
			if a.field == "" {
				continue
			}
			exists := slices.ContainsFunc(rows, func(r row) bool { return !jsv.IsUndefined(get(r.json, a.field)) })
			if !exists {
				return nil, nodes.Errorf(-1, "The field '%s' does not exist in any items", a.field)
			}
		}
	}
	skipEmpty := opts["skipEmptySplitFields"] == true
	typed := typedSplits(ex)
	root := split(rows, splitBy, get, skipEmpty, typed)
	summary := func(rs []row) *workflow.Object {
		out := workflow.NewObject(len(aggs))
		for _, a := range aggs {
			name := aggregationPrefix[a.kind] + a.field
			if v2 {
				name = cleanName(name)
			}
			out.Set(name, aggregate1(rs, a, get, compareAny))
		}
		return out
	}

	if opts["outputFormat"] == "singleItem" {
		var nested func(g *group) *workflow.Object
		nested = func(g *group) *workflow.Object {
			if g.subs == nil {
				return summary(g.rows)
			}
			if typed {
				// Map keys become the object's keys as text, the last of equal texts winning.
				byName := map[string]*workflow.Object{}
				var names []string
				for _, k := range g.keys {
					name := jsv.ToString(g.values[k])
					if _, seen := byName[name]; !seen {
						names = append(names, name)
					}
					byName[name] = nested(g.subs[k])
				}
				out := workflow.NewObject(len(names))
				for _, name := range workflow.JSKeyOrder(names) {
					out.Set(name, byName[name])
				}
				return out
			}
			out := workflow.NewObject(len(g.keys))
			for _, k := range g.keys {
				out.Set(k, nested(g.subs[k]))
			}
			return out
		}
		return []workflow.Item{{JSON: nested(root), PairedItem: pairedAll(len(items))}}, nil
	}

	names := splitBy
	if v2 {
		names = make([]string, len(splitBy))
		for i, f := range splitBy {
			names[i] = cleanName(f)
		}
	}
	var out []workflow.Item
	var flatten func(g *group, depth int, prefix *workflow.Object)
	flatten = func(g *group, depth int, prefix *workflow.Object) {
		if g.subs == nil {
			json := prefix.Clone()
			if json == nil {
				json = workflow.NewObject(len(aggs))
			}
			for k, v := range summary(g.rows).All() {
				json.Set(k, v)
			}
			paired := make(workflow.PairedItems, len(g.rows))
			for i, r := range g.rows {
				paired[i] = workflow.PairedItem{Item: r.index}
			}
			out = append(out, workflow.Item{JSON: json, PairedItem: &paired})
			return
		}
		for _, k := range g.keys {
			next := prefix.Clone()
			if next == nil {
				next = workflow.NewObject(len(names) + len(aggs))
			}
			next.Set(names[depth], k)
			flatten(g.subs[k], depth+1, next)
		}
	}
	if typed {
		out = flattenTyped(root, names, summary)
	} else {
		flatten(root, 0, nil)
	}
	if out == nil {
		out = []workflow.Item{}
	}
	return out, nil
}

// split groups rows by the values of the split fields, as object keys: numbers and booleans as
// their strings, objects (and null) as JSON, a missing field as "undefined". With typed, objects
// become JSON text, other values stay as they are and groups keep the order they first appear in.
func split(rows []row, fields []string, get jsv.Getter, skipEmpty, typed bool) *group {
	if len(fields) == 0 {
		return &group{rows: rows}
	}
	g := &group{subs: map[string]*group{}, values: map[string]any{}}
	byKey := map[string][]row{}
	var keys []string
	for _, r := range rows {
		v := get(r.json, fields[0])
		var key string
		switch x := v.(type) {
		case map[string]any, *workflow.Object, []any:
			key = stringify(x)
			v = key
		case nil:
			if !typed {
				key = stringify(x)
			}
		}
		_, isNumber := workflow.Number(v)
		if skipEmpty && !isNumber && !workflow.Truthy(v) && (typed || v != nil) {
			continue
		}
		if key == "" || typed {
			key = jsv.ToString(v)
		}
		if typed {
			// Keys of a JavaScript Map: values of different types stay apart.
			key = jsv.TypeOf(v) + ":" + key
		}
		if _, ok := byKey[key]; !ok {
			keys = append(keys, key)
			g.values[key] = v
		}
		byKey[key] = append(byKey[key], r)
	}
	g.keys = keys
	if !typed {
		g.keys = workflow.JSKeyOrder(keys)
	}
	for _, k := range g.keys {
		g.subs[k] = split(byKey[k], fields[1:], get, skipEmpty, typed)
	}
	return g
}

// flattenTyped gives one item per split with typed values: the aggregations, then the split
// fields from the innermost out (a missing value leaves its field out).
func flattenTyped(root *group, names []string, summary func([]row) *workflow.Object) []workflow.Item {
	var out []workflow.Item
	var walk func(g *group, path []any)
	walk = func(g *group, path []any) {
		if g.subs != nil {
			for _, k := range g.keys {
				walk(g.subs[k], append(append([]any{}, path...), g.values[k]))
			}
			return
		}
		json := summary(g.rows)
		for depth := len(path) - 1; depth >= 0; depth-- {
			if !jsv.IsUndefined(path[depth]) {
				json.Set(names[depth], path[depth])
			}
		}
		paired := make(workflow.PairedItems, len(g.rows))
		for i, r := range g.rows {
			paired[i] = workflow.PairedItem{Item: r.index}
		}
		out = append(out, workflow.Item{JSON: json, PairedItem: &paired})
	}
	walk(root, nil)
	return out
}

var numeric = map[string]bool{"average": true, "max": true, "min": true, "sum": true}

func aggregate1(rows []row, a aggregation, get jsv.Getter, compareAny bool) any {
	if compareAny && (a.kind == "min" || a.kind == "max") {
		return extreme(rows, a, get)
	}
	var vals []any
	for _, r := range rows {
		v := get(r.json, a.field)
		if numeric[a.kind] && jsv.TypeOf(v) != "number" {
			continue
		}
		vals = append(vals, v)
	}
	nonEmpty := func() []any {
		var out []any
		for _, v := range vals {
			if !isEmptyValue(v) {
				out = append(out, v)
			}
		}
		return out
	}
	switch a.kind {
	case "append":
		if !a.includeEmpty {
			vals = nonEmpty()
		}
		out := make([]any, len(vals))
		for i, v := range vals {
			out[i] = workflow.DeepCopy(defined(v))
		}
		return out
	case "concatenate":
		if !a.includeEmpty {
			vals = nonEmpty()
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			switch {
			case jsv.IsUndefined(v):
				parts[i] = "undefined"
			case workflow.IsObject(v) || v == nil:
				parts[i] = stringify(v)
			default:
				parts[i] = jsv.ToString(v)
			}
		}
		return strings.Join(parts, a.separator)
	case "average", "sum":
		sum := 0.0
		for _, v := range vals {
			f, _ := workflow.Number(v)
			sum += f
		}
		if a.kind == "sum" {
			return sum
		}
		return defined(sum / float64(len(vals)))
	case "min", "max":
		res := math.Inf(1)
		if a.kind == "max" {
			res = math.Inf(-1)
		}
		for _, v := range vals {
			f, _ := workflow.Number(v)
			if a.kind == "min" {
				res = math.Min(res, f)
			} else {
				res = math.Max(res, f)
			}
		}
		return defined(res)
	case "countUnique":
		seen := map[string]bool{}
		n := 0
		for _, v := range nonEmpty() {
			if workflow.IsObject(v) {
				// A Set holds objects by identity: each one counts.
				n++
				continue
			}
			k := jsv.TypeOf(v) + ":" + jsv.ToString(v)
			if !seen[k] {
				seen[k] = true
				n++
			}
		}
		return float64(n)
	}
	return float64(len(nonEmpty()))
}

var (
	brackets = regexp.MustCompile(`[\]\["]`)
	spaces   = regexp.MustCompile(`[ .]`)
)

// cleanName is version 2's output field naming: brackets and quotes removed, spaces and dots
// turned into underscores.
func cleanName(s string) string {
	return spaces.ReplaceAllString(brackets.ReplaceAllString(s, ""), "_")
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return jsv.ToString(v)
}

// extreme is Min or Max over the non-empty values of any type, compared as JavaScript's < and
// > do; null when there is none.
func extreme(rows []row, a aggregation, get jsv.Getter) any {
	var best any
	found := false
	for _, r := range rows {
		v := get(r.json, a.field)
		if isEmptyValue(v) {
			continue
		}
		if !found || a.kind == "min" && jsv.Less(v, best) || a.kind == "max" && jsv.Less(best, v) {
			best, found = v, true
		}
	}
	if !found {
		return nil
	}
	return best
}
