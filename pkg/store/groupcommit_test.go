package store

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func openSQLite(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), Options{SQLitePath: filepath.Join(t.TempDir(), "db.sqlite")})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// A write that fails in a shared transaction fails alone: the others of its group are written.
func TestGroupCommitFailureStaysWithItsWrite(t *testing.T) {
	s := openSQLite(t)
	insert := func(key string) func(tx *gorm.DB) error {
		return func(tx *gorm.DB) error {
			return tx.Exec(`INSERT INTO settings (key, value) VALUES (?, 'v')`, key).Error
		}
	}
	broken := errors.New("broken write")
	group := []*writeJob{
		{fn: insert("a"), result: make(chan error, 1)},
		{fn: func(tx *gorm.DB) error {
			if err := insert("half")(tx); err != nil {
				return err
			}
			return broken
		}, result: make(chan error, 1)},
		{fn: insert("b"), result: make(chan error, 1)},
	}
	s.group.run(group)
	require.NoError(t, <-group[0].result)
	require.ErrorIs(t, <-group[1].result, broken)
	require.NoError(t, <-group[2].result)

	var keys []string
	require.NoError(t, s.DB.Raw(`SELECT key FROM settings WHERE key IN ('a', 'b', 'half') ORDER BY key`).Scan(&keys).Error)
	require.Equal(t, []string{"a", "b"}, keys, "the failed write left nothing behind")
}

// Executions created at once all get their own row and data, whichever group they share.
func TestGroupCommitConcurrentCreates(t *testing.T) {
	s := openSQLite(t)
	ctx := context.Background()
	const n = 200
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := &Execution{Status: workflow.StatusQueued, Mode: "webhook", WorkflowName: "w"}
			require.NoError(t, s.CreateExecution(ctx, e, &ExecutionData{WorkflowData: JSON(`{"n":1}`)}))
			ids[i] = e.ID
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, id := range ids {
		require.False(t, seen[id], "id %d given twice", id)
		seen[id] = true
		d, err := s.GetExecutionData(ctx, id)
		require.NoError(t, err)
		require.JSONEq(t, `{"n":1}`, string(d.WorkflowData))
	}
}

// After Close, writes are refused instead of hanging.
func TestGroupCommitAfterClose(t *testing.T) {
	s := openSQLite(t)
	require.NoError(t, s.Close())
	err := s.CreateExecution(context.Background(), &Execution{Status: workflow.StatusQueued, Mode: "webhook"}, &ExecutionData{WorkflowData: JSON(`{}`)})
	require.ErrorIs(t, err, errStoreClosed)
}
