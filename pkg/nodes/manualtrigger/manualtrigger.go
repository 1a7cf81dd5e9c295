// Package manualtrigger is the Manual Trigger: a manual run starts here with one empty item.
package manualtrigger

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindTrigger, execute)
	t.EffectFree = true
	t.StartPriority = 1
	return t
}

// execute is the trigger's manual output; in other modes the engine passes the start input on.
func execute(_ context.Context, _ *nodes.Execution) ([][]workflow.Item, error) {
	return [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}, nil
}
