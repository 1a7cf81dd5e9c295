package switchnode

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filter"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v3.json
var descriptionV3JSON []byte

// TypeV3 returns Switch version 3: each routing rule is a set of filter conditions with its
// own output; expression mode has numberOutputs outputs.
func TypeV3() nodes.Type {
	t := nodes.Define(descriptionV3JSON, nodes.KindAction, executeV3)
	t.EffectFree = true
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{"getFallbackOutputOptions": fallbackOptionsV3}
	return t
}

// fallbackOptionsV3 offers none, an extra output, and the output of each rule.
func fallbackOptionsV3(_ context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	out := []nodes.OptionValue{
		{Name: "None (default)", Value: "none", Description: "Items will be ignored"},
		{Name: "Extra Output", Value: "extra", Description: "Items will be sent to the extra, separate, output"},
	}
	for i, r := range ruleEntries(req.Parameters, "values") {
		name := fmt.Sprint(i)
		if key, _ := r["outputKey"].(string); key != "" {
			name = key
		}
		out = append(out, nodes.OptionValue{
			Name:        "Output " + name,
			Value:       i,
			Description: fmt.Sprintf("Items will be sent to the same output as when matched rule %d", i+1),
		})
	}
	return out, nil
}

func executeV3(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	var out [][]workflow.Item
	for i, in := range ex.InputData(0) {
		item := in
		item.PairedItem = &workflow.PairedItems{{Item: i}}
		var err error
		if mode == "expression" {
			out, err = routeExpressionV3(ex, i, item, out)
		} else if mode == "rules" {
			out, err = routeRulesV3(ex, i, item, out)
		}
		if err != nil {
			if ex.ContinueOnFail() && len(out) > 0 {
				out[0] = append(out[0], workflow.Item{JSON: workflow.ObjectOf("error", err.Error())})
				continue
			}
			return nil, err
		}
	}
	if len(out) == 0 {
		return [][]workflow.Item{{}}, nil
	}
	return out, nil
}

func routeExpressionV3(ex *nodes.Execution, i int, item workflow.Item, out [][]workflow.Item) ([][]workflow.Item, error) {
	n, err := ex.ParamFloat("numberOutputs", i)
	if err != nil {
		return out, err
	}
	if i == 0 {
		out = emptyOutputs(max(int(n), 0))
	}
	v, err := ex.Param("output", i)
	if err != nil {
		return out, err
	}
	if _, ok := workflow.Number(v); !ok {
		return out, nodes.Errorf(i, "Parameter 'Output Index' expects a number but we got '%s'", jsv.ToString(v))
	}
	return sendTo(out, i, v, item)
}

// sendTo adds item i to the output that v names, which must exist.
func sendTo(out [][]workflow.Item, i int, v any, item workflow.Item) ([][]workflow.Item, error) {
	idx, err := outputIndex(i, v)
	if err == nil {
		err = checkRangeV3(i, idx, len(out))
	}
	if err != nil {
		return out, err
	}
	out[idx] = append(out[idx], item)
	return out, nil
}

// rulesV3 is how Switch 3.x sets its rules' type options: a top-level looseTypeValidation
// from 3.1, conditions version 2 from 3.2 and 3 from 3.4.
var rulesV3 = filter.Node{LooseParamSince: 3.1, Version: func(v float64) int {
	switch {
	case v >= 3.4:
		return 3
	case v >= 3.2:
		return 2
	}
	return 1
}}

func routeRulesV3(ex *nodes.Execution, i int, item workflow.Item, out [][]workflow.Item) ([][]workflow.Item, error) {
	rules, err := ex.ParamList("rules.values", i)
	if err != nil || len(rules) == 0 {
		return out, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return out, err
	}
	fallback, hasFallback := options["fallbackOutput"]
	if i == 0 {
		out = emptyOutputs(len(rules))
		if fallback == "extra" {
			out = append(out, []workflow.Item{})
		}
	}
	all, _ := options["allMatchingOutputs"].(bool)
	matched := false
	for r, rule := range rules {
		// The rule's conditions take their case and type settings from the node's options
		// (case sensitive and strict unless set), as version 3's filter type options say.
		conditions := filter.Parse(rule["conditions"])
		conditions.CaseSensitive, conditions.Strict = true, true
		if conditions, err = rulesV3.Apply(ex, i, conditions, options); err != nil {
			return out, err
		}
		pass, err := conditions.Execute(i)
		if err != nil {
			return out, filter.NodeError(err, i, "")
		}
		if !pass {
			continue
		}
		matched = true
		if r >= len(out) {
			return out, checkRangeV3(i, r, len(out))
		}
		out[r] = append(out[r], item)
		if !all {
			return out, nil
		}
	}
	if matched || !hasFallback || fallback == "none" {
		return out, nil
	}
	if fallback == "extra" {
		if len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], item)
		}
		return out, nil
	}
	return sendTo(out, i, fallback, item)
}

// checkRangeV3 is version 3's output check: index n (one past the end) hints at zero-based
// indexes.
func checkRangeV3(i, idx, n int) error {
	if idx == n {
		e := nodes.Errorf(i, "The ouput %d is not allowed. ", idx)
		e.Description = fmt.Sprintf("Output indexes are zero based, if you want to use the extra output use %d", idx-1)
		return e
	}
	if idx < 0 || idx > n {
		e := nodes.Errorf(i, "The ouput %d is not allowed", idx)
		e.Description = fmt.Sprintf("It has to be between 0 and %d", n-1)
		return e
	}
	return nil
}
