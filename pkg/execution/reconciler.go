package execution

import (
	"context"
	"log/slog"
	"time"

	"github.com/flowmill/flowmill/pkg/loop"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Reconciler re-enqueues executions that the database says are pending but that no worker holds
// a live lease on: lost when Redis restarted (or was the embedded one), or orphaned by a worker
// that died. Task ids are execution ids, so this is idempotent.
type Reconciler struct {
	store  *store.Store
	client *queue.Client
	// grace leaves fresh executions to the request that is enqueueing them.
	grace time.Duration
	log   *slog.Logger
	*loop.Loop
}

// NewReconciler checks every interval (0 or less means 30s); log may be nil. Start and Stop run
// the loop.
func NewReconciler(s *store.Store, c *queue.Client, interval time.Duration, log *slog.Logger) *Reconciler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if interval <= 0 {
		interval = 30 * time.Second
	}
	r := &Reconciler{store: s, client: c, grace: 5 * time.Second, log: log.With("component", "reconciler")}
	r.Loop = loop.New("reconciler", interval, func(ctx context.Context) error {
		n, err := r.RunOnce(ctx)
		if n > 0 {
			r.log.Info("queued orphaned executions again", "count", n)
		}
		return err
	}, log)
	return r
}

// RunOnce re-enqueues up to 500 orphaned executions (the oldest) and returns how many it
// handed back; the next pass takes the rest.
func (r *Reconciler) RunOnce(ctx context.Context) (int, error) {
	batch, err := r.store.OrphanedExecutions(ctx, r.grace, 500)
	if err != nil {
		return 0, err
	}
	for i, e := range batch {
		// A sub-workflow run belongs to its parent's run: when the parent is resumed, Execute
		// Workflow starts it afresh, so the orphan is only marked crashed.
		if e.Mode == workflow.ModeIntegrated {
			if _, err := r.store.TransitionExecution(ctx, e.ID, workflow.StatusCrashed, workflow.PendingStatuses...); err != nil {
				return i, err
			}
			continue
		}
		if e.Status == workflow.StatusNew {
			if _, err := r.store.TransitionExecution(ctx, e.ID, workflow.StatusQueued, workflow.StatusNew); err != nil {
				return i, err
			}
		}
		if err := r.client.RequeueExecution(ctx, queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: e.ID}); err != nil {
			return i, err
		}
	}
	return len(batch), nil
}
