package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestMigratedSchemaIsComplete(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		require.NoError(t, s.Migrated(ctx))
		for _, table := range []string{"settings", "users", "workflows", "tags", "workflow_tags",
			"credentials", "shared_workflows", "shared_credentials", "executions", "execution_data",
			"webhooks", "api_keys", "auth_tokens", "revoked_sessions", "execution_checkpoints", "prompt_events"} {
			require.True(t, s.DB.Migrator().HasTable(table), "table %s", table)
		}
	})
}

func TestSettings(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		_, err := s.GetSetting(ctx, "missing")
		require.ErrorIs(t, err, store.ErrNotFound)
		require.NoError(t, s.SetSetting(ctx, "a", "1"))
		require.NoError(t, s.SetSetting(ctx, "a", "2"))
		v, err := s.GetSetting(ctx, "a")
		require.NoError(t, err)
		require.Equal(t, "2", v)

		first, err := s.InitSetting(ctx, "b", "first")
		require.NoError(t, err)
		second, err := s.InitSetting(ctx, "b", "second")
		require.NoError(t, err)
		require.Equal(t, "first", first)
		require.Equal(t, "first", second)
	})
}

func TestDefaultOwnerIsCreatedOnceUnderConcurrency(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		ids := make(chan string, 8)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				u, err := s.EnsureDefaultOwner(ctx)
				require.NoError(t, err)
				ids <- u.ID
			}()
		}
		wg.Wait()
		close(ids)
		var first string
		for id := range ids {
			if first == "" {
				first = id
			}
			require.Equal(t, first, id)
		}
		var count int64
		require.NoError(t, s.DB.Model(&store.User{}).Count(&count).Error)
		require.EqualValues(t, 1, count)
		owner, err := s.Owner(ctx)
		require.NoError(t, err)
		require.Equal(t, first, owner.ID)
		require.True(t, owner.IsPending())
		require.Nil(t, owner.Email)
	})
}

func newExecution(t *testing.T, s *store.Store) *store.Execution {
	t.Helper()
	e := &store.Execution{Status: workflow.StatusNew, Mode: "manual", SessionID: "sess"}
	require.NoError(t, s.CreateExecution(context.Background(), e,
		&store.ExecutionData{WorkflowData: store.JSON(`{"nodes":[],"connections":{}}`)}))
	require.NotZero(t, e.ID)
	return e
}

func TestExecutionRoundTrip(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newExecution(t, s)
		got, err := s.GetExecution(ctx, e.ID)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusNew, got.Status)
		require.Equal(t, "sess", got.SessionID)
		d, err := s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.JSONEq(t, `{"nodes":[],"connections":{}}`, string(d.WorkflowData))
		_, err = s.GetExecution(ctx, e.ID+1000)
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}

func TestTerminalStatusNeverRegresses(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newExecution(t, s)
		ok, err := s.TransitionExecution(ctx, e.ID, workflow.StatusSuccess, workflow.StatusNew, workflow.StatusRunning)
		require.NoError(t, err)
		require.True(t, ok)
		ok, err = s.TransitionExecution(ctx, e.ID, workflow.StatusCanceled, workflow.StatusNew, workflow.StatusRunning)
		require.NoError(t, err)
		require.False(t, ok, "a finished execution must not become canceled")
		got, err := s.GetExecution(ctx, e.ID)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusSuccess, got.Status)
		require.True(t, got.Finished)
		require.NotNil(t, got.StoppedAt)
	})
}

