package switchnode

import (
	"context"
	_ "embed"
	"fmt"
	"math"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v2.json
var descriptionV2JSON []byte

// TypeV2 returns Switch version 2: as many outputs as rules (each rule routes to its own output,
// labelled by its output key) or, in expression mode, as many as outputsAmount.
func TypeV2() nodes.Type {
	t := nodes.Define(descriptionV2JSON, nodes.KindAction, executeV2)
	t.EffectFree = true
	t.LoadOptions = map[string]nodes.LoadOptionsFunc{"getFallbackOutputOptions": fallbackOptionsV2}
	return t
}

// fallbackOptionsV2 offers "None" (-1) and one choice per rule, named by index and output key.
func fallbackOptionsV2(_ context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	out := []nodes.OptionValue{{Name: "None", Value: -1}}
	for i, r := range ruleEntries(req.Parameters, "rules") {
		key, _ := r["outputKey"].(string)
		out = append(out, nodes.OptionValue{Name: fmt.Sprintf("%d %s", i, key), Value: i})
	}
	return out, nil
}

// ruleEntries returns the entries of the fixedCollection rules.<group> in unresolved parameters.
func ruleEntries(params map[string]any, group string) []map[string]any {
	rules, _ := params["rules"].(map[string]any)
	list, _ := rules[group].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func executeV2(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	var out [][]workflow.Item
	for i, item := range ex.InputData(0) {
		idx, n, err := routeV2(ex, i)
		if i == 0 {
			// The outputs exist once their number is known, even when item 0 then fails.
			out = emptyOutputs(n)
		}
		if err == nil && idx >= 0 {
			err = checkRangeV2(i, idx, len(out))
		}
		if err != nil {
			if ex.ContinueOnFail() && len(out) > 0 {
				out[0] = append(out[0], workflow.Item{JSON: workflow.ObjectOf("error", err.Error())})
				continue
			}
			return nil, err
		}
		if idx >= 0 {
			out[idx] = append(out[idx], item)
		}
	}
	return out, nil
}

func emptyOutputs(n int) [][]workflow.Item {
	out := make([][]workflow.Item, n)
	for o := range out {
		out[o] = []workflow.Item{}
	}
	return out
}

// routeV2 returns the output of item i (-1 for none) and the number of outputs the node has.
func routeV2(ex *nodes.Execution, i int) (int, int, error) {
	mode, err := ex.ParamString("mode", i)
	if err != nil {
		return 0, 0, err
	}
	switch mode {
	case "expression":
		amount, err := ex.ParamFloat("outputsAmount", i)
		if err != nil {
			return 0, 0, err
		}
		v, err := ex.Param("output", i)
		if err != nil {
			return 0, max(int(amount), 0), err
		}
		idx, err := outputIndex(i, v)
		return idx, max(int(amount), 0), err
	case "rules":
		rules, err := ex.ParamList("rules.rules", i)
		if err != nil {
			return 0, 0, err
		}
		dataType, err := ex.ParamString("dataType", 0)
		if err != nil {
			return 0, 0, err
		}
		v1, err := ex.ParamOr("value1", i, workflow.Undefined{})
		if err != nil {
			return 0, len(rules), err
		}
		if dataType == "dateTime" {
			if v1, err = jsv.DateTimeValue(v1); err != nil {
				return 0, len(rules), nodes.Errorf(i, "%s", err.Error())
			}
		}
		for r, rule := range rules {
			v2, ok := rule["value2"]
			if !ok {
				v2 = workflow.Undefined{}
			}
			if dataType == "dateTime" {
				if v2, err = jsv.DateTimeValue(v2); err != nil {
					return 0, len(rules), nodes.Errorf(i, "%s", err.Error())
				}
			}
			op, _ := rule["operation"].(string)
			match, err := jsv.Compare(op, v1, v2)
			if err != nil {
				return 0, len(rules), nodes.Errorf(i, "%s", err.Error())
			}
			if match {
				return r, len(rules), nil
			}
		}
		fb, err := ex.ParamOr("fallbackOutput", i, -1.0)
		if err != nil {
			return 0, len(rules), err
		}
		if f, ok := workflow.Number(fb); ok && f == -1 {
			return -1, len(rules), nil
		}
		idx, err := outputIndex(i, fb)
		return idx, len(rules), err
	}
	return -1, 0, nil
}

// outputIndex converts an output parameter to an index; it must be a whole number.
func outputIndex(i int, v any) (int, error) {
	f := jsv.ToNumber(v)
	if math.IsNaN(f) || f != math.Trunc(f) {
		return 0, nodes.Errorf(i, "The ouput %s is not allowed. It has to be a whole number!", jsv.ToString(v))
	}
	return int(f), nil
}

func checkRangeV2(i, idx, n int) error {
	if idx < 0 || idx >= n {
		return nodes.Errorf(i, "The ouput %d is not allowed. It has to be between 0 and %d!", idx, n-1)
	}
	return nil
}
