// Package ifnode is the IF node. In version 1 items go to output 0 ("true") or 1 ("false")
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
		combine, err := ex.ParamString("combineOperation", i)
		if err != nil {
			return nil, err
		}
		pass, err := Matches(ex, i, combine == "any")
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

// Matches evaluates the version 1 conditions (boolean, dateTime, number, string lists under
// "conditions") for item i: all of them must hold, or any when anyCondition. Filter 1 shares it.
func Matches(ex *nodes.Execution, i int, anyCondition bool) (bool, error) {
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
			if ok && anyCondition {
				return true, nil
			}
			if !ok && !anyCondition {
				return false, nil
			}
		}
	}
	return !anyCondition, nil
}

func value(c map[string]any, key string) any {
	if v, ok := c[key]; ok {
		return v
	}
	return workflow.Undefined{}
}
