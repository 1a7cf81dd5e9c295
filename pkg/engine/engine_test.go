package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

const startSet = `[
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "position": [200, 0],
  "parameters": {"values": {"number": [{"name": "value1", "value": 1}]}}}]`

func TestTwoNodeRun(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	res := run(t, e, engine.Request{Workflow: wf(t, startSet, conn{"Start", 0, "Set", 0})})
	require.True(t, res.Finished)
	require.Equal(t, workflow.StatusSuccess, res.Status)
	require.Equal(t, []string{"Start", "Set"}, res.State.NodeExecutionOrder)
	require.Equal(t, [][]map[string]any{{{"value1": 1.0}}}, outputs(t, res, "Set"))
	require.Equal(t, "Set", res.State.ResultData.LastNodeExecuted)

	setRun := res.State.ResultData.RunData["Set"][0]
	require.Equal(t, []*workflow.SourceData{{PreviousNode: "Start"}}, setRun.Source)
	require.Equal(t, workflow.PairedItems{{Item: 0}}, *setRun.Data.Main[0][0].PairedItem)
	require.Empty(t, res.State.ExecutionData.NodeExecutionStack)
	require.Equal(t, []*workflow.SourceData{}, res.State.ResultData.RunData["Start"][0].Source)
}

func TestNodeRunsTwiceWithTwoInputConnections(t *testing.T) {
	t.Parallel()
	nodes := `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Set1", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "value1", "value": 1}]}}},
	 {"name": "Set2", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "value2", "value": 2}]}}}]`
	res := run(t, newEngine(t), engine.Request{Workflow: wf(t, nodes,
		conn{"Start", 0, "Set1", 0}, conn{"Start", 0, "Set2", 0}, conn{"Set1", 0, "Set2", 0})})
	require.Equal(t, []string{"Start", "Set1", "Set2", "Set2"}, res.State.NodeExecutionOrder)
	require.Equal(t, [][]map[string]any{{{"value2": 2.0}}, {{"value1": 1.0, "value2": 2.0}}}, outputs(t, res, "Set2"))
	require.Equal(t, 1, res.State.ResultData.RunData["Set2"][1].Source[0].PreviousNodeRun+1, "second run comes from Set1 run 0")
	require.Equal(t, "Set1", res.State.ResultData.RunData["Set2"][1].Source[0].PreviousNode)
}

const branches = `[
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
 {"name": "A", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"string": [{"name": "a", "value": "1"}]}}},
 {"name": "B", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"string": [{"name": "b", "value": "2"}]}}},
 {"name": "B2", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
 {"name": "Merge", "type": "n8n-nodes-base.merge", "typeVersion": 1, "parameters": {"mode": "mergeByIndex"}},
 {"name": "End", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}]`

func branchWorkflow(t testing.TB) *workflow.Workflow {
	return wf(t, branches, conn{"Start", 0, "A", 0}, conn{"Start", 0, "B", 0}, conn{"B", 0, "B2", 0},
		conn{"A", 0, "Merge", 0}, conn{"B2", 0, "Merge", 1}, conn{"Merge", 0, "End", 0})
}

func TestMultiBranchWithMerge(t *testing.T) {
	t.Parallel()
	res := run(t, newEngine(t), engine.Request{Workflow: branchWorkflow(t)})
	require.True(t, res.Finished)
	// FIFO: both children of Start, then B's child; the Merge waits for B2.
	require.Equal(t, []string{"Start", "A", "B", "B2", "Merge", "End"}, res.State.NodeExecutionOrder)
	require.Equal(t, [][]map[string]any{{{"a": "1", "b": "2"}}}, outputs(t, res, "End"))
	src := res.State.ResultData.RunData["Merge"][0].Source
	require.Equal(t, "A", src[0].PreviousNode)
	require.Equal(t, "B2", src[1].PreviousNode)
}

