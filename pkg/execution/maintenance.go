package execution

import (
	"context"
	"time"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/loop"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// NewResumer queues waiting executions again once their wait_till has come. Several schedulers
// may run it: the waiting → queued compare-and-set lets exactly one of them queue each execution.
func NewResumer(in *infra.Infra) *loop.Loop {
	return loop.New("wait-resumer", in.Config.WaitPollInterval, func(ctx context.Context) error {
		_, err := ResumeDue(ctx, in, time.Now())
		return err
	}, in.Log)
}

// ResumeDue queues the waiting executions due by now and returns how many it queued.
func ResumeDue(ctx context.Context, in *infra.Infra, now time.Time) (int, error) {
	due, err := in.Store.DueWaitingExecutions(ctx, now, 500)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range due {
		ok, err := in.Store.TransitionExecution(ctx, e.ID, workflow.StatusQueued, workflow.StatusWaiting)
		if err != nil {
			return n, err
		}
		if !ok {
			continue
		}
		if err := in.Queue.EnqueueExecution(ctx, queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: e.ID}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// PruneBatch is how many executions one prune transaction deletes.
const PruneBatch = 500

// NewPruner deletes finished executions older than the maximum age or beyond the maximum count,
// in small batches so the table is never locked for long.
func NewPruner(in *infra.Infra) *loop.Loop {
	cfg := in.Config
	return loop.New("pruner", cfg.PruneInterval, func(ctx context.Context) error {
		if !cfg.PruneEnabled {
			return nil
		}
		_, err := Prune(ctx, in.Store, time.Now().Add(-time.Duration(cfg.PruneMaxAge)*time.Hour), cfg.PruneMaxCount)
		return err
	}, in.Log)
}

// Prune deletes in batches until nothing is left to prune, and returns the total.
func Prune(ctx context.Context, s *store.Store, olderThan time.Time, keep int) (int, error) {
	total := 0
	for {
		n, err := s.PruneExecutions(ctx, olderThan, keep, PruneBatch)
		total += n
		if err != nil || n == 0 {
			return total, err
		}
		if ctx.Err() != nil {
			return total, ctx.Err()
		}
	}
}
