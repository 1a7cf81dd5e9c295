// Package comparedatasets is the Compare Datasets node (versions 1, 2, 2.1 and 2.2): items of
// input A and input B are paired when their match fields are equal, and each pair is compared
// on all its other fields. Outputs: "In A only", "Same", "Different", "In B only". Differences
// are resolved by keeping A's version, B's version, a mix, or both (a {keys, same, different,
// skipped} summary). Versions, as in n8n:
//   - 1: fuzzy compare is an option; resolved missing or falsy values become null; "input1"
//     and "input2" name the versions.
//   - 2: fuzzy compare is a top-level parameter; null also matches 0 and "0" when fuzzy;
//     "inputA" and "inputB" name the versions; only missing values become null.
//   - 2.1: "include both" is the default; fuzzy compare looks at fields present on either side;
//     dotted skip fields are skipped inside objects.
//   - 2.2: a match field missing from every item of an input is no longer an error.
package comparedatasets

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed compare.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	t.IconSVG = iconSVG
	return t
}

type pair struct{ field1, field2 string }

// settings are the parameters findMatches works with.
type settings struct {
	version       float64
	fuzzy         bool
	disableDot    bool
	multiple      bool
	skipFields    []string
	resolve       string
	preferWhenMix string
	exceptWhenMix string
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	list, err := ex.ParamList("mergeByFields.values", 0)
	if err != nil {
		return nil, err
	}
	pairs, err := matchFields(list)
	if err != nil {
		return nil, err
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	s := settings{version: ex.TypeVersion(), disableDot: opts["disableDotNotation"] == true,
		multiple: opts["multipleMatches"] == "all", fuzzy: opts["fuzzyCompare"] == true}
	if s.version >= 2 {
		if s.fuzzy, err = ex.ParamBool("fuzzyCompare", 0); err != nil {
			return nil, err
		}
	}
	skip, _ := opts["skipFields"].(string)
	s.skipFields = splitTrim(skip)

	in1, in2 := nonEmpty(ex.InputData(0)), nonEmpty(ex.InputData(1))
	if s.version < 2.2 {
		for _, c := range []struct {
			items []workflow.Item
			label string
			field func(pair) string
		}{{in1, "Input A", func(p pair) string { return p.field1 }}, {in2, "Input B", func(p pair) string { return p.field2 }}} {
			if err := checkPresent(c.items, pairs, c.field, s.disableDot, c.label); err != nil {
				return nil, err
			}
		}
	}
	if s.resolve, err = ex.ParamString("resolve", 0); err != nil {
		return nil, err
	}
	if s.resolve == "mix" {
		if s.preferWhenMix, err = ex.ParamString("preferWhenMix", 0); err != nil {
			return nil, err
		}
		if s.exceptWhenMix, err = ex.ParamString("exceptWhenMix", 0); err != nil {
			return nil, err
		}
	}
	return findMatches(in1, in2, pairs, s)
}

func matchFields(list []map[string]any) ([]pair, error) {
	pairs := make([]pair, len(list))
	for i, e := range list {
		pairs[i] = pair{str(e["field1"]), str(e["field2"])}
	}
	if len(pairs) == 1 && pairs[0].field1 == "" && pairs[0].field2 == "" {
		return nil, nodes.Errorf(-1, `You need to define at least one pair of fields in "Fields to Match" to match on`)
	}
	for i, p := range pairs {
		if p.field1 == "" || p.field2 == "" {
			return nil, nodes.Errorf(-1, "You need to define both fields in \"Fields to Match\" for pair %d,\n field 1 = '%s'\n field 2 = '%s'",
				i+1, p.field1, p.field2)
		}
	}
	return pairs, nil
}

// nonEmpty drops items whose json is empty, as n8n's checkInput does.
func nonEmpty(items []workflow.Item) []workflow.Item {
	out := make([]workflow.Item, 0, len(items))
	for _, it := range items {
		if it.JSON.Len() > 0 {
			out = append(out, it)
		}
	}
	return out
}

// checkPresent fails when a match field is in none of an input's items (before version 2.2).
func checkPresent(items []workflow.Item, pairs []pair, field func(pair) string, disableDot bool, label string) error {
	if len(items) == 0 {
		return nil
	}
	get := jsv.FieldGetter(disableDot)
	for _, p := range pairs {
		f := field(p)
		present := false
		for _, it := range items {
			if !jsv.IsUndefined(get(it.JSON, f)) {
				present = true
				break
			}
		}
		if !present {
			return nodes.Errorf(-1, "Field '%s' is not present in any of items in '%s'", f, label)
		}
	}
	return nil
}

func str(v any) string {
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}