func TestDestinationNode(t *testing.T) {
	t.Parallel()
	res := run(t, newEngine(t), engine.Request{Workflow: branchWorkflow(t), DestinationNode: "B2"})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "B", "B2"}, res.State.NodeExecutionOrder, "only the destination's parents run")
	require.Equal(t, []string{"Start", "B", "B2"}, sortedKeys(res.State.ResultData.RunData))
	require.Equal(t, []string{"Start", "B", "B2"}, res.State.StartData.RunNodeFilter)
}

func TestPartialRunFromRunData(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	// As the editor does after B changed: run data of the nodes that stay, B as start node and
	// the Merge as destination, whose input from A is taken from the run data.
	prev := earlierRunData(t, e, "B", "B2", "Merge", "End")
	w := branchWorkflow(t)
	b, _ := w.Node("B")
	b.Parameters = m{"values": m{"string": []any{m{"name": "b", "value": "changed"}}}}
	res := run(t, e, engine.Request{Workflow: w, StartNodes: []string{"B"}, RunData: prev, DestinationNode: "Merge"})
	require.True(t, res.Finished)
	require.Equal(t, []string{"B", "B2", "Merge"}, res.State.NodeExecutionOrder)
	require.Len(t, res.State.ResultData.RunData["Start"], 1, "Start is not run again")
	require.Len(t, res.State.ResultData.RunData["A"], 1, "A is not run again")
	require.Equal(t, [][]map[string]any{{{"a": "1", "b": "changed"}}}, outputs(t, res, "Merge"))
	require.Nil(t, res.State.ResultData.RunData["End"], "nothing runs after the destination")
}

func copyRunData(t testing.TB, rd workflow.RunData) workflow.RunData {
	b, err := json.Marshal(rd)
	require.NoError(t, err)
	var out workflow.RunData
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

func sortedKeys(rd workflow.RunData) []string {
	order := []string{"Start", "A", "B", "B2", "Merge", "End"}
	var out []string
	for _, k := range order {
		if _, ok := rd[k]; ok {
			out = append(out, k)
		}
	}
	return out
}

const flakyNodes = `[
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
 {"name": "Flaky", "type": "test.flaky", "typeVersion": 1, "parameters": {"failTimes": %d}%s},
 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}]`

func TestRetryAndContinueOnFail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		failTimes int
		settings  string
		finished  bool
		order     []string
		waits     []time.Duration
		after     [][]map[string]any
	}{
		{"no retry fails", 1, ``, false, []string{"Start", "Flaky"}, nil, nil},
		{"retry succeeds on the third try", 2, `, "retryOnFail": true, "maxTries": 3, "waitBetweenTries": 200`, true,
			[]string{"Start", "Flaky", "After"}, []time.Duration{200 * time.Millisecond, 200 * time.Millisecond}, [][]map[string]any{{{"attempt": 3.0}}}},
		{"retry defaults: 3 tries, 1 s", 2, `, "retryOnFail": true`, true,
			[]string{"Start", "Flaky", "After"}, []time.Duration{time.Second, time.Second}, [][]map[string]any{{{"attempt": 3.0}}}},
		{"tries are clamped to 2..5", 3, `, "retryOnFail": true, "maxTries": 9, "waitBetweenTries": 9000`, true,
			[]string{"Start", "Flaky", "After"}, []time.Duration{5 * time.Second, 5 * time.Second, 5 * time.Second}, [][]map[string]any{{{"attempt": 4.0}}}},
		{"retry runs out", 5, `, "retryOnFail": true, "maxTries": 2, "waitBetweenTries": 10`, false,
			[]string{"Start", "Flaky"}, []time.Duration{10 * time.Millisecond}, nil},
		{"continueOnFail passes the input on", 5, `, "continueOnFail": true`, true,
			[]string{"Start", "Flaky", "After"}, nil, [][]map[string]any{{{}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, _ := registry()
			sleeps := &sleepRecorder{}
			e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t), Sleep: sleeps.sleep})
			require.NoError(t, err)
			w := wf(t, fmtNodes(flakyNodes, tc.failTimes, tc.settings), conn{"Start", 0, "Flaky", 0}, conn{"Flaky", 0, "After", 0})
			res := run(t, e, engine.Request{Workflow: w})
			require.Equal(t, tc.finished, res.Finished)
			require.Equal(t, tc.order, res.State.NodeExecutionOrder)
			require.Equal(t, tc.waits, sleeps.waits)
			require.Equal(t, tc.after, outputs(t, res, "After"))
			flakyRun := res.State.ResultData.RunData["Flaky"][0]
			if !tc.finished {
				require.Equal(t, workflow.StatusError, res.Status)
				require.NotNil(t, flakyRun.Error)
				require.Equal(t, "Flaky", flakyRun.Error.Node)
				require.Equal(t, flakyRun.Error.Message, res.State.ResultData.Error.Message)
				require.Equal(t, "Flaky", res.State.ExecutionData.NodeExecutionStack[0].Node, "the failed node is queued again for a retry")
			}
			if tc.name == "continueOnFail passes the input on" {
				require.NotNil(t, flakyRun.Error, "the error is kept on the run")
			}
		})
	}
}

