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
// that died. Each execution has one task id, and an execution that still has a task (queued,
// deferred, waiting for asynq's retry of a dead worker's task) is left to it, so this never
// starts a second chain of runs.
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
	r := &Reconciler{store: s, client: c, grace: DefaultReconcileGrace, log: log.With("component", "reconciler")}
	r.Loop = loop.New("reconciler", interval, func(ctx context.Context) error {
		n, err := r.RunOnce(ctx)
		if n > 0 {
			r.log.Info("queued orphaned executions again", "count", n)
		}
		return err
	}, log)
	return r
}

// DefaultReconcileGrace is how old a pending execution must be before the reconciler queues it.
const DefaultReconcileGrace = 5 * time.Second

// WithGrace sets how old a pending execution must be before it is queued again (default
// DefaultReconcileGrace) and returns r; set before Start.
func (r *Reconciler) WithGrace(grace time.Duration) *Reconciler {
	r.grace = grace
	return r
}

// RunOnce re-enqueues up to 500 orphaned executions (the oldest) and returns how many it
// handed back (marked crashed, or queued afresh); the next pass takes the rest.
func (r *Reconciler) RunOnce(ctx context.Context) (int, error) {
	batch, err := r.store.OrphanedExecutions(ctx, r.grace, 500)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range batch {
		// A sub-workflow run belongs to its parent's run: when the parent is resumed, Execute
		// Workflow starts it afresh, so the orphan is only marked crashed.
		if e.Mode == workflow.ModeIntegrated {
			if _, err := r.store.TransitionExecution(ctx, e.ID, workflow.StatusCrashed, workflow.PendingStatuses...); err != nil {
				return n, err
			}
			n++
			continue
		}
		if e.Status == workflow.StatusNew {
			if _, err := r.store.TransitionExecution(ctx, e.ID, workflow.StatusQueued, workflow.StatusNew); err != nil {
				return n, err
			}
		}
		queued, err := r.client.RequeueExecution(ctx, queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: e.ID})
		if err != nil {
			return n, err
		}
		if queued {
			n++
		}
	}
	return n, nil
}
