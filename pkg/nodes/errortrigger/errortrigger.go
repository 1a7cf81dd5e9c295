// Package errortrigger is the Error Trigger node (version 1): the start of an error workflow.
// When a failed execution starts its workflow's error workflow, the node gets the error payload
// (see Payload) as input and passes it on; in a manual run without input it outputs n8n's
// example payload so the error workflow can be built and tested.
package errortrigger

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration. Like n8n's node it has no trigger function: it
// runs on its input in every mode, and the engine picks it as a start node by its type name.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.StartPriority = 2
	return t
}

// ExampleURLBase is the base of the example execution URL of a manual run (n8n derives it from
// its REST API URL, http://localhost:5678/rest by default).
const ExampleURLBase = "http://localhost:5678"

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	if ex.Mode() == workflow.ModeManual && len(items) == 1 && items[0].JSON.Len() == 0 && items[0].Binary == nil {
		const id = 231
		example := Payload{
			ExecutionID: float64(id), URL: ExampleURLBase + "/execution/workflow/1/231", RetryOf: "34",
			Error:            map[string]any{"message": "Example Error Message", "stack": "Stacktrace"},
			LastNodeExecuted: "Node With Error", Mode: "manual",
			WorkflowID: "1", WorkflowName: "Example Workflow",
		}
		item := items[0]
		item.JSON = example.JSON()
		return [][]workflow.Item{{item}}, nil
	}
	return [][]workflow.Item{items}, nil
}

// Payload is what an error workflow receives about the failed execution, as n8n sends it.
type Payload struct {
	// ExecutionID is the failed execution's id (a string, or a number in n8n's example).
	ExecutionID any
	// URL opens the failed execution in the editor.
	URL string
	// Error is the execution's error as run data holds it (message, stack, node, …).
	Error            any
	LastNodeExecuted string
	Mode             string
	// RetryOf is the id of the execution this one retried; empty when it was no retry.
	RetryOf      string
	WorkflowID   string
	WorkflowName string
}

// JSON returns the payload as the Error Trigger's item json:
// {execution: {id, url, retryOf?, error, lastNodeExecuted, mode}, workflow: {id, name}}.
func (p Payload) JSON() *workflow.Object {
	execution := workflow.ObjectOf("id", p.ExecutionID, "url", p.URL, "error", workflow.FromMaps(p.Error),
		"lastNodeExecuted", p.LastNodeExecuted, "mode", p.Mode)
	if p.RetryOf != "" {
		execution.Set("retryOf", p.RetryOf)
	}
	return workflow.ObjectOf(
		"execution", execution,
		"workflow", workflow.ObjectOf("id", p.WorkflowID, "name", p.WorkflowName),
	)
}

// Item returns the payload as the error workflow's start input.
func (p Payload) Item() workflow.Item { return workflow.Item{JSON: p.JSON()} }
