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

func TestIdempotencyKeyIsClaimedOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		const n = 10
		var wins sync.WaitGroup
		firsts := make(chan bool, n)
		for range n {
			wins.Add(1)
			go func() {
				defer wins.Done()
				first, _, err := s.ClaimIdempotencyKey(ctx, "scope", "k", time.Now().Add(-time.Hour))
				require.NoError(t, err)
				firsts <- first
			}()
		}
		wins.Wait()
		close(firsts)
		won := 0
		for f := range firsts {
			if f {
				won++
			}
		}
		require.Equal(t, 1, won)

		// Held: the repeat sees the execution once it is recorded.
		claim, err := s.GetIdempotencyKey(ctx, "scope", "k")
		require.NoError(t, err)
		ok, err := s.SetIdempotencyExecution(ctx, "scope", "k", claim.CreatedAt, 42)
		require.NoError(t, err)
		require.True(t, ok)
		first, held, err := s.ClaimIdempotencyKey(ctx, "scope", "k", time.Now().Add(-time.Hour))
		require.NoError(t, err)
		require.False(t, first)
		require.EqualValues(t, 42, *held.ExecutionID)

		// Another scope is another key; an expired key is claimed afresh.
		first, _, err = s.ClaimIdempotencyKey(ctx, "other", "k", time.Now().Add(-time.Hour))
		require.NoError(t, err)
		require.True(t, first)
		first, held, err = s.ClaimIdempotencyKey(ctx, "scope", "k", time.Now().Add(time.Minute))
		require.NoError(t, err)
		require.True(t, first)
		require.Nil(t, held.ExecutionID)

		// A key whose first call stored nothing is given back.
		require.NoError(t, s.ReleaseIdempotencyKey(ctx, "scope", "k", held.CreatedAt))
		_, err = s.GetIdempotencyKey(ctx, "scope", "k")
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}

// A key whose first call recorded no execution can be taken over once it is older than the
// window; the late first call then cannot record its execution, so the key names one.
func TestAbandonedIdempotencyKeyIsTakenOverOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		first, held, err := s.ClaimIdempotencyKey(ctx, "scope", "k", time.Now().Add(-time.Hour))
		require.NoError(t, err)
		require.True(t, first)
		claimedAt := held.CreatedAt

		won, _, err := s.TakeOverIdempotencyKey(ctx, "scope", "k", time.Now().Add(-time.Minute))
		require.NoError(t, err)
		require.False(t, won, "a fresh claim is not abandoned")
		won, at, err := s.TakeOverIdempotencyKey(ctx, "scope", "k", time.Now().Add(time.Minute))
		require.NoError(t, err)
		require.True(t, won)

		ok, err := s.SetIdempotencyExecution(ctx, "scope", "k", claimedAt, 1)
		require.NoError(t, err)
		require.False(t, ok, "the first claim was taken over")
		ok, err = s.SetIdempotencyExecution(ctx, "scope", "k", at, 2)
		require.NoError(t, err)
		require.True(t, ok)
		won, _, err = s.TakeOverIdempotencyKey(ctx, "scope", "k", time.Now().Add(time.Minute))
		require.NoError(t, err)
		require.False(t, won, "a key with an execution is not abandoned")
		row, err := s.GetIdempotencyKey(ctx, "scope", "k")
		require.NoError(t, err)
		require.EqualValues(t, 2, *row.ExecutionID)
	})
}

func TestWebhookAnswerKeepsTheFirstAndIsPruned(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		_, err := s.GetWebhookAnswer(ctx, 7)
		require.ErrorIs(t, err, store.ErrNotFound)
		require.NoError(t, s.SaveWebhookAnswer(ctx, 7, []byte(`{"a":1}`)))
		require.NoError(t, s.SaveWebhookAnswer(ctx, 7, []byte(`{"a":2}`)))
		b, err := s.GetWebhookAnswer(ctx, 7)
		require.NoError(t, err)
		require.JSONEq(t, `{"a":1}`, string(b))

		_, _, err = s.ClaimIdempotencyKey(ctx, "scope", "k", time.Now())
		require.NoError(t, err)
		n, err := s.PruneWebhookAnswers(ctx, time.Now().Add(-time.Hour))
		require.NoError(t, err)
		require.Zero(t, n)
		n, err = s.PruneWebhookAnswers(ctx, time.Now().Add(time.Minute))
		require.NoError(t, err)
		require.EqualValues(t, 2, n)
		_, err = s.GetWebhookAnswer(ctx, 7)
		require.ErrorIs(t, err, store.ErrNotFound)
	})
}

func TestIsUnavailable(t *testing.T) {
	s, err := store.Open(context.Background(), store.Options{DatabaseURL: "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"})
	require.Error(t, err)
	require.Nil(t, s)
	require.True(t, store.IsUnavailable(err), "%v", err)
	require.True(t, store.IsUnavailable(context.DeadlineExceeded))
	require.False(t, store.IsUnavailable(store.ErrNotFound))
	require.False(t, store.IsUnavailable(nil))
}

// TestCreateRecordsTheIdempotencyKey: the statement that stores the execution records it on the
// key's claim, so giving the key back afterwards (a call that lost the store's answer) leaves
// it; a claim taken over meanwhile is not written.
func TestCreateRecordsTheIdempotencyKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		_, held, err := s.ClaimIdempotencyKey(ctx, "scope", "k", time.Now().Add(-time.Hour))
		require.NoError(t, err)
		claim := &store.IdempotencyClaim{Scope: "scope", Key: "k", ClaimedAt: held.CreatedAt}
		e := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeWebhook}
		require.NoError(t, s.CreateOwnedExecutionWithKey(ctx, e, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}, claim))
		require.True(t, claim.Recorded)
		require.NoError(t, s.ReleaseIdempotencyKey(ctx, "scope", "k", held.CreatedAt))
		got, err := s.GetIdempotencyKey(ctx, "scope", "k")
		require.NoError(t, err)
		require.NotNil(t, got.ExecutionID)
		require.Equal(t, e.ID, *got.ExecutionID)

		// A claim that is no longer the caller's (another time) is left alone.
		stale := &store.IdempotencyClaim{Scope: "scope", Key: "k", ClaimedAt: held.CreatedAt.Add(-time.Second)}
		_, held2, err := s.ClaimIdempotencyKey(ctx, "scope", "k2", time.Now().Add(-time.Hour))
		require.NoError(t, err)
		stale.Key = "k2"
		e2 := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeWebhook}
		require.NoError(t, s.CreateOwnedExecutionWithKey(ctx, e2, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}, stale))
		require.False(t, stale.Recorded)
		got, err = s.GetIdempotencyKey(ctx, "scope", "k2")
		require.NoError(t, err)
		require.Nil(t, got.ExecutionID)
		require.Equal(t, held2.CreatedAt.UTC(), got.CreatedAt.UTC())
	})
}
