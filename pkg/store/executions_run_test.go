package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestConcurrentClaimsOneWins: many claims of one execution at once, each with its own token
// (as two tasks in one process would have): exactly one gets it.
func TestConcurrentClaimsOneWins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for range 10 {
			e := newExecution(t, s)
			var wg sync.WaitGroup
			var mu sync.Mutex
			won := 0
			for i := range 8 {
				wg.Go(func() {
					_, err := s.ClaimExecution(ctx, e.ID, fmt.Sprintf("w1/%d", i), time.Minute)
					if err == nil {
						mu.Lock()
						won++
						mu.Unlock()
						return
					}
					require.ErrorIs(t, err, store.ErrNotClaimable)
				})
			}
			wg.Wait()
			require.Equal(t, 1, won)
		}
	})
}

// TestTakeoversAreCounted: every claim of an execution whose lease ran out while it was running
// counts one takeover; RenewLease records the node the run is in.
func TestTakeoversAreCounted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		e := newExecution(t, s)
		c, err := s.ClaimExecution(ctx, e.ID, "w/a", time.Minute)
		require.NoError(t, err)
		require.Zero(t, c.Execution.Takeovers)
		require.False(t, c.TakenOver, "a first claim takes nothing over")
		ok, err := s.RenewLease(ctx, e.ID, "w/a", -time.Second, "Code") // the worker died in Code
		require.NoError(t, err)
		require.True(t, ok)
		for i := 1; i <= 3; i++ {
			c, err = s.ClaimExecution(ctx, e.ID, fmt.Sprintf("w/%d", i), -time.Second)
			require.NoError(t, err)
			require.Equal(t, i, c.Execution.Takeovers)
			require.True(t, c.TakenOver)
			require.Equal(t, "Code", c.Execution.RunningNode)
		}
		// The old token can write nothing any more.
		ok, err = s.SaveExecutionState(ctx, e.ID, "w/a", store.JSON(`{}`))
		require.NoError(t, err)
		require.False(t, ok)
	})
}

// TestRetrySuccessIsRecordedWithTheRetry: the retry's status and the original's link commit
// together, whether the retry is kept or dropped, and only one retry is pending at a time.
func TestRetrySuccessIsRecordedWithTheRetry(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		for _, keep := range []bool{true, false} {
			orig := newExecution(t, s)
			_, err := s.TransitionExecution(ctx, orig.ID, workflow.StatusError, workflow.StatusNew)
			require.NoError(t, err)
			retry := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeRetry, RetryOf: &orig.ID}
			require.NoError(t, s.CreateRetry(ctx, retry, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
			second := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeRetry, RetryOf: &orig.ID}
			require.ErrorIs(t, s.CreateRetry(ctx, second, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}), store.ErrRetryPending)

			_, err = s.ClaimExecution(ctx, retry.ID, "w/1", time.Minute)
			require.NoError(t, err)
			if keep {
				ok, err := s.FinishExecution(ctx, retry.ID, "w/1", store.Outcome{Status: workflow.StatusSuccess, Data: store.JSON(`{}`), RetryOf: &orig.ID})
				require.NoError(t, err)
				require.True(t, ok)
			} else {
				ok, err := s.DropExecution(ctx, retry.ID, "w/1", store.Outcome{Status: workflow.StatusSuccess, RetryOf: &orig.ID})
				require.NoError(t, err)
				require.True(t, ok)
			}
			got, err := s.GetExecution(ctx, orig.ID)
			require.NoError(t, err)
			require.NotNil(t, got.RetrySuccessID)
			require.Equal(t, retry.ID, *got.RetrySuccessID)
			third := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeRetry, RetryOf: &orig.ID}
			require.ErrorIs(t, s.CreateRetry(ctx, third, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}), store.ErrRetried)
		}

		// A failed retry leaves the original open to another one.
		orig := newExecution(t, s)
		_, err := s.TransitionExecution(ctx, orig.ID, workflow.StatusError, workflow.StatusNew)
		require.NoError(t, err)
		failed := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeRetry, RetryOf: &orig.ID}
		require.NoError(t, s.CreateRetry(ctx, failed, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
		_, err = s.ClaimExecution(ctx, failed.ID, "w/1", time.Minute)
		require.NoError(t, err)
		ok, err := s.FinishExecution(ctx, failed.ID, "w/1", store.Outcome{Status: workflow.StatusError, Data: store.JSON(`{}`), RetryOf: &orig.ID})
		require.NoError(t, err)
		require.True(t, ok)
		got, err := s.GetExecution(ctx, orig.ID)
		require.NoError(t, err)
		require.Nil(t, got.RetrySuccessID)
		next := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeRetry, RetryOf: &orig.ID}
		require.NoError(t, s.CreateRetry(ctx, next, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	})
}

// TestFinalWriteKeepsTheAnswer: the answer goes with the outcome, kept or dropped, only when the
// run still held its lease, and an answer kept before stays.
func TestFinalWriteKeepsTheAnswer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		answerOf := func(id int64) string {
			b, err := s.GetWebhookAnswer(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				return ""
			}
			require.NoError(t, err)
			return string(b)
		}
		for _, keep := range []bool{true, false} {
			finish := func(id int64, owner, answer string) bool {
				out := store.Outcome{Status: workflow.StatusSuccess, Data: store.JSON(`{}`), Answer: []byte(answer)}
				var ok bool
				var err error
				if keep {
					ok, err = s.FinishExecution(ctx, id, owner, out)
				} else {
					ok, err = s.DropExecution(ctx, id, owner, out)
				}
				require.NoError(t, err)
				return ok
			}
			e := newExecution(t, s)
			_, err := s.ClaimExecution(ctx, e.ID, "w/1", time.Minute)
			require.NoError(t, err)
			require.False(t, finish(e.ID, "w/2", `{"by":"w2"}`), "a run without the lease writes nothing")
			require.Empty(t, answerOf(e.ID))
			require.True(t, finish(e.ID, "w/1", `{"by":"w1"}`))
			require.Equal(t, `{"by":"w1"}`, answerOf(e.ID))

			// An answer kept during the run stays the answer.
			e = newExecution(t, s)
			_, err = s.ClaimExecution(ctx, e.ID, "w/1", time.Minute)
			require.NoError(t, err)
			require.NoError(t, s.SaveWebhookAnswer(ctx, e.ID, []byte(`{"first":true}`)))
			require.True(t, finish(e.ID, "w/1", `{"first":false}`))
			require.Equal(t, `{"first":true}`, answerOf(e.ID))
		}
	})
}
