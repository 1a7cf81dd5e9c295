package execution

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// After every node, the base written at the first checkpoint with the deltas written since
// reads back as exactly the state a full checkpoint would have written: what a worker taking
// over resumes from is unchanged. The workflow has branches, a node that waits for two inputs,
// a node run twice and a partial run's given run data, in both execution orders.
func TestCheckpointDeltasGiveTheFullState(t *testing.T) {
	doc := `{"name":"shapes","nodes":[
	 {"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
	 {"name":"Items","type":"n8n-nodes-base.code","typeVersion":1,"position":[200,0],"parameters":{"jsCode":"return [{json:{a:1}},{json:{a:2}}]"}},
	 {"name":"IF","type":"n8n-nodes-base.if","typeVersion":1,"position":[400,0],"parameters":{"conditions":{"number":[{"value1":"={{$json.a}}","operation":"equal","value2":1}]}}},
	 {"name":"One","type":"n8n-nodes-base.set","typeVersion":1,"position":[600,0],"parameters":{"values":{"string":[{"name":"b","value":"one"}]}}},
	 {"name":"Two","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[600,200],"parameters":{}},
	 {"name":"Merge","type":"n8n-nodes-base.merge","typeVersion":1,"position":[800,0],"parameters":{}},
	 {"name":"Again","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[1000,0],"parameters":{}},
	 {"name":"Last","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[1200,0],"parameters":{}}],
	 "connections":{"Start":{"main":[[{"node":"Items","type":"main","index":0}]]},
	  "Items":{"main":[[{"node":"IF","type":"main","index":0}]]},
	  "IF":{"main":[[{"node":"One","type":"main","index":0},{"node":"Again","type":"main","index":0}],[{"node":"Two","type":"main","index":0}]]},
	  "One":{"main":[[{"node":"Merge","type":"main","index":0}]]},
	  "Two":{"main":[[{"node":"Merge","type":"main","index":1}]]},
	  "Merge":{"main":[[{"node":"Again","type":"main","index":0}]]},
	  "Again":{"main":[[{"node":"Last","type":"main","index":0}]]}}}`
	wf, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	ev, err := expr.New(expr.Options{})
	require.NoError(t, err)

	// The same workflow in the v1 execution order, whose queue grows at the front.
	wfV1, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	wfV1.Settings = workflow.Settings{"executionOrder": workflow.ExecutionOrderV1}

	for _, req := range []engine.Request{
		{Workflow: wf},
		{Workflow: wf, StartNodes: []string{"IF"}, RunData: workflow.RunData{"Items": {{Data: &workflow.TaskDataConnections{
			Main: [][]workflow.Item{{{JSON: workflow.ObjectFromMap(map[string]any{"a": 1.0})}, {JSON: workflow.ObjectFromMap(map[string]any{"a": 2.0})}}}}}}}},
		{Workflow: wfV1},
	} {
		var (
			base   store.JSON
			deltas []store.JSON
			saved  int
			checks int
		)
		after := func(_ context.Context, _ engine.NodeEvent, _ *workflow.TaskData, state *engine.State) error {
			full, err := json.Marshal(state)
			require.NoError(t, err)
			if base == nil {
				base = full
			} else {
				d, err := encodeDelta(state, saved)
				require.NoError(t, err)
				deltas = append(deltas, d)
			}
			saved = len(state.NodeExecutionOrder)
			merged, err := store.ApplyCheckpointDeltas(base, deltas)
			require.NoError(t, err)
			require.JSONEq(t, string(full), string(merged), "after %d checkpoints", len(deltas))
			var resumed engine.State
			require.NoError(t, json.Unmarshal(merged, &resumed))
			again, err := json.Marshal(&resumed)
			require.NoError(t, err)
			require.JSONEq(t, string(full), string(again), "the merged state reads as the engine's state")
			checks++
			return nil
		}
		eng, err := engine.New(engine.Options{Registry: core.Registry(), Evaluator: ev, Hooks: []engine.Hook{engine.HookFuncs{After: after}}})
		require.NoError(t, err)
		res, err := eng.Run(context.Background(), req)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusSuccess, res.Status, "%+v", res.State.ResultData.Error)
		require.Greater(t, len(res.State.ResultData.RunData["Again"]), 1, "a node ran twice")
		require.Equal(t, len(res.State.NodeExecutionOrder), checks)
	}
}
