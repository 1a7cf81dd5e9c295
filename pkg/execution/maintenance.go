package execution

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/flowmill/flowmill/pkg/loop"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// ResumerConfig is what the wait resumer stands on.
type ResumerConfig struct {
	// Store and Queue are required.
	Store *store.Store
	Queue *queue.Client
	// Interval is how often it looks for due executions. Default 1s; never negative.
	Interval time.Duration
	// Log may be nil (discarded).
	Log *slog.Logger
}

func (c ResumerConfig) withDefaults() ResumerConfig {
	c.Interval = cmp.Or(c.Interval, time.Second)
	return c
}

func (c ResumerConfig) validate() error {
	switch {
	case c.Store == nil || c.Queue == nil:
		return errors.New("wait resumer: Store and Queue are required")
	case c.Interval < 0:
		return errors.New("wait resumer: Interval must not be negative")
	}
	return nil
}

// NewResumer queues waiting executions again once their wait_till has come. Several schedulers
// may run it: the waiting → queued compare-and-set lets exactly one of them queue each execution.
func NewResumer(cfg ResumerConfig) (*loop.Loop, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return loop.New("wait-resumer", cfg.Interval, func(ctx context.Context) error {
		_, err := ResumeDue(ctx, cfg.Store, cfg.Queue, time.Now())
		return err
	}, cfg.Log), nil
}

// ResumeDue queues the waiting executions due by now and returns how many it queued.
func ResumeDue(ctx context.Context, s *store.Store, q *queue.Client, now time.Time) (int, error) {
	due, err := s.DueWaitingExecutions(ctx, now, 500)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range due {
		ok, err := s.TransitionExecution(ctx, e.ID, workflow.StatusQueued, workflow.StatusWaiting)
		if err != nil {
			return n, err
		}
		if !ok {
			continue
		}
		if err := q.EnqueueExecution(ctx, queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: e.ID}); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// PruneBatch is how many executions one prune transaction deletes: one DELETE of at most this
// many rows, short enough that the table (SQLite's one writer) is never held for long.
const PruneBatch = 1000

// PrunerConfig is what the pruner stands on.
type PrunerConfig struct {
	// Store is required.
	Store *store.Store
	// Enabled turns pruning on; when false the loop runs and deletes nothing.
	Enabled bool
	// MaxAge is the age past which finished executions are deleted. Default 336h; never negative.
	MaxAge time.Duration
	// MaxCount keeps at most this many executions; 0 means no count limit. Never negative.
	MaxCount int
	// Interval is how often it prunes. Default 1m, so that under sustained load at most a
	// minute of executions lies beyond MaxCount and MaxAge; never negative.
	Interval time.Duration
	// AnswerAge is the age past which kept webhook answers and idempotency keys are deleted
	// (whether or not Enabled is set: they are not execution history). Default 24h.
	AnswerAge time.Duration
	// Log may be nil (discarded).
	Log *slog.Logger
}

func (c PrunerConfig) withDefaults() PrunerConfig {
	c.MaxAge = cmp.Or(c.MaxAge, 336*time.Hour)
	c.Interval = cmp.Or(c.Interval, time.Minute)
	c.AnswerAge = cmp.Or(c.AnswerAge, 24*time.Hour)
	return c
}

func (c PrunerConfig) validate() error {
	switch {
	case c.Store == nil:
		return errors.New("pruner: Store is required")
	case c.MaxAge < 0, c.Interval < 0:
		return errors.New("pruner: MaxAge and Interval must not be negative")
	case c.MaxCount < 0:
		return errors.New("pruner: MaxCount must not be negative")
	}
	return nil
}

// NewPruner deletes finished executions older than the maximum age or beyond the maximum count,
// in small batches so the table is never locked for long.
func NewPruner(cfg PrunerConfig) (*loop.Loop, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return loop.New("pruner", cfg.Interval, func(ctx context.Context) error {
		if _, err := cfg.Store.PruneWebhookAnswers(ctx, time.Now().Add(-cfg.AnswerAge)); err != nil {
			return err
		}
		if !cfg.Enabled {
			return nil
		}
		_, err := Prune(ctx, cfg.Store, time.Now().Add(-cfg.MaxAge), cfg.MaxCount)
		return err
	}, cfg.Log), nil
}

// Prune deletes in batches until nothing is left to prune, then gives the freed space back
// (SQLite), and returns the total. The count limit is fixed once per call: executions that
// arrive meanwhile are above it.
func Prune(ctx context.Context, s *store.Store, olderThan time.Time, keep int) (int, error) {
	cutoff, err := s.PruneCutoff(ctx, keep)
	if err != nil {
		return 0, err
	}
	total := 0
	for {
		n, err := s.PruneExecutions(ctx, olderThan, cutoff, PruneBatch)
		total += n
		if err == nil && n > 0 && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil || n == 0 {
			if total > 0 {
				if ferr := s.ReleaseFreeSpace(ctx); err == nil {
					err = ferr
				}
			}
			return total, err
		}
	}
}
