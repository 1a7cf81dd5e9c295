// Package filter is the Filter node: it keeps the items that meet its conditions and drops the
// others. Version 1 has IF 1's conditions (boolean, dateTime, number and string lists) combined
// with AND or OR; version 2 has the filter-conditions parameter shared with IF 2.
package filter

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/ifnode"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filter"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	//go:embed v1.json
	descriptionV1 []byte
	//go:embed v2.json
	descriptionV2 []byte
)

// TypeV1 returns the Filter node version 1.
func TypeV1() nodes.Type {
	t := nodes.Define(descriptionV1, nodes.KindAction, executeV1)
	t.EffectFree = true
	return t
}

// TypeV2 returns the Filter node version 2.
func TypeV2() nodes.Type {
	t := nodes.Define(descriptionV2, nodes.KindAction, executeV2)
	t.EffectFree = true
	return t
}

func executeV1(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	kept := []workflow.Item{}
	for i, item := range ex.InputData(0) {
		combine, err := ex.ParamString("combineConditions", i)
		if err != nil {
			return nil, err
		}
		pass, err := ifnode.Matches(ex, i, combine == "OR")
		if err != nil {
			return nil, err
		}
		if pass {
			kept = append(kept, item)
		}
	}
	return [][]workflow.Item{kept}, nil
}

func executeV2(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	kept, _, err := filter.Split(ex)
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{kept}, nil
}