func TestLeases(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newExecution(t, s)

		claimed, err := s.AcquireLease(ctx, e.ID, "w1", time.Minute)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusRunning, claimed.Status)
		require.Equal(t, "sess", claimed.SessionID)
		_, err = s.AcquireLease(ctx, e.ID, "w2", time.Minute)
		require.ErrorIs(t, err, store.ErrNotClaimable, "a live lease belongs to w1")
		_, err = s.AcquireLease(ctx, e.ID, "w1", time.Minute)
		require.ErrorIs(t, err, store.ErrNotClaimable, "a claim token never claims twice")
		ok, err := s.RenewLease(ctx, e.ID, "w1", time.Minute, "")
		require.NoError(t, err)
		require.True(t, ok)
		ok, err = s.RenewLease(ctx, e.ID, "w2", time.Minute, "")
		require.NoError(t, err)
		require.False(t, ok)

		got, err := s.GetExecution(ctx, e.ID)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusRunning, got.Status)
		require.NotNil(t, got.StartedAt)

		// An expired lease can be taken over.
		ok, err = s.RenewLease(ctx, e.ID, "w1", -time.Second, "")
		require.NoError(t, err)
		require.True(t, ok)
		taken, err := s.AcquireLease(ctx, e.ID, "w2", time.Minute)
		require.NoError(t, err)
		require.Equal(t, 1, taken.Takeovers, "taking over an expired lease counts")

		// A released lease can be taken at once; a finished execution cannot be leased.
		require.NoError(t, s.ReleaseLease(ctx, e.ID, "w2"))
		_, err = s.TransitionExecution(ctx, e.ID, workflow.StatusError, workflow.StatusRunning)
		require.NoError(t, err)
		_, err = s.AcquireLease(ctx, e.ID, "w3", time.Minute)
		require.ErrorIs(t, err, store.ErrNotClaimable)
	})
}

func TestOrphanedExecutions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		orphan := newExecution(t, s)
		leased := newExecution(t, s)
		done := newExecution(t, s)
		expired := newExecution(t, s)
		_, err := s.AcquireLease(ctx, leased.ID, "w1", time.Minute)
		require.NoError(t, err)
		_, err = s.TransitionExecution(ctx, done.ID, workflow.StatusSuccess, workflow.StatusNew)
		require.NoError(t, err)
		_, err = s.AcquireLease(ctx, expired.ID, "w1", -time.Second)
		require.NoError(t, err)

		got, err := s.OrphanedExecutions(ctx, 0, 100)
		require.NoError(t, err)
		var ids []int64
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		require.Equal(t, []int64{orphan.ID, expired.ID}, ids)

		fresh, err := s.OrphanedExecutions(ctx, time.Hour, 100)
		require.NoError(t, err)
		require.Empty(t, fresh, "executions inside the grace period are still being enqueued")
	})
}

