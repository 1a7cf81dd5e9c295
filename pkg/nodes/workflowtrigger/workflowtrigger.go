// Package workflowtrigger is the Workflow Trigger node (version 1): an active workflow starts
// here when it is activated ("activate") or saved while active ("update"), for the events the
// node lists. The save that causes the event queues it once (see pkg/trigger's Activation); the
// run gets the item Output describes.
package workflowtrigger

import (
	"context"
	_ "embed"
	"slices"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// TypeName is the node's type.
const TypeName = "n8n-nodes-base.workflowTrigger"

// Events a workflow's save may cause.
const (
	EventActivate = "activate"
	EventUpdate   = "update"
)

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindTrigger, execute)
}

// execute is the run by hand.
func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	return [][]workflow.Item{{{JSON: workflow.ObjectOf("event", "Manual execution",
		"timestamp", Timestamp(ex.Now()), "workflow_id", ex.ExprContext(0).Workflow.ID)}}}, nil
}

// Listens reports whether a node with these parameters fires on event.
func Listens(params map[string]any, event string) bool {
	list, _ := params["events"].([]any)
	return slices.Contains(list, any(event))
}

// Output is the item of a run the event started at t.
func Output(event string, t time.Time, workflowID string) *workflow.Object {
	name := "Workflow activated"
	if event == EventUpdate {
		name = "Workflow updated"
	}
	return workflow.ObjectOf("event", name, "timestamp", Timestamp(t), "workflow_id", workflowID)
}

// Timestamp is JavaScript's toISOString.
func Timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}
