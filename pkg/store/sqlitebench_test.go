package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// BenchmarkSQLiteExecutionLifecycle runs an execution's writes on the embedded database, one
// after another as a worker makes them: create, claim, save the state, finish, read back.
func BenchmarkSQLiteExecutionLifecycle(b *testing.B) {
	ctx := context.Background()
	s, err := store.Open(ctx, store.Options{SQLitePath: filepath.Join(b.TempDir(), "bench.sqlite")})
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	data := store.JSON(`{"nodes":[{"name":"Webhook"},{"name":"Set"}],"connections":{}}`)
	for b.Loop() {
		e := &store.Execution{Status: workflow.StatusNew, Mode: "webhook"}
		require.NoError(b, s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: data}))
		_, err := s.ClaimExecution(ctx, e.ID, "bench/1", time.Minute)
		require.NoError(b, err)
		ok, err := s.SaveExecutionState(ctx, e.ID, "bench/1", store.JSON(`{"resultData":{}}`))
		require.NoError(b, err)
		require.True(b, ok)
		ok, err = s.FinishExecution(ctx, e.ID, "bench/1", store.Outcome{Status: workflow.StatusSuccess,
			Data: store.JSON(`{"resultData":{"runData":{}}}`), Answer: []byte(`{"ok":true}`)})
		require.NoError(b, err)
		require.True(b, ok)
		got, err := s.GetExecution(ctx, e.ID)
		require.NoError(b, err)
		require.Equal(b, workflow.StatusSuccess, got.Status)
	}
}
