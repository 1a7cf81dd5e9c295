package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

const waitNodes = `[
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
 {"name": "Before", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "n", "value": 1}]}}},
 {"name": "Wait", "type": "n8n-nodes-base.wait", "typeVersion": 1, "parameters": %s},
 {"name": "After", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "m", "value": "={{ $json.n + 1 }}"}]}}}]`

func waitWorkflow(t testing.TB, waitParams string) *workflow.Workflow {
	return wf(t, fmt.Sprintf(waitNodes, waitParams), conn{"Start", 0, "Before", 0}, conn{"Before", 0, "Wait", 0}, conn{"Wait", 0, "After", 0})
}

// clockEngine is an engine with a fixed clock and a sleep that records instead of waiting.
func clockEngine(t testing.TB, now time.Time, slept *[]time.Duration, hooks ...engine.Hook) *engine.Engine {
	t.Helper()
	r, _ := registry()
	var mu sync.Mutex
	e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t), Hooks: hooks,
		Now: func() time.Time { return now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			*slept = append(*slept, d)
			return ctx.Err()
		}})
	require.NoError(t, err)
	return e
}

func TestShortWaitSleepsInProcess(t *testing.T) {
	t.Parallel()
	var slept []time.Duration
	e := clockEngine(t, time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), &slept)
	res := run(t, e, engine.Request{Workflow: waitWorkflow(t, `{"amount": 42, "unit": "seconds"}`)})
	require.Equal(t, workflow.StatusSuccess, res.Status)
	require.True(t, res.Finished)
	require.Nil(t, res.WaitTill)
	require.Equal(t, []time.Duration{42 * time.Second}, slept)
	require.Equal(t, [][]map[string]any{{{"n": 1.0, "m": 2.0}}}, plain(t, outputs(t, res, "After")))
}

func TestLongWaitPutsTheExecutionToWaitAndResumes(t *testing.T) {
	t.Parallel()
	now := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	var slept []time.Duration
	var checkpoints []string
	hook := engine.HookFuncs{After: func(_ context.Context, ev engine.NodeEvent, _ *workflow.TaskData, st *engine.State) error {
		checkpoints = append(checkpoints, ev.Node)
		return nil
	}}
	w := waitWorkflow(t, `{"amount": 2, "unit": "hours"}`)
	res := run(t, clockEngine(t, now, &slept, hook), engine.Request{Workflow: w})
	require.Equal(t, workflow.StatusWaiting, res.Status)
	require.False(t, res.Finished)
	require.Nil(t, res.State.ResultData.Error)
	till := now.Add(2 * time.Hour)
	require.Equal(t, &till, res.WaitTill)
	require.Empty(t, slept)
	require.Equal(t, []string{"Start", "Before", "Wait"}, res.State.NodeExecutionOrder)
	require.Equal(t, []string{"Start", "Before", "Wait"}, checkpoints, "the waiting state is checkpointed")
	require.Equal(t, [][]map[string]any{{{"n": 1.0}}}, outputs(t, res, "Wait"))
	require.NotContains(t, res.State.ResultData.RunData, "After")
	rep := res.Report()
	require.Equal(t, workflow.StatusWaiting, rep.Status)
	require.Equal(t, &till, rep.WaitTill)

	// The saved state says when to resume; another engine continues after the Wait node.
	b, err := json.Marshal(res.State)
	require.NoError(t, err)
	var saved map[string]any
	require.NoError(t, json.Unmarshal(b, &saved))
	require.Equal(t, "2023-01-01T02:00:00Z", saved["waitTill"])
	var state engine.State
	require.NoError(t, json.Unmarshal(b, &state))

	resumed, err := clockEngine(t, till, &slept).Resume(context.Background(), w, &state, workflow.ModeTrigger, "1")
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, resumed.Status)
	require.True(t, resumed.Finished)
	require.Nil(t, resumed.WaitTill)
	require.Empty(t, slept, "the Wait node does not wait again")
	require.Equal(t, []string{"Start", "Before", "Wait", "After"}, resumed.State.NodeExecutionOrder)
	require.Len(t, resumed.State.ResultData.RunData["Wait"], 1)
	require.Equal(t, [][]map[string]any{{{"n": 1.0}}}, outputs(t, resumed, "Wait"))
	require.Equal(t, [][]map[string]any{{{"n": 1.0, "m": 2.0}}}, plain(t, outputs(t, resumed, "After")))
}

func TestWebhookWaitCanResumeWithOtherData(t *testing.T) {
	t.Parallel()
	var slept []time.Duration
	w := waitWorkflow(t, `{"resume": "webhook"}`)
	res := run(t, clockEngine(t, time.Now(), &slept), engine.Request{Workflow: w})
	require.Equal(t, workflow.StatusWaiting, res.Status)
	require.Equal(t, 3000, res.WaitTill.Year())

	// The resume call replaces the waiting node's input with the request's data.
	res.State.ExecutionData.NodeExecutionStack[0].Data.Main[0] = []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"n": 41.0})}}
	resumed, err := clockEngine(t, time.Now(), &slept).Resume(context.Background(), w, res.State, workflow.ModeWebhook, "")
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, resumed.Status)
	require.Equal(t, [][]map[string]any{{{"n": 41.0, "m": 42.0}}}, plain(t, outputs(t, resumed, "After")))
}

func TestWaitCanceledWhileSleeping(t *testing.T) {
	t.Parallel()
	r, _ := registry()
	started := make(chan struct{})
	e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t),
		Sleep: func(ctx context.Context, _ time.Duration) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	res, err := e.Run(ctx, engine.Request{Workflow: waitWorkflow(t, `{"amount": 10, "unit": "seconds"}`)})
	require.NoError(t, err)
	require.NotEqual(t, workflow.StatusSuccess, res.Status)
	require.NotContains(t, res.State.ResultData.RunData, "After")
}

func TestWebhookModeDoesNotStartAtWait(t *testing.T) {
	t.Parallel()
	w := wf(t, `[
	 {"name": "Wait", "type": "n8n-nodes-base.wait", "typeVersion": 1, "parameters": {"resume": "webhook"}},
	 {"name": "Hook", "type": "n8n-nodes-base.webhook", "typeVersion": 1, "parameters": {"path": "x"}},
	 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {}}]`, conn{"Hook", 0, "Set", 0})
	res := run(t, newEngine(t), engine.Request{Workflow: w, Mode: workflow.ModeWebhook,
		Input: []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"body": map[string]any{}})}}})
	require.Equal(t, []string{"Hook", "Set"}, res.State.NodeExecutionOrder)
}

// plain gives run data as JSON reads it back, so numbers compare whatever their Go type.
func plain(t testing.TB, v [][]map[string]any) [][]map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out [][]map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
