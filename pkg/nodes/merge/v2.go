package merge

import (
	"context"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func executeV2(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	in1, in2 := nonNil(ex.InputData(0)), nonNil(ex.InputData(1))
	var out []workflow.Item
	switch mode {
	case "append":
		out = append(append([]workflow.Item{}, in1...), in2...)
	case "combine":
		combination, err := ex.ParamString("combinationMode", 0)
		if err != nil {
			return nil, err
		}
		switch combination {
		case "multiplex":
			out, err = multiplex(ex, in1, in2)
		case "mergeByPosition":
			out, err = byPosition(ex, in1, in2)
		case "mergeByFields":
			out, err = byFields(ex, in1, in2)
		}
		if err != nil {
			return nil, err
		}
	case "chooseBranch":
		which, err := ex.ParamString("output", 0)
		if err != nil {
			return nil, err
		}
		switch which {
		case "input1":
			out = in1
		case "input2":
			out = in2
		case "empty":
			out = []workflow.Item{emptyItemOf(in1, in2)}
		}
	}
	return [][]workflow.Item{nonNil(out)}, nil
}

// emptyItemOf is chooseBranch's single empty item, paired with every item of both inputs.
func emptyItemOf(in1, in2 []workflow.Item) workflow.Item {
	var p workflow.PairedItems
	for _, it := range append(append([]workflow.Item{}, in1...), in2...) {
		if it.PairedItem != nil {
			p = append(p, *it.PairedItem...)
		}
	}
	item := workflow.Item{JSON: workflow.NewObject(0)}
	if p != nil {
		item.PairedItem = &p
	}
	return item
}

func clashParam(ex *nodes.Execution) (clashOptions, error) {
	v, err := ex.ParamOr("options.clashHandling.values", 0, map[string]any{})
	if err != nil {
		return clashOptions{}, err
	}
	return clashFrom(v), nil
}

func multiplex(ex *nodes.Execution, in1, in2 []workflow.Item) ([]workflow.Item, error) {
	clash, err := clashParam(ex)
	if err != nil {
		return nil, err
	}
	if clash.resolveClash == "preferInput1" {
		in1, in2 = in2, in1
	}
	if clash.resolveClash == "addSuffix" {
		in1, in2 = addSuffix(in1, "1"), addSuffix(in2, "2")
	}
	out := []workflow.Item{}
	for _, a := range in1 {
		for _, b := range in2 {
			item := workflow.Item{
				JSON:       clash.mergeObjects(a.JSON, b.JSON),
				Binary:     mergeBinaries(a.Binary, b.Binary),
				PairedItem: pairOf(a, b),
			}
			out = append(out, item)
		}
	}
	return out, nil
}

func byPosition(ex *nodes.Execution, in1, in2 []workflow.Item) ([]workflow.Item, error) {
	clash, err := clashParam(ex)
	if err != nil {
		return nil, err
	}
	includeUnpaired, err := ex.ParamOr("options.includeUnpaired", 0, false)
	if err != nil {
		return nil, err
	}
	unpaired, _ := includeUnpaired.(bool)
	if len(in1) == 0 || len(in2) == 0 {
		return append(append([]workflow.Item{}, in1...), in2...), nil
	}
	if clash.resolveClash == "preferInput1" {
		in1, in2 = in2, in1
	}
	if clash.resolveClash == "addSuffix" {
		in1, in2 = addSuffix(in1, "1"), addSuffix(in2, "2")
	}
	n := min(len(in1), len(in2))
	if unpaired {
		n = max(len(in1), len(in2))
	}
	out := make([]workflow.Item, 0, n)
	for i := 0; i < n; i++ {
		switch {
		case i >= len(in1):
			out = append(out, in2[i])
		case i >= len(in2):
			out = append(out, in1[i])
		default:
			out = append(out, workflow.Item{
				JSON:       clash.mergeObjects(in1[i].JSON, in2[i].JSON),
				Binary:     mergeBinaries(in1[i].Binary, in2[i].Binary),
				PairedItem: pairOf(in1[i], in2[i]),
			})
		}
	}
	return out, nil
}

func byFields(ex *nodes.Execution, in1, in2 []workflow.Item) ([]workflow.Item, error) {
	entries, err := ex.ParamList("mergeByFields.values", 0)
	if err != nil {
		return nil, err
	}
	pairs, err := matchFields(entries)
	if err != nil {
		return nil, nodes.Errorf(-1, "%s", err.Error())
	}
	return joinByFields(ex, in1, in2, pairs)
}

// joinByFields joins the inputs on the field pairs with the node's joinMode, outputDataFrom and
// options (versions 2 and 3).
func joinByFields(ex *nodes.Execution, in1, in2 []workflow.Item, pairs []fieldPair) ([]workflow.Item, error) {
	joinMode, err := ex.ParamString("joinMode", 0)
	if err != nil {
		return nil, err
	}
	outputFrom := "both"
	if v, err := ex.ParamOr("outputDataFrom", 0, "both"); err != nil {
		return nil, err
	} else if s, ok := v.(string); ok {
		outputFrom = s
	}
	options, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	o := matchOptions{joinMode: joinMode, outputDataFrom: outputFrom}
	o.noDots, _ = options["disableDotNotation"].(bool)
	o.fuzzy, _ = options["fuzzyCompare"].(bool)
	o.multipleMatches, _ = options["multipleMatches"].(string)
	clash := clashFrom(nil)
	if ch, ok := options["clashHandling"].(map[string]any); ok {
		clash = clashFrom(ch["values"])
	}

	if ex.TypeVersion() < 2.1 {
		var f1, f2 []string
		for _, p := range pairs {
			f1, f2 = append(f1, p.field1), append(f2, p.field2)
		}
		if err := checkInput(in1, f1, o.noDots, "Input 1"); err != nil {
			return nil, nodes.Errorf(-1, "%s", err.Error())
		}
		if err := checkInput(in2, f2, o.noDots, "Input 2"); err != nil {
			return nil, nodes.Errorf(-1, "%s", err.Error())
		}
	}
	if len(in1) == 0 || len(in2) == 0 {
		switch {
		case len(in1) == 0 && joinMode == "keepNonMatches" && outputFrom == "input1",
			len(in2) == 0 && joinMode == "keepNonMatches" && outputFrom == "input2",
			joinMode == "keepMatches",
			joinMode == "enrichInput1" && len(in1) == 0,
			joinMode == "enrichInput2" && len(in2) == 0:
			return []workflow.Item{}, nil
		}
		return append(append([]workflow.Item{}, in1...), in2...), nil
	}

	m := findMatches(in1, in2, pairs, o)
	out := []workflow.Item{}
	switch joinMode {
	case "keepMatches", "keepEverything":
		switch outputFrom {
		case "input1":
			for _, e := range m.matched {
				out = append(out, e.entry)
			}
		case "input2":
			out = append(out, m.matched2...)
		case "both":
			out = mergeMatched(m.matched, clash, joinMode)
		}
		if joinMode == "keepEverything" {
			u1, u2 := m.unmatched1, m.unmatched2
			if clash.resolveClash == "addSuffix" {
				u1, u2 = addSuffix(u1, "1"), addSuffix(u2, "2")
			}
			out = append(append(out, u1...), u2...)
		}
	case "keepNonMatches":
		switch outputFrom {
		case "input1":
			return nonNil(m.unmatched1), nil
		case "input2":
			return nonNil(m.unmatched2), nil
		}
		out = append(addSourceField(m.unmatched1, "input1"), addSourceField(m.unmatched2, "input2")...)
	case "enrichInput1", "enrichInput2":
		merged := mergeMatched(m.matched, clash, joinMode)
		rest := m.unmatched1
		if clash.resolveClash == "addSuffix" {
			suffix := "1"
			if joinMode == "enrichInput2" {
				suffix = "2"
			}
			rest = addSuffix(rest, suffix)
		}
		out = append(merged, rest...)
	}
	return out, nil
}
