package merge

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v3.json
var v3JSON []byte

// TypeV3 returns Merge versions 3 to 3.2: append, combine (by matching fields, by position, or
// every combination) and choose branch, over 2–10 inputs where the mode allows it. The SQL
// Query mode (the only one 3.1 and 3.2 change) keeps its parameters but fails when run.
func TypeV3() nodes.Type {
	t := nodes.Define(v3JSON, nodes.KindAction, executeV3)
	t.EffectFree = true
	t.RequiredInputs = requiredInputs
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{
		"getResolveClashOptions": resolveClashOptions,
		"getInputs":              inputOptions,
	}
	return t
}

// numberInputsOf reads numberInputs from unresolved parameters (2 when unset).
func numberInputsOf(params map[string]any) int {
	if n, ok := workflow.Number(params["numberInputs"]); ok && n >= 2 {
		return int(n)
	}
	return 2
}

func resolveClashOptions(_ context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	if numberInputsOf(req.Parameters) <= 2 {
		return []nodes.OptionValue{
			{Name: "Always Add Input Number to Field Names", Value: "addSuffix"},
			{Name: "Prefer Input 1 Version", Value: "preferInput1"},
			{Name: "Prefer Input 2 Version", Value: "preferLast"},
		}, nil
	}
	return []nodes.OptionValue{
		{Name: "Always Add Input Number to Field Names", Value: "addSuffix"},
		{Name: "Use Earliest Version", Value: "preferInput1"},
	}, nil
}

func inputOptions(_ context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	n := numberInputsOf(req.Parameters)
	out := make([]nodes.OptionValue, n)
	for i := range out {
		out[i] = nodes.OptionValue{Name: strconv.Itoa(i + 1), Value: i + 1}
	}
	return out, nil
}

func executeV3(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	n, err := ex.ParamFloat("numberInputs", 0)
	if err != nil {
		return nil, err
	}
	inputs := make([][]workflow.Item, max(int(n), 2))
	for i := range inputs {
		inputs[i] = nonNil(ex.InputData(i))
	}
	var out []workflow.Item
	switch mode {
	case "append":
		for _, in := range inputs {
			out = append(out, in...)
		}
	case "combine":
		by, err := ex.ParamString("combineBy", 0)
		if err != nil {
			return nil, err
		}
		switch by {
		case "combineByFields":
			pairs, err := fieldPairsV3(ex)
			if err != nil {
				return nil, err
			}
			out, err = joinByFields(ex, inputs[0], inputs[1], pairs)
			if err != nil {
				return nil, err
			}
		case "combineByPosition":
			if out, err = byPositionV3(ex, inputs); err != nil {
				return nil, err
			}
		case "combineAll":
			if out, err = multiplex(ex, inputs[0], inputs[1]); err != nil {
				return nil, err
			}
		default:
			return nil, nodes.Errorf(-1, "The combine mode %q is not known", by)
		}
	case "chooseBranch":
		if out, err = chooseBranchV3(ex, inputs); err != nil {
			return nil, err
		}
	case "combineBySql":
		e := nodes.Errorf(-1, "The SQL Query mode is not supported")
		e.Description = "Flowmill does not run SQL over the inputs; use the Combine mode (matching fields, position or all combinations) or a Code node instead."
		return nil, e
	default:
		return nil, nodes.Errorf(-1, "The mode %q is not known", mode)
	}
	return [][]workflow.Item{nonNil(out)}, nil
}

// fieldPairsV3 reads the fields to match: a comma-separated list of names both inputs share,
// or field pairs when they have different names.
func fieldPairsV3(ex *nodes.Execution) ([]fieldPair, error) {
	advanced, err := ex.ParamBool("advanced", 0)
	if err != nil {
		return nil, err
	}
	var entries []map[string]any
	if advanced {
		if entries, err = ex.ParamList("mergeByFields.values", 0); err != nil {
			return nil, err
		}
	} else {
		list, err := ex.ParamString("fieldsToMatchString", 0)
		if err != nil {
			return nil, err
		}
		for _, f := range strings.Split(list, ",") {
			f = strings.TrimSpace(f)
			entries = append(entries, map[string]any{"field1": f, "field2": f})
		}
	}
	pairs, err := matchFields(entries)
	if err != nil {
		return nil, nodes.Errorf(-1, "%s", err.Error())
	}
	return pairs, nil
}

// byPositionV3 merges the items at the same position of every input; the preferred input (the
// last one unless preferInputN is chosen) wins clashes.
func byPositionV3(ex *nodes.Execution, inputs [][]workflow.Item) ([]workflow.Item, error) {
	clash, err := clashParam(ex)
	if err != nil {
		return nil, err
	}
	unpaired, err := ex.ParamOr("options.includeUnpaired", 0, false)
	if err != nil {
		return nil, err
	}
	includeUnpaired, _ := unpaired.(bool)
	preferred := len(inputs) - 1
	if k, ok := strings.CutPrefix(clash.resolveClash, "preferInput"); ok {
		if i, err := strconv.Atoi(k); err == nil && i >= 1 && i <= len(inputs) {
			preferred = i - 1
		}
	}
	if clash.resolveClash == "addSuffix" {
		suffixed := make([][]workflow.Item, len(inputs))
		for i, in := range inputs {
			suffixed[i] = addSuffix(in, strconv.Itoa(i+1))
		}
		inputs = suffixed
	}
	n := len(inputs[0])
	for _, in := range inputs {
		if includeUnpaired {
			n = max(n, len(in))
		} else {
			n = min(n, len(in))
		}
	}
	out := make([]workflow.Item, 0, n)
	for i := 0; i < n; i++ {
		var objs []*workflow.Object
		var bins []map[string]workflow.BinaryData
		var paired workflow.PairedItems
		for _, in := range append(append([][]workflow.Item{}, inputs...), inputs[preferred]) {
			if i >= len(in) {
				continue
			}
			objs = append(objs, in[i].JSON)
			bins = append(bins, in[i].Binary)
			if in[i].PairedItem != nil {
				paired = append(paired, *in[i].PairedItem...)
			}
		}
		item := workflow.Item{JSON: clash.mergeObjects(objs...), Binary: mergeBinaries(bins...)}
		if paired != nil {
			item.PairedItem = &paired
		}
		out = append(out, item)
	}
	return out, nil
}

func chooseBranchV3(ex *nodes.Execution, inputs [][]workflow.Item) ([]workflow.Item, error) {
	output, err := ex.ParamString("output", 0)
	if err != nil {
		return nil, err
	}
	switch output {
	case "specifiedInput":
		which, err := ex.ParamFloat("useDataOfInput", 0)
		if err != nil {
			return nil, err
		}
		if int(which) > len(inputs) || which < 1 {
			e := nodes.Errorf(-1, "Input %s doesn't exist", strconv.FormatFloat(which, 'f', -1, 64))
			e.Description = fmt.Sprintf("The node has only %d inputs, so selecting input %s is not possible.", len(inputs), strconv.FormatFloat(which, 'f', -1, 64))
			return nil, e
		}
		return inputs[int(which)-1], nil
	case "empty":
		return []workflow.Item{emptyItemOf(inputs[0], inputs[1])}, nil
	}
	return nil, nil
}
