package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// chainState is the state of a run of nodes N0…N(n-1) in a line, the next one queued.
func chainState(n int) map[string]any {
	runData := map[string]any{}
	order := []string{}
	for i := range n {
		name := fmt.Sprintf("N%d", i)
		runData[name] = []any{map[string]any{"startTime": float64(i), "data": map[string]any{"main": []any{[]any{map[string]any{"json": map[string]any{"i": float64(i)}}}}}}}
		order = append(order, name)
	}
	return map[string]any{
		"startData":          map[string]any{},
		"resultData":         map[string]any{"runData": runData, "lastNodeExecuted": fmt.Sprintf("N%d", n-1)},
		"executionData":      map[string]any{"contextData": map[string]any{}, "nodeExecutionStack": []any{map[string]any{"node": fmt.Sprintf("N%d", n)}}},
		"nodeExecutionOrder": order,
	}
}

// delta is what a worker appends after node N(n-1) ran, on a checkpoint holding n-1 runs.
func delta(t *testing.T, n int) store.JSON {
	t.Helper()
	full := chainState(n)
	name := fmt.Sprintf("N%d", n-1)
	task, err := json.Marshal(full["resultData"].(map[string]any)["runData"].(map[string]any)[name].([]any)[0])
	require.NoError(t, err)
	rest := chainState(n)
	rest["resultData"].(map[string]any)["runData"] = map[string]any{}
	rest["nodeExecutionOrder"] = []string{}
	state, err := json.Marshal(rest)
	require.NoError(t, err)
	b, err := json.Marshal(store.CheckpointDelta{From: n - 1, Runs: []store.CheckpointRun{{Node: name, Task: task}}, State: state})
	require.NoError(t, err)
	return b
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// A checkpoint is a base and deltas; every read sees the full state, a new base or the final
// result replaces the deltas, and a delta that does not follow the base is ignored.
func TestCheckpointDeltasReadAsOneState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newExecution(t, s)
		c, err := s.ClaimExecution(ctx, e.ID, "w1", time.Minute)
		require.NoError(t, err)
		require.Empty(t, c.Data.Data)

		ok, err := s.SaveExecutionState(ctx, e.ID, "w1", store.JSON(jsonOf(t, chainState(1))))
		require.NoError(t, err)
		require.True(t, ok)
		for n := 2; n <= 5; n++ {
			ok, err := s.AppendExecutionCheckpoint(ctx, e.ID, "w1", delta(t, n), n%2 == 0)
			require.NoError(t, err)
			require.True(t, ok)
		}
		ok, err = s.AppendExecutionCheckpoint(ctx, e.ID, "w2", delta(t, 6), false)
		require.NoError(t, err)
		require.False(t, ok, "only the lease holder appends")

		d, err := s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.JSONEq(t, jsonOf(t, chainState(5)), string(d.Data))

		// A worker taking over reads the same state.
		require.NoError(t, s.ReleaseLease(ctx, e.ID, "w1"))
		c, err = s.ClaimExecution(ctx, e.ID, "w2", time.Minute)
		require.NoError(t, err)
		require.JSONEq(t, jsonOf(t, chainState(5)), string(c.Data.Data))

		// Its first checkpoint is a new base; a delta left over from before it is skipped.
		ok, err = s.SaveExecutionState(ctx, e.ID, "w2", store.JSON(jsonOf(t, chainState(6))))
		require.NoError(t, err)
		require.True(t, ok)
		ok, err = s.AppendExecutionCheckpoint(ctx, e.ID, "w2", delta(t, 3), true)
		require.NoError(t, err)
		require.True(t, ok)
		ok, err = s.AppendExecutionCheckpoint(ctx, e.ID, "w2", delta(t, 7), false)
		require.NoError(t, err)
		require.True(t, ok)
		d, err = s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.JSONEq(t, jsonOf(t, chainState(7)), string(d.Data))

		// The final result is the data, and the deltas are gone.
		final := `{"resultData":{"runData":{}},"nodeExecutionOrder":[]}`
		ok, err = s.FinishExecution(ctx, e.ID, "w2", store.Outcome{Status: workflow.StatusSuccess, Data: store.JSON(final)})
		require.NoError(t, err)
		require.True(t, ok)
		d, err = s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.JSONEq(t, final, string(d.Data))
		var left int64
		require.NoError(t, s.DB.Raw(`SELECT count(*) FROM execution_checkpoints WHERE execution_id = ?`, e.ID).Scan(&left).Error)
		require.Zero(t, left)
	})
}
