package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestPruneByAgeThenCountInBatches(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		old := time.Now().Add(-30 * 24 * time.Hour)
		// Large run data, so that on SQLite the deleted rows free whole pages.
		data := store.JSON(`{"blob":"` + strings.Repeat("x", 16<<10) + `"}`)
		add := func(status workflow.Status, stopped *time.Time) int64 {
			e := &store.Execution{Status: status, Mode: "trigger", StoppedAt: stopped, Finished: stopped != nil}
			require.NoError(t, s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{}`), Data: data}))
			return e.ID
		}
		running := add(workflow.StatusRunning, nil) // the oldest id, never pruned
		var aged []int64
		for range 5 {
			aged = append(aged, add(workflow.StatusError, &old))
		}
		now := time.Now()
		var recent []int64
		for range 40 {
			recent = append(recent, add(workflow.StatusSuccess, &now))
		}
		pagesBefore, bytesBefore := pages(t, s), onDisk(t, s)

		// Keep the newest 10: the cutoff is fixed before deleting, as Prune does.
		cutoff, err := s.PruneCutoff(ctx, 10)
		require.NoError(t, err)
		require.Equal(t, recent[29], cutoff, "the newest id beyond the newest 10")
		// Batches of 4: age first (5 rows: 4 + 1), then count.
		n, err := s.PruneExecutions(ctx, time.Now().Add(-14*24*time.Hour), cutoff, 4)
		require.NoError(t, err)
		require.Equal(t, 4, n)
		total := n
		for n > 0 {
			n, err = s.PruneExecutions(ctx, time.Now().Add(-14*24*time.Hour), cutoff, 4)
			require.NoError(t, err)
			require.LessOrEqual(t, n, 4)
			total += n
		}
		require.Equal(t, 5+30, total)
		require.NoError(t, s.ReleaseFreeSpace(ctx))

		var ids []int64
		require.NoError(t, s.DB.Model(&store.Execution{}).Order("id").Pluck("id", &ids).Error)
		require.Equal(t, append([]int64{running}, recent[30:]...), ids)
		var kept int64
		require.NoError(t, s.DB.Model(&store.ExecutionData{}).Count(&kept).Error)
		require.EqualValues(t, 11, kept, "the data of pruned executions goes with them")

		cutoff, err = s.PruneCutoff(ctx, 100)
		require.NoError(t, err)
		require.Zero(t, cutoff, "fewer executions than the limit")
		cutoff, err = s.PruneCutoff(ctx, 0)
		require.NoError(t, err)
		require.Zero(t, cutoff, "no count limit")

		if s.Dialect == store.SQLite {
			require.Less(t, pages(t, s), pagesBefore/2, "the file gave the freed pages back")
			require.Less(t, onDisk(t, s), bytesBefore/2, "the file and its write-ahead log shrank")
		}
	})
}

// pages is the size of a SQLite file in pages (0 on Postgres).
func pages(t *testing.T, s *store.Store) int64 {
	t.Helper()
	if s.Dialect != store.SQLite {
		return 0
	}
	var n int64
	require.NoError(t, s.DB.Raw("PRAGMA page_count").Scan(&n).Error)
	return n
}

// onDisk is the size of a SQLite file and its write-ahead log in bytes (0 on Postgres).
func onDisk(t *testing.T, s *store.Store) int64 {
	t.Helper()
	if s.Dialect != store.SQLite {
		return 0
	}
	var path string
	require.NoError(t, s.DB.Raw("SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&path).Error)
	var n int64
	for _, f := range []string{path, path + "-wal"} {
		if st, err := os.Stat(f); err == nil {
			n += st.Size()
		}
	}
	return n
}

func TestOpenPutsAnOlderSQLiteFileInIncrementalVacuumMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "flowmill.sqlite")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	_, err = db.Exec("CREATE TABLE earlier (a int)")
	require.NoError(t, err)
	var mode int
	require.NoError(t, db.QueryRow("PRAGMA auto_vacuum").Scan(&mode))
	require.Zero(t, mode, "a file made without the setting")
	require.NoError(t, db.Close())

	s, err := store.Open(context.Background(), store.Options{SQLitePath: path})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.DB.Raw("PRAGMA auto_vacuum").Scan(&mode).Error)
	require.Equal(t, 2, mode, "incremental")
}
