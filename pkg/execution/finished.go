package execution

import (
	"context"
	"slices"
	"time"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// finishedWatch listens for "execution finished" notices while a caller waits for one
// execution; the database stays the truth, the notice only says when to look.
type finishedWatch struct {
	sub *bus.Subscriber
	// noticed holds a signal once a notice for the watched execution arrived.
	noticed chan struct{}
}

func (s *Service) subscribeFinished(ctx context.Context, id int64) *finishedWatch {
	w := &finishedWatch{noticed: make(chan struct{}, 1)}
	w.sub = bus.Finished.Subscribe(s.cfg.Redis, func(got int64) {
		if got != id {
			return
		}
		select {
		case w.noticed <- struct{}{}:
		default:
		}
	}, bus.SubscriberConfig{})
	// Start returns once the subscription is live, so no notice is missed; without one, the
	// slow poll in wait still finds the end.
	_ = w.sub.Start(ctx)
	return w
}

func (w *finishedWatch) close() { w.sub.Stop() }

// settled statuses are those a waiter stops at.
var settled = append(slices.Clone(workflow.TerminalStatuses), workflow.StatusWaiting)

func (w *finishedWatch) wait(ctx context.Context, st *store.Store, id int64, timeout time.Duration) (*store.Execution, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	// A slow poll covers a notice lost with a Redis hiccup.
	poll := time.NewTicker(time.Second)
	defer poll.Stop()
	for {
		e, err := st.GetExecution(ctx, id)
		if err != nil {
			return nil, err
		}
		if slices.Contains(settled, e.Status) {
			return e, nil
		}
		select {
		case <-w.noticed:
		case <-poll.C:
		case <-deadline.C:
			return st.GetExecution(ctx, id)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