func TestNewIDs(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := store.NewID()
		require.Len(t, id, 16)
		require.False(t, seen[id])
		seen[id] = true
	}
	require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`, store.NewUUID())
}

// TestJSONKeepsKeyOrder: n8n documents depend on key order (connections by source node, nodes
// waiting in order), so stored JSON must come back exactly as written.
func TestJSONKeepsKeyOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		doc := `{"zeta":{"main":[[{"node":"A","type":"main","index":0}]]},"alpha":{"main":[]},"mid":1}`
		e := &store.Execution{Status: workflow.StatusNew, Mode: "manual"}
		require.NoError(t, s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(doc), Data: store.JSON(doc)}))
		d, err := s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.Equal(t, doc, string(d.WorkflowData))
		require.Equal(t, doc, string(d.Data))
	})
}

func TestFinishExecutionOnlyUnderTheLease(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newExecution(t, s)
		_, err := s.AcquireLease(ctx, e.ID, "w1", time.Minute)
		require.NoError(t, err)
		ok, err := s.FinishExecution(ctx, e.ID, "w2", store.Outcome{Status: workflow.StatusSuccess, Data: store.JSON(`{"by":"w2"}`)})
		require.NoError(t, err)
		require.False(t, ok, "another worker's result is dropped")
		ok, err = s.FinishExecution(ctx, e.ID, "w1", store.Outcome{Status: workflow.StatusSuccess, Data: store.JSON(`{"by":"w1"}`)})
		require.NoError(t, err)
		require.True(t, ok)
		got, err := s.GetExecution(ctx, e.ID)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusSuccess, got.Status)
		require.True(t, got.Finished)
		require.NotNil(t, got.StoppedAt)
		require.Empty(t, got.LeaseOwner)
		d, err := s.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		require.JSONEq(t, `{"by":"w1"}`, string(d.Data))

		// Waiting keeps the execution open, with its wait time.
		w := newExecution(t, s)
		_, err = s.AcquireLease(ctx, w.ID, "w1", time.Minute)
		require.NoError(t, err)
		till := time.Now().Add(time.Hour).UTC()
		ok, err = s.FinishExecution(ctx, w.ID, "w1", store.Outcome{Status: workflow.StatusWaiting, WaitTill: &till, Data: store.JSON(`{}`)})
		require.NoError(t, err)
		require.True(t, ok)
		got, err = s.GetExecution(ctx, w.ID)
		require.NoError(t, err)
		require.Equal(t, workflow.StatusWaiting, got.Status)
		require.Nil(t, got.StoppedAt)
		require.False(t, got.Finished)
		require.WithinDuration(t, till, *got.WaitTill, time.Second)
	})
}

func TestClaimExecutionReturnsItsData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := &store.Execution{Status: workflow.StatusQueued, Mode: "trigger", SessionID: "s1", WorkflowName: "w"}
		require.NoError(t, s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{"name":"w"}`), StartData: store.JSON(`{"startNode":"A"}`)}))
		c, err := s.ClaimExecution(ctx, e.ID, "w1", time.Minute)
		require.NoError(t, err)
		got, d := c.Execution, c.Data
		if s.Dialect == store.Postgres {
			require.False(t, c.Resumed, "a first claim starts the execution")
		}
		require.Equal(t, e.ID, got.ID)
		require.Equal(t, workflow.StatusRunning, got.Status)
		require.Equal(t, "s1", got.SessionID)
		require.Equal(t, "w1", got.LeaseOwner)
		require.NotNil(t, got.StartedAt)
		require.JSONEq(t, `{"name":"w"}`, string(d.WorkflowData))
		require.JSONEq(t, `{"startNode":"A"}`, string(d.StartData))
		require.Empty(t, d.Data)
		_, err = s.ClaimExecution(ctx, e.ID, "w2", time.Minute)
		require.ErrorIs(t, err, store.ErrNotClaimable)

		// A worker taking over an expired lease resumes an execution that had started.
		require.NoError(t, s.ReleaseLease(ctx, e.ID, "w1"))
		again, err := s.ClaimExecution(ctx, e.ID, "w2", time.Minute)
		require.NoError(t, err)
		require.True(t, again.Resumed)
		require.Equal(t, got.StartedAt.UnixMicro(), again.Execution.StartedAt.UnixMicro())
		require.Zero(t, again.Execution.Takeovers, "a released lease is no takeover")
		require.False(t, again.TakenOver)
	})
}

func TestCountPastExecutions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for _, st := range []workflow.Status{workflow.StatusNew, workflow.StatusRunning, workflow.StatusWaiting,
			workflow.StatusSuccess, workflow.StatusError, workflow.StatusCanceled} {
			e := &store.Execution{Status: st, Mode: workflow.ModeTrigger, Finished: st == workflow.StatusSuccess}
			require.NoError(t, s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
		}
		notFinished := false
		for _, tc := range []struct {
			name string
			f    store.ExecutionFilter
			want int64
		}{
			{"past: waiting and ended", store.ExecutionFilter{}, 4},
			{"error filter: ended only", store.ExecutionFilter{Finished: &notFinished}, 2},
			{"waiting", store.ExecutionFilter{Finished: &notFinished, Waiting: true}, 0},
		} {
			n, estimated, err := s.CountPastExecutions(ctx, tc.f)
			require.NoError(t, err)
			require.False(t, estimated)
			require.Equal(t, tc.want, n, tc.name)
			list, err := s.ListExecutions(ctx, tc.f.Past(), 100)
			require.NoError(t, err)
			require.Len(t, list, int(tc.want), tc.name)
		}
	})
}