func fmtNodes(format string, n int, settings string) string {
	b, _ := json.Marshal(n)
	out := ""
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) {
			switch format[i+1] {
			case 'd':
				out += string(b)
			case 's':
				out += settings
			}
			i++
			continue
		}
		out += string(format[i])
	}
	return out
}

func TestDisabledNodes(t *testing.T) {
	t.Parallel()
	nodes := `[
	 {"name": "Trigger", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}, "disabled": true},
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Off", "type": "test.flaky", "typeVersion": 1, "parameters": {"failTimes": 9}, "disabled": true},
	 {"name": "End", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}]`
	res := run(t, newEngine(t), engine.Request{Workflow: wf(t, nodes, conn{"Start", 0, "Off", 0}, conn{"Off", 0, "End", 0})})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Off", "End"}, res.State.NodeExecutionOrder, "a disabled trigger is not the start node")
	require.Equal(t, [][]map[string]any{{{}}}, outputs(t, res, "End"))
}

func TestStartNodeChoice(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	nodes := `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Trigger", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}]`
	res := run(t, e, engine.Request{Workflow: wf(t, nodes)})
	require.Equal(t, []string{"Trigger"}, res.State.NodeExecutionOrder, "a trigger wins over Start")

	_, err := e.Run(context.Background(), engine.Request{Workflow: wf(t, `[
	 {"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1}, {"name": "B", "type": "n8n-nodes-base.noOp", "typeVersion": 1}]`)})
	var se *engine.StartError
	require.ErrorAs(t, err, &se)
	require.Contains(t, se.Message, "No node to start the workflow from")

	_, err = e.Run(context.Background(), engine.Request{Workflow: wf(t, `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1}, {"name": "Code", "type": "n8n-nodes-base.nope", "typeVersion": 1}]`,
		conn{"Start", 0, "Code", 0})})
	require.ErrorAs(t, err, &se)
	require.Equal(t, "Code", se.Node)
	require.Contains(t, se.Message, `The node type "n8n-nodes-base.nope" is not known`)

	_, err = e.Run(context.Background(), engine.Request{Workflow: wf(t, `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1}, {"name": "Later", "type": "n8n-nodes-base.noOp", "typeVersion": 7}]`,
		conn{"Start", 0, "Later", 0})})
	require.ErrorAs(t, err, &se)
	require.Equal(t, "Later", se.Node)
	require.Equal(t, `The node type "n8n-nodes-base.noOp" has no version 7 here (known version: 1): upgrade Flowmill, or replace the node`, se.Message)
}

