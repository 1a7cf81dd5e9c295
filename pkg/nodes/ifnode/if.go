// Package ifnode is the IF node (version 1): items go to output 0 ("true") or 1 ("false")
// depending on boolean, date, number and string conditions combined with ALL or ANY. Values
// are compared with JavaScript's coercions, as n8n does.
package ifnode

import (
	"context"
	_ "embed"

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

var dataTypes = []string{"boolean", "dateTime", "number", "string"}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	trueItems, falseItems := []workflow.Item{}, []workflow.Item{}
	for i, item := range items {
		pass, err := matches(ex, i)
		if err != nil {
			return nil, err
		}
		if pass {
			trueItems = append(trueItems, item)
		} else {
			falseItems = append(falseItems, item)
		}
	}
	return [][]workflow.Item{trueItems, falseItems}, nil
}

func matches(ex *nodes.Execution, i int) (bool, error) {
	combine, err := ex.ParamString("combineOperation", i)
	if err != nil {
		return false, err
	}
	for _, dt := range dataTypes {
		conds, err := ex.ParamList("conditions."+dt, i)
		if err != nil {
			return false, err
		}
		for _, c := range conds {
			v1, v2 := value(c, "value1"), value(c, "value2")
			if dt == "dateTime" {
				if v1, err = jsv.DateTimeValue(v1); err != nil {
					return false, nodes.Errorf(i, "%s", err.Error())
				}
				if v2, err = jsv.DateTimeValue(v2); err != nil {
					return false, nodes.Errorf(i, "%s", err.Error())
				}
			}
			op, _ := c["operation"].(string)
			ok, err := jsv.Compare(op, v1, v2)
			if err != nil {
				return false, nodes.Errorf(i, "%s", err.Error())
			}
			if ok && combine == "any" {
				return true, nil
			}
			if !ok && combine == "all" {
				return false, nil
			}
		}
	}
	return combine == "all", nil
}

func value(c map[string]any, key string) any {
	if v, ok := c[key]; ok {
		return v
	}
	return workflow.Undefined{}
}
