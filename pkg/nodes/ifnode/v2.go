package ifnode

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filter"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v2.json
var descriptionV2 []byte

// TypeV2 returns the IF node version 2: one filter-conditions parameter (typed operators,
// strict or loose type validation, ignore case), items that pass go to "true", the others to
// "false".
func TypeV2() nodes.Type {
	t := nodes.Define(descriptionV2, nodes.KindAction, executeV2)
	t.EffectFree = true
	return t
}

func executeV2(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	pass, fail, err := filter.Split(ex)
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{pass, fail}, nil
}
