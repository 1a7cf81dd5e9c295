// Package cron is the Cron trigger node (version 1): it fires at the trigger times it lists
// (every minute/hour/day/week/month, every X minutes or hours, or a custom cron expression).
// Firing on schedule belongs to the scheduler (see pkg/schedule); run by hand, or started by
// the engine, it outputs one empty item.
package cron

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
	return nodes.Type{Description: nodes.MustParseDescription(descriptionJSON), Kind: nodes.KindTrigger, Node: nodes.NodeFunc(execute)}
}

func execute(_ context.Context, _ *nodes.Execution) ([][]workflow.Item, error) {
	return [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}, nil
}
