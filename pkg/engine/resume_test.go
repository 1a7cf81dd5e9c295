package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// resumeNodes has branches, a waiting Merge and an IF, so the saved state holds both a queue
// and waiting inputs at some checkpoints.
const resumeNodes = `[
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
 {"name": "A", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "a", "value": 1}]}}},
 {"name": "B", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "b", "value": 2}]}}},
 {"name": "B2", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "b2", "value": "={{ $json.b * 10 }}"}]}}},
 {"name": "Merge", "type": "n8n-nodes-base.merge", "typeVersion": 1, "parameters": {}},
 {"name": "IF", "type": "n8n-nodes-base.if", "typeVersion": 1, "parameters": {"conditions": {"number": [{"value1": "={{ $json.a }}", "operation": "equal", "value2": 1}]}}},
 {"name": "Yes", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
 {"name": "No", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}]`

func resumeWorkflow(t testing.TB) *workflow.Workflow {
	return wf(t, resumeNodes, conn{"Start", 0, "A", 0}, conn{"Start", 0, "B", 0}, conn{"B", 0, "B2", 0},
		conn{"A", 0, "Merge", 0}, conn{"B2", 0, "Merge", 1}, conn{"Merge", 0, "IF", 0},
		conn{"IF", 0, "Yes", 0}, conn{"IF", 1, "No", 0})
}

func TestResumeAfterEveryNode(t *testing.T) {
	t.Parallel()
	want := run(t, newEngine(t), engine.Request{Workflow: resumeWorkflow(t)})
	require.True(t, want.Finished)
	total := len(want.State.NodeExecutionOrder)
	require.Equal(t, []string{"Start", "A", "B", "B2", "Merge", "IF", "Yes", "No"}, want.State.NodeExecutionOrder)

	for k := 1; k < total; k++ {
		t.Run(fmt.Sprintf("stop after %d", k), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var saved []byte
			done := 0
			stopper := engine.HookFuncs{After: func(_ context.Context, _ engine.NodeEvent, _ *workflow.TaskData, st *engine.State) error {
				done++
				if done == k {
					b, err := json.Marshal(st)
					saved = b
					cancel()
					return err
				}
				return nil
			}}
			first, err := newEngine(t, stopper).Run(ctx, engine.Request{Workflow: resumeWorkflow(t)})
			require.NoError(t, err)
			require.Equal(t, workflow.StatusCanceled, first.Status)
			require.NotNil(t, saved)

			var st engine.State
			require.NoError(t, json.Unmarshal(saved, &st))
			var ran []string
			recorder := engine.HookFuncs{Before: func(_ context.Context, ev engine.NodeEvent) { ran = append(ran, ev.Node) }}
			res, err := newEngine(t, recorder).Resume(context.Background(), resumeWorkflow(t), &st, workflow.ModeManual, "")
			require.NoError(t, err)
			require.True(t, res.Finished, "%+v", res.State.ResultData.Error)
			require.Equal(t, want.State.NodeExecutionOrder, res.State.NodeExecutionOrder)
			require.Equal(t, want.State.NodeExecutionOrder[k:], ran, "finished nodes are not run again")
			require.Equal(t, timeless(t, want.State.ResultData.RunData), timeless(t, res.State.ResultData.RunData))
		})
	}
}

// timeless returns run data as JSON without start and execution times.
func timeless(t testing.TB, rd workflow.RunData) string {
	c := copyRunData(t, rd)
	for _, runs := range c {
		for i := range runs {
			runs[i].StartTime, runs[i].ExecutionTime = 0, 0
		}
	}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return string(b)
}

func TestStateJSONShape(t *testing.T) {
	t.Parallel()
	var saved []byte
	hook := engine.HookFuncs{After: func(_ context.Context, ev engine.NodeEvent, _ *workflow.TaskData, st *engine.State) error {
		if ev.Node == "B2" {
			saved, _ = json.Marshal(st)
		}
		return nil
	}}
	run(t, newEngine(t, hook), engine.Request{Workflow: resumeWorkflow(t)})
	var generic map[string]any
	require.NoError(t, json.Unmarshal(saved, &generic))
	ed := generic["executionData"].(map[string]any)
	require.Contains(t, ed, "nodeExecutionStack")
	require.Contains(t, ed, "waitingExecution")
	require.Contains(t, ed, "waitingExecutionSource")
	stack := ed["nodeExecutionStack"].([]any)
	require.Len(t, stack, 1)
	require.Equal(t, "Merge", stack[0].(map[string]any)["node"], "B2 completed the Merge's inputs")
	rd := generic["resultData"].(map[string]any)["runData"].(map[string]any)
	require.Contains(t, rd, "B2")
}
