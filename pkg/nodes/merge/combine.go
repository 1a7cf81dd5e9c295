package merge

import (
	"fmt"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// clashOptions are options.clashHandling.values.
type clashOptions struct {
	resolveClash  string
	mergeMode     string
	overrideEmpty bool
}

func clashFrom(v any) clashOptions {
	m, _ := v.(map[string]any)
	var c clashOptions
	c.resolveClash, _ = m["resolveClash"].(string)
	if c.resolveClash == "preferLast" {
		// Version 3's "Prefer Input 2 Version" of two inputs.
		c.resolveClash = "preferInput2"
	}
	c.mergeMode, _ = m["mergeMode"].(string)
	c.overrideEmpty, _ = m["overrideEmpty"].(bool)
	return c
}

// mergeObjects combines JSON objects left to right as the node's selectMergeMethod: lodash
// merge (deep, the default) or assign (shallowMerge); with overrideEmpty, empty values (null,
// "") do not replace existing ones. Inputs are not modified.
func (c clashOptions) mergeObjects(objs ...*workflow.Object) *workflow.Object {
	out := workflow.NewObject(objs[0].Len())
	for _, o := range objs {
		if c.mergeMode == "shallowMerge" {
			for k, v := range o.All() {
				if out.Has(k) && c.overrideEmpty && isEmptyValue(v) {
					continue
				}
				out.Set(k, v)
			}
			continue
		}
		deepMerge(out, o, c.overrideEmpty)
	}
	return out
}

func isEmptyValue(v any) bool { return v == nil || v == "" }

// deepMerge is lodash's merge of src into dst: objects and arrays are merged key by key (arrays
// by index) into copies, other values replace.
func deepMerge(dst, src *workflow.Object, overrideEmpty bool) {
	for k, sv := range src.All() {
		cur, has := dst.Lookup(k)
		if has && overrideEmpty && isEmptyValue(sv) {
			continue
		}
		dst.Set(k, mergeValue(cur, sv, overrideEmpty))
	}
}

func mergeValue(cur, sv any, overrideEmpty bool) any {
	switch s := sv.(type) {
	case map[string]any:
		return mergeValue(cur, workflow.ObjectFromMap(s), overrideEmpty)
	case *workflow.Object:
		d, ok := cur.(*workflow.Object)
		if !ok || d == nil {
			d = workflow.NewObject(s.Len())
		}
		deepMerge(d, s, overrideEmpty)
		return d
	case []any:
		d, ok := cur.([]any)
		if !ok {
			d = []any{}
		}
		for i, e := range s {
			for len(d) <= i {
				d = append(d, nil)
			}
			if overrideEmpty && isEmptyValue(e) && d[i] != nil {
				continue
			}
			d[i] = mergeValue(d[i], e, overrideEmpty)
		}
		return d
	}
	return sv
}

func mergeBinaries(objs ...map[string]workflow.BinaryData) map[string]workflow.BinaryData {
	out := map[string]workflow.BinaryData{}
	for _, o := range objs {
		for k, v := range o {
			out[k] = v
		}
	}
	return out
}

func addSuffix(items []workflow.Item, suffix string) []workflow.Item {
	out := make([]workflow.Item, len(items))
	for i, it := range items {
		j := workflow.NewObject(it.JSON.Len())
		for k, v := range it.JSON.All() {
			j.Set(k+"_"+suffix, v)
		}
		it.JSON = j
		out[i] = it
	}
	return out
}

func addSourceField(items []workflow.Item, source string) []workflow.Item {
	out := make([]workflow.Item, len(items))
	for i, it := range items {
		j := it.JSON.ShallowClone()
		if j == nil {
			j = workflow.NewObject(1)
		}
		j.Set("_source", source)
		it.JSON = j
		out[i] = it
	}
	return out
}

type fieldPair struct{ field1, field2 string }

func matchFields(entries []map[string]any) ([]fieldPair, error) {
	pairs := make([]fieldPair, len(entries))
	for i, e := range entries {
		f1, f2 := jsv.ToString(or(e["field1"])), jsv.ToString(or(e["field2"]))
		pairs[i] = fieldPair{f1, f2}
	}
	if len(pairs) == 1 && pairs[0].field1 == "" && pairs[0].field2 == "" {
		return nil, fmt.Errorf(`You need to define at least one pair of fields in "Fields to Match" to match on`)
	}
	for i, p := range pairs {
		if p.field1 == "" || p.field2 == "" {
			return nil, fmt.Errorf("You need to define both fields in \"Fields to Match\" for pair %d,\n field 1 = '%s'\n field 2 = '%s'", i+1, p.field1, p.field2)
		}
	}
	return pairs, nil
}

func or(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// checkInput fails when a match field is in none of the items (Merge 2.0 behaviour).
func checkInput(items []workflow.Item, fields []string, noDots bool, label string) error {
	get := jsv.FieldGetter(noDots)
	for _, f := range fields {
		present := false
		for _, it := range items {
			if !jsv.IsUndefined(get(it.JSON, f)) {
				present = true
				break
			}
		}
		if !present {
			return fmt.Errorf("Field '%s' is not present in any of items in '%s'", f, label)
		}
	}
	return nil
}

type entryMatches struct {
	entry   workflow.Item
	matches []workflow.Item
}

type matchResult struct {
	matched                          []entryMatches
	matched2, unmatched1, unmatched2 []workflow.Item
}

type matchOptions struct {
	joinMode, outputDataFrom, multipleMatches string
	noDots, fuzzy                             bool
}

// findMatches pairs items of the two inputs on the match fields. For enrichInput2 the inputs
// are swapped, so input 2 drives and "unmatched1" holds input 2's unmatched items.
func findMatches(in1, in2 []workflow.Item, pairs []fieldPair, o matchOptions) matchResult {
	data1, data2 := in1, in2
	if o.joinMode == "enrichInput2" {
		data1, data2 = in2, in1
	}
	get := jsv.FieldGetter(o.noDots)
	equal := jsv.Equal
	if o.fuzzy {
		equal = jsv.FuzzyEqual
	}
	var res matchResult
	matchedIn2 := map[int]bool{}
	for _, e1 := range data1 {
		lookup := make([]struct {
			field string
			value any
		}, 0, len(pairs))
		missing := false
		for _, p := range pairs {
			v := get(e1.JSON, p.field1)
			if jsv.IsUndefined(v) {
				missing = true
			}
			lookup = append(lookup, struct {
				field string
				value any
			}{p.field2, v})
		}
		if missing {
			res.unmatched1 = append(res.unmatched1, e1)
			continue
		}
		var found []workflow.Item
		for j, e2 := range data2 {
			ok := true
			for _, l := range lookup {
				if !equal(l.value, get(e2.JSON, l.field)) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			found = append(found, e2)
			matchedIn2[j] = true
			if o.multipleMatches == "first" {
				break
			}
		}
		switch {
		case len(found) == 0:
			res.unmatched1 = append(res.unmatched1, e1)
		case o.outputDataFrom == "both" || o.joinMode == "enrichInput1" || o.joinMode == "enrichInput2":
			for _, m := range found {
				res.matched = append(res.matched, entryMatches{entry: e1, matches: []workflow.Item{m}})
			}
		default:
			res.matched = append(res.matched, entryMatches{entry: e1, matches: found})
		}
	}
	for j, e2 := range data2 {
		if matchedIn2[j] {
			res.matched2 = append(res.matched2, e2)
		} else {
			res.unmatched2 = append(res.unmatched2, e2)
		}
	}
	return res
}

// mergeMatched merges each entry with its matches. Without a clash setting input 2 wins; for
// enrichInput2 the roles are swapped, so the driving input 2 still wins.
func mergeMatched(matched []entryMatches, clash clashOptions, joinMode string) []workflow.Item {
	out := make([]workflow.Item, 0, len(matched))
	prefer1, prefer2 := "preferInput1", "preferInput2"
	if joinMode == "enrichInput2" {
		prefer1, prefer2 = prefer2, prefer1
	}
	resolve := clash.resolveClash
	if resolve == "" {
		resolve = "preferInput2"
	}
	for _, m := range matched {
		entry, matches := m.entry, m.matches
		var item workflow.Item
		switch {
		case resolve == "addSuffix":
			s1, s2 := "1", "2"
			if joinMode == "enrichInput2" {
				s1, s2 = s2, s1
			}
			entry = addSuffix([]workflow.Item{entry}, s1)[0]
			matches = addSuffix(matches, s2)
			item = mergeInto(clash, entry, matches)
		case resolve == prefer1:
			all := append(append([]workflow.Item{}, matches[1:]...), entry)
			item = mergeInto(clash, matches[0], all)
		case resolve == prefer2:
			item = mergeInto(clash, entry, matches)
		}
		var p workflow.PairedItems
		for _, it := range append([]workflow.Item{m.entry}, m.matches...) {
			if it.PairedItem != nil {
				p = append(p, *it.PairedItem...)
			}
		}
		if p != nil {
			item.PairedItem = &p
		}
		out = append(out, item)
	}
	return out
}

func mergeInto(clash clashOptions, first workflow.Item, rest []workflow.Item) workflow.Item {
	objs := []*workflow.Object{first.JSON}
	bins := []map[string]workflow.BinaryData{first.Binary}
	for _, r := range rest {
		objs = append(objs, r.JSON)
		bins = append(bins, r.Binary)
	}
	return workflow.Item{JSON: clash.mergeObjects(objs...), Binary: mergeBinaries(bins...)}
}
