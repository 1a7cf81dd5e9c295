package expr

import (
	"github.com/flowmill/flowmill/pkg/workflow"
)

func paired(items ...int) *workflow.PairedItems {
	p := make(workflow.PairedItems, len(items))
	for i, n := range items {
		p[i] = workflow.PairedItem{Item: n}
	}
	return &p
}

func run(source []*workflow.SourceData, outputs ...[]workflow.Item) workflow.TaskData {
	return workflow.TaskData{Source: source, Data: &workflow.TaskDataConnections{Main: outputs}}
}

// fixtureContext is the Context of node "Current" in this workflow, run for its item 0:
//
//	Start → Set → IF ─false→ Current
//
// Start emitted one empty item; Set ran twice (the last run made items a and b from it); IF
// sent a to its true output and b to its false output, which feeds Current.
func fixtureContext() *Context {
	start := []*workflow.SourceData{{PreviousNode: "Start"}}
	set := []*workflow.SourceData{{PreviousNode: "Set", PreviousNodeRun: 1}}
	return &Context{
		NodeName:       "Current",
		NodeType:       "n8n-nodes-base.set",
		NodeParameters: map[string]any{"value": "=x{{ 1 + 1 }}", "plain": 5.0, "rl": map[string]any{"__rl": true, "mode": "id", "value": "abc"}},
		Items: []workflow.Item{{
			JSON:       workflow.ObjectFromMap(map[string]any{"name": "b", "n": 2.0, "tags": []any{"t1"}}),
			Binary:     map[string]workflow.BinaryData{"file": {Data: "aGk=", MimeType: "text/plain", FileName: "hi.txt"}},
			PairedItem: paired(0),
		}},
		ItemIndex: 0,
		RunIndex:  0,
		Source:    []*workflow.SourceData{{PreviousNode: "IF", PreviousNodeOutput: 1}},
		RunData: workflow.RunData{
			"Start": {run(nil, []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{})}})},
			"Set": {
				run(start, []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"name": "old"}), PairedItem: paired(0)}}),
				run(start, []workflow.Item{
					{JSON: workflow.ObjectFromMap(map[string]any{"name": "a", "n": 1.0}), PairedItem: paired(0)},
					{JSON: workflow.ObjectFromMap(map[string]any{"name": "b", "n": 2.0}), PairedItem: paired(0)},
				}),
			},
			"IF": {run(set,
				[]workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"name": "a", "n": 1.0}), PairedItem: paired(0)}},
				[]workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"name": "b", "n": 2.0}), PairedItem: paired(1)}},
			)},
		},
		Workflow:  WorkflowInfo{ID: "wf1", Name: "My workflow", Active: true},
		Execution: ExecutionInfo{ID: "42", Mode: "manual", ResumeURL: "http://localhost:5678/webhook-waiting/42"},
		Timezone:  "Europe/Berlin",
		Env:       map[string]string{"HOME": "/home/flowmill"},
		Nodes: map[string]NodeInfo{
			"Start":   {Type: "n8n-nodes-base.manualTrigger"},
			"Set":     {Type: "n8n-nodes-base.set", Parameters: map[string]any{"keepOnlySet": true}},
			"IF":      {Type: "n8n-nodes-base.if", Parameters: map[string]any{"combineOperation": "all"}},
			"Current": {Type: "n8n-nodes-base.set"},
			"Orphan":  {Type: "n8n-nodes-base.noOp"},
		},
		ParentOutput: ParentOutputsOf(map[string]int{"IF": 1, "Set": 0, "Start": 0}),
		NodeContext:  map[string]map[string]any{"IF": {"noItemsLeft": true}},
	}
}
