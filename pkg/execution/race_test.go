package execution_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestCancelFinishTakeoverRace races, on real Postgres and Redis, a run finishing, a stop request
// and another claimant taking the execution over (its lease made to run out, as when the worker
// stalls), many times (run it with -race). Each execution ends in exactly one terminal status that
// never changes afterwards, with no lease left behind, and its side effect ran at most once per
// claim.
func TestCancelFinishTakeoverRace(t *testing.T) {
	e := setup(t, "FLOWMILL_EXECUTION_LEASE_TTL", "600ms")
	snk := newSink(t, 5*time.Millisecond)
	wf := build(t, "raced", "", start, snk.call(), code("Code", `return $input.all()`))
	save(t, e, wf)
	ctx := context.Background()
	s := e.in.Store

	const rounds = 30
	final := map[int64]workflow.Status{}
	takeovers := map[int64]int{}
	for i := range rounds {
		ex := e.run(t, wf, workflow.ModeTrigger, "")
		// Random head starts vary the interleaving from round to round; nothing waits on them.
		var wg sync.WaitGroup
		wg.Go(func() { // the stop request
			time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
			_, err := e.svc.Stop(ctx, ex.ID, 5*time.Second)
			if err != nil && !errors.Is(err, execution.ErrNotStoppable) {
				t.Errorf("stop %d: %v", ex.ID, err)
			}
		})
		wg.Go(func() { // the takeover: the lease runs out and another claimant finishes the run
			time.Sleep(time.Duration(rand.IntN(40)) * time.Millisecond)
			if err := s.DB.Model(&store.Execution{}).Where("id = ? AND lease_owner <> ''", ex.ID).
				Update("lease_expires_at", time.Now().UTC().Add(-time.Second)).Error; err != nil {
				t.Errorf("expire lease: %v", err)
				return
			}
			token := fmt.Sprintf("thief/%d", i)
			if _, err := s.ClaimExecution(ctx, ex.ID, token, time.Minute); err != nil {
				if !errors.Is(err, store.ErrNotClaimable) {
					t.Errorf("claim %d: %v", ex.ID, err)
				}
				return
			}
			if _, err := s.FinishExecution(ctx, ex.ID, token, store.Outcome{Status: workflow.StatusSuccess, Data: store.JSON(`{}`)}); err != nil {
				t.Errorf("finish %d: %v", ex.ID, err)
			}
		})
		wg.Wait()
		got := waitFinal(t, s, ex.ID, 20*time.Second)
		final[ex.ID] = got.Status
		takeovers[ex.ID] = got.Takeovers
	}

	// Once no task is left, nothing changes any more: every status is still the one first seen.
	ins := asynq.NewInspectorFromRedisClient(e.in.Redis)
	require.Eventually(t, func() bool {
		info, err := ins.GetQueueInfo(queue.QueueDefault)
		return err == nil && info.Active == 0 && info.Pending == 0 && info.Scheduled == 0 && info.Retry == 0
	}, 20*time.Second, 20*time.Millisecond)
	for id, status := range final {
		got, err := s.GetExecution(ctx, id)
		require.NoError(t, err)
		require.Equal(t, status, got.Status, "execution %d changed after it ended", id)
		require.Empty(t, got.LeaseOwner, "execution %d keeps a lease", id)
		require.Nil(t, got.LeaseExpiresAt, "execution %d keeps a lease", id)
		require.LessOrEqual(t, snk.count(id), 1+takeovers[id], "execution %d: one side effect per claim at most", id)
		require.LessOrEqual(t, snk.count(id), 1, "execution %d: only the worker's run calls the sink", id)
	}
}
