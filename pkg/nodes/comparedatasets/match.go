package comparedatasets

import (
	"slices"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type lookupEntry struct {
	field string
	value any
}

type entryMatches struct {
	entry   workflow.Item
	matches []workflow.Item
}

// findMatches pairs the inputs and sorts the items into the four outputs, as n8n's findMatches.
func findMatches(in1, in2 []workflow.Item, pairs []pair, s settings) ([][]workflow.Item, error) {
	equal := fuzzyCompare(s.fuzzy, s.version)
	get := jsv.FieldGetter(s.disableDot)
	if s.disableDot {
		for _, f := range s.skipFields {
			if strings.Contains(f, ".") {
				return nil, nodes.Errorf(-1, "Dot notation is disabled, but field to skip comparing '%s' contains dot", f)
			}
		}
	}

	var matched []entryMatches
	unmatched1 := []workflow.Item{}
	matchedIn2 := map[int]bool{}
entries:
	for _, entry := range in1 {
		// Keyed by the B field, as n8n's lookup object: a repeated B field keeps its first
		// position and its last value.
		var lookup []lookupEntry
		for _, p := range pairs {
			v := get(entry.JSON, p.field1)
			i := slices.IndexFunc(lookup, func(e lookupEntry) bool { return e.field == p.field2 })
			if i >= 0 {
				lookup[i].value = v
			} else {
				lookup = append(lookup, lookupEntry{p.field2, v})
			}
		}
		for _, l := range lookup {
			if jsv.IsUndefined(l.value) {
				unmatched1 = append(unmatched1, entry)
				continue entries
			}
		}
		var matches []workflow.Item
		for i, candidate := range in2 {
			ok := true
			for _, l := range lookup {
				if !equal(l.value, get(candidate.JSON, l.field)) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			matches = append(matches, candidate)
			matchedIn2[i] = true
			if !s.multiple {
				break
			}
		}
		if len(matches) > 0 {
			matched = append(matched, entryMatches{entry, matches})
		} else {
			unmatched1 = append(unmatched1, entry)
		}
	}
	unmatched2 := []workflow.Item{}
	for i, it := range in2 {
		if !matchedIn2[i] {
			unmatched2 = append(unmatched2, it)
		}
	}

	dotted := slices.ContainsFunc(s.skipFields, func(f string) bool { return strings.Contains(f, ".") })
	withoutSkipped := func(obj *workflow.Object) *workflow.Object {
		c := obj.Clone()
		if c == nil {
			c = workflow.NewObject(0)
		}
		for _, f := range s.skipFields {
			if s.disableDot || !dotted {
				c.Delete(f)
			} else {
				workflow.UnsetPath(c, f)
			}
		}
		return c
	}
	same, different := []workflow.Item{}, []workflow.Item{}
	for _, em := range matched {
		var kept *workflow.Item
		for _, match := range em.matches {
			a, b := withoutSkipped(em.entry.JSON), withoutSkipped(match.JSON)
			itemsEqual := true
			if s.fuzzy {
				for _, k := range jsv.Keys(a) {
					if !equal(a.Get(k), key(b, k)) {
						itemsEqual = false
						break
					}
				}
			} else {
				itemsEqual = equal(a, b)
			}
			if itemsEqual {
				if kept == nil {
					kept = &em.entry
					if s.fuzzy && s.resolve == "preferInput2" {
						kept = &match
					}
				}
				continue
			}
			switch s.resolve {
			case "preferInput1":
				different = append(different, em.entry)
			case "preferInput2":
				different = append(different, match)
			case "mix":
				different = append(different, combine(em.entry, match, s))
			default:
				item, err := compareItems(em.entry, match, pairs, s, equal)
				if err != nil {
					return nil, err
				}
				different = append(different, item)
			}
		}
		if kept != nil {
			same = append(same, *kept)
		}
	}
	return [][]workflow.Item{unmatched1, same, different, unmatched2}, nil
}

// combine takes the preferred version and the other version's values of the "except" fields.
func combine(item1, item2 workflow.Item, s settings) workflow.Item {
	entry, match := item2, item1
	if s.preferWhenMix == "input1" {
		entry, match = item1, item2
	}
	var except []string
	if s.exceptWhenMix != "" {
		except = splitTrim(s.exceptWhenMix)
	}
	json := entry.JSON.Clone()
	if json == nil {
		json = workflow.NewObject(0)
	}
	for _, f := range except {
		if v := key(match.JSON, f); !jsv.IsUndefined(v) {
			json.Set(f, workflow.DeepCopy(v))
		} else {
			json.Delete(f)
		}
		if !s.disableDot {
			v := jsv.FieldGetter(false)(match.JSON, f)
			workflow.SetPath(json, f, workflow.DeepCopy(orNull(v)))
		}
	}
	entry.JSON = json
	return entry
}

// compareItems builds the "include both versions" item {keys, same, different, skipped}.
func compareItems(item1, item2 workflow.Item, pairs []pair, s settings, equal equalFunc) (workflow.Item, error) {
	keys := workflow.NewObject(len(pairs))
	for _, p := range pairs {
		if v := key(item1.JSON, p.field1); !jsv.IsUndefined(v) {
			keys.Set(p.field1, workflow.DeepCopy(v))
		}
	}
	keys1, keys2 := jsv.Keys(item1.JSON), jsv.Keys(item2.JSON)
	all := append(slices.Clone(keys1), slices.DeleteFunc(slices.Clone(keys2), func(k string) bool { return slices.Contains(keys1, k) })...)
	toCompare := all
	if !(s.fuzzy && s.version >= 2.1) {
		toCompare = slices.DeleteFunc(slices.Clone(keys1), func(k string) bool { return !slices.Contains(keys2, k) })
	}
	// A key can be the same while undefined on A (fuzzy); it is then absent from the JSON.
	same, sameKeys := workflow.NewObject(len(toCompare)), map[string]bool{}
	for _, k := range toCompare {
		if equal(key(item1.JSON, k), key(item2.JSON, k)) {
			sameKeys[k] = true
			if v := key(item1.JSON, k); !jsv.IsUndefined(v) {
				same.Set(k, workflow.DeepCopy(v))
			}
		}
	}
	nameA, nameB := "input1", "input2"
	if s.version >= 2 {
		nameA, nameB = "inputA", "inputB"
	}
	nullish := orNull
	if s.version >= 2 {
		nullish = definedOrNull
	}
	different, skipped := workflow.NewObject(0), workflow.NewObject(0)
	i := 0
	for _, k := range all {
		if sameKeys[k] {
			continue
		}
		in1 := workflow.DeepCopy(nullish(key(item1.JSON, k)))
		in2 := workflow.DeepCopy(nullish(key(item2.JSON, k)))
		if s.version >= 2.1 && !s.disableDot && !slices.Contains(s.skipFields, k) {
			var nested []string
			for _, f := range s.skipFields {
				if strings.HasPrefix(f, k) && strings.Contains(f, ".") {
					nested = append(nested, f)
				}
			}
			if len(nested) > 0 && (jsv.TypeOf(in1) != "object" || jsv.TypeOf(in2) != "object") {
				return workflow.Item{}, nodes.Errorf(-1, "The field '%s' in item %d is not an object. It is not possible to use dot notation.", k, i)
			}
			if len(nested) > 0 {
				sa, sb := workflow.NewObject(0), workflow.NewObject(0)
				if prev, ok := skipped.Get(k).(*workflow.Object); ok {
					sa, _ = prev.Get(nameA).(*workflow.Object)
					sb, _ = prev.Get(nameB).(*workflow.Object)
				}
				get := jsv.FieldGetter(false)
				for _, f := range nested {
					path := strings.Replace(f, k+".", "", 1)
					set(sa, path, workflow.DeepCopy(get(in1, path)))
					set(sb, path, workflow.DeepCopy(get(in2, path)))
					workflow.UnsetPath(in1, path)
					workflow.UnsetPath(in2, path)
				}
				skipped.Set(k, workflow.ObjectOf(nameA, sa, nameB, sb))
			}
			different.Set(k, workflow.ObjectOf(nameA, in1, nameB, in2))
		} else if slices.Contains(s.skipFields, k) {
			skipped.Set(k, workflow.ObjectOf(nameA, in1, nameB, in2))
		} else {
			different.Set(k, workflow.ObjectOf(nameA, in1, nameB, in2))
		}
		i++
	}
	json := workflow.ObjectOf("keys", keys, "same", same, "different", different)
	if skipped.Len() > 0 {
		json.Set("skipped", skipped)
	}
	return workflow.Item{JSON: json}, nil
}
