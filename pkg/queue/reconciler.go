package queue

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/flowmill/flowmill/pkg/store"
)

// QueueFor picks the queue of an execution by its mode: runs someone waits on go first.
func QueueFor(mode string) string {
	switch mode {
	case "manual", "webhook":
		return QueueCritical
	default:
		return QueueDefault
	}
}

// Reconciler re-enqueues executions that the database says are pending but that no worker holds
// a live lease on: lost when Redis restarted (or was the embedded one), or orphaned by a worker
// that died. Task ids are execution ids, so this is idempotent.
type Reconciler struct {
	store    *store.Store
	client   *Client
	interval time.Duration
	// grace leaves fresh executions to the request that is enqueueing them.
	grace    time.Duration
	log      *slog.Logger
	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// NewReconciler checks every interval (default 30s).
func NewReconciler(s *store.Store, c *Client, interval time.Duration, log *slog.Logger) *Reconciler {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Reconciler{store: s, client: c, interval: durOr(interval, 30*time.Second), grace: 5 * time.Second,
		log: log.With("component", "reconciler"), done: make(chan struct{})}
}

// RunOnce re-enqueues up to 500 orphaned executions (the oldest) and returns how many it
// handed back; the next pass takes the rest.
func (r *Reconciler) RunOnce(ctx context.Context) (int, error) {
	batch, err := r.store.OrphanedExecutions(ctx, r.grace, 500)
	if err != nil {
		return 0, err
	}
	for i, e := range batch {
		if e.Status == store.StatusNew {
			if _, err := r.store.TransitionExecution(ctx, e.ID, store.StatusQueued, store.StatusNew); err != nil {
				return i, err
			}
		}
		if err := r.client.RequeueExecution(ctx, QueueFor(e.Mode), ExecutionRun{ExecutionID: e.ID}); err != nil {
			return i, err
		}
	}
	return len(batch), nil
}

// Start runs a pass now and then every interval until Stop.
func (r *Reconciler) Start(ctx context.Context) error {
	ctx, r.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		defer close(r.done)
		t := time.NewTicker(r.interval)
		defer t.Stop()
		for {
			if n, err := r.RunOnce(ctx); err != nil && ctx.Err() == nil {
				r.log.Warn("reconcile failed", "err", err)
			} else if n > 0 {
				r.log.Info("queued orphaned executions again", "count", n)
			}
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// Stop ends the loop. Safe to call twice.
func (r *Reconciler) Stop() {
	r.stopOnce.Do(func() {
		if r.cancel != nil {
			r.cancel()
			<-r.done
		}
	})
}