func TestHooksAndStaticData(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var events []string
	var final *engine.Result
	hook := engine.HookFuncs{
		Before: func(_ context.Context, ev engine.NodeEvent) {
			mu.Lock()
			events = append(events, "before "+ev.Node)
			mu.Unlock()
		},
		After: func(_ context.Context, ev engine.NodeEvent, task *workflow.TaskData, state *engine.State) error {
			_, err := json.Marshal(state)
			mu.Lock()
			events = append(events, "after "+ev.Node)
			mu.Unlock()
			return err
		},
		WorkflowAfter: func(_ context.Context, res *engine.Result) { final = res },
	}
	nodes := `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Counter", "type": "test.counter", "typeVersion": 1, "parameters": {}}]`
	w := wf(t, nodes, conn{"Start", 0, "Counter", 0})
	w.StaticData = m{"node:Counter": m{"count": 4.0}}
	res := run(t, newEngine(t, hook), engine.Request{Workflow: w})
	require.Equal(t, []string{"before Start", "after Start", "before Counter", "after Counter"}, events)
	require.Same(t, res, final)
	require.True(t, res.StaticDataChanged)
	require.Equal(t, m{"count": 5.0}, res.StaticData["node:Counter"])
	require.Equal(t, m{"count": 4.0}, w.StaticData["node:Counter"], "the workflow given is not changed")

	failing := engine.HookFuncs{After: func(context.Context, engine.NodeEvent, *workflow.TaskData, *engine.State) error {
		return errors.New("disk full")
	}}
	res = run(t, newEngine(t, failing), engine.Request{Workflow: w})
	require.False(t, res.Finished)
	require.Contains(t, res.State.ResultData.Error.Message, "disk full")
	require.Equal(t, []string{"Start"}, res.State.NodeExecutionOrder)
}

func TestCancellationAndTimeout(t *testing.T) {
	t.Parallel()
	nodes := `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Block", "type": "test.blocker", "typeVersion": 1, "parameters": {}},
	 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}]`
	e := newEngine(t)
	w := wf(t, nodes, conn{"Start", 0, "Block", 0}, conn{"Block", 0, "After", 0})

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	res, err := e.Run(ctx, engine.Request{Workflow: w})
	require.NoError(t, err)
	require.False(t, res.Finished)
	require.Equal(t, workflow.StatusError, res.Status, "the interrupted node fails the run")
	require.Equal(t, []string{"Start", "Block"}, res.State.NodeExecutionOrder)

	w.Settings = workflow.Settings{"executionTimeout": 0.02}
	res = run(t, e, engine.Request{Workflow: w})
	require.False(t, res.Finished)

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	res, err = e.Run(ctx, engine.Request{Workflow: wf(t, startSet, conn{"Start", 0, "Set", 0})})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusCanceled, res.Status)
	require.Equal(t, "The execution was canceled", res.State.ResultData.Error.Message)
	require.Equal(t, "Start", res.State.ExecutionData.NodeExecutionStack[0].Node, "nothing ran, the start is still queued")
}

func TestEndlessLoopGuard(t *testing.T) {
	t.Parallel()
	w := branchWorkflow(t)
	var st engine.State
	require.NoError(t, json.Unmarshal([]byte(`{"resultData": {"runData": {}}, "executionData": {
	  "nodeExecutionStack": [{"node": "Merge", "data": {"main": [[{"json": {}}], null]}, "source": null}]}}`), &st))
	res, err := newEngine(t).Resume(context.Background(), w, &st, workflow.ModeManual, "")
	require.NoError(t, err)
	require.False(t, res.Finished)
	require.Equal(t, "Stopped execution because it seems to be in an endless loop", res.State.ResultData.Error.Message)
}

// A node type the instance disabled fails the run with the setting that turns it on, not as an
// unknown type.
func TestDisabledNodeType(t *testing.T) {
	t.Parallel()
	r, _ := registry()
	e, err := engine.New(engine.Options{Registry: r.Disable(map[string]string{"n8n-nodes-base.noOp": "with FLOWMILL_NODES_ENABLE"}),
		Evaluator: evaluator(t)})
	require.NoError(t, err)
	_, err = e.Run(context.Background(), engine.Request{Workflow: wf(t, `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1}, {"name": "Nothing", "type": "n8n-nodes-base.noOp", "typeVersion": 1}]`,
		conn{"Start", 0, "Nothing", 0})})
	var se *engine.StartError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "Nothing", se.Node)
	require.Equal(t, `The node type "n8n-nodes-base.noOp" is disabled on this instance; an admin can turn it on with FLOWMILL_NODES_ENABLE.`, se.Message)
}
