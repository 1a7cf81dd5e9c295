// Package switchnode is the Switch node (version 1): an expression picks the output (0–3) of
// each item, or rules compare a value per item and send it to the output of the first matching
// rule, else to the fallback output.
package switchnode

import (
	"context"
	_ "embed"
	"math"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

const outputs = 4

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	out := make([][]workflow.Item, outputs)
	for o := range out {
		out[o] = []workflow.Item{}
	}
	for i, item := range ex.InputData(0) {
		idx, err := route(ex, i)
		if err != nil {
			if ex.ContinueOnFail() {
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

// route returns the output index of item i, or -1 for none.
func route(ex *nodes.Execution, i int) (int, error) {
	mode, err := ex.ParamString("mode", i)
	if err != nil {
		return 0, err
	}
	switch mode {
	case "expression":
		v, err := ex.Param("output", i)
		if err != nil {
			return 0, err
		}
		return checkIndex(i, v)
	case "rules":
		dataType, err := ex.ParamString("dataType", 0)
		if err != nil {
			return 0, err
		}
		v1, err := ex.ParamOr("value1", i, workflow.Undefined{})
		if err != nil {
			return 0, err
		}
		if dataType == "dateTime" {
			if v1, err = jsv.DateTimeValue(v1); err != nil {
				return 0, nodes.Errorf(i, "%s", err.Error())
			}
		}
		rules, err := ex.ParamList("rules.rules", i)
		if err != nil {
			return 0, err
		}
		for _, r := range rules {
			v2, ok := r["value2"]
			if !ok {
				v2 = workflow.Undefined{}
			}
			if dataType == "dateTime" {
				if v2, err = jsv.DateTimeValue(v2); err != nil {
					return 0, nodes.Errorf(i, "%s", err.Error())
				}
			}
			op, _ := r["operation"].(string)
			match, err := jsv.Compare(op, v1, v2)
			if err != nil {
				return 0, nodes.Errorf(i, "%s", err.Error())
			}
			if match {
				return checkIndex(i, r["output"])
			}
		}
		fb, err := ex.Param("fallbackOutput", i)
		if err != nil {
			return 0, err
		}
		if f, ok := workflow.Number(fb); ok && f == -1 {
			return -1, nil
		}
		return checkIndex(i, fb)
	}
	return -1, nil
}

// checkIndex accepts whole numbers 0–3; other values fail as n8n's range check does.
func checkIndex(i int, v any) (int, error) {
	f := jsv.ToNumber(v)
	if math.IsNaN(f) || f < 0 || f >= outputs || f != math.Trunc(f) {
		return 0, nodes.Errorf(i, "The ouput %s is not allowed. It has to be between 0 and %d!", jsv.ToString(v), outputs-1)
	}
	return int(f), nil
}
