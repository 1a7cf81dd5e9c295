package execution

import (
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// finishedWatch listens for "execution finished" notices while a caller waits for one
// execution; the database stays the truth, the notice only says when to look.
type finishedWatch struct {
	sub *redis.PubSub
	ch  <-chan *redis.Message
}

func (s *Service) subscribeFinished(ctx context.Context, _ int64) *finishedWatch {
	sub := s.in.Redis.Subscribe(ctx, queue.ChannelFor(s.in.Redis, queue.ChannelFinished))
	_, _ = sub.Receive(ctx) // wait for the subscription so no notice is missed
	return &finishedWatch{sub: sub, ch: sub.Channel()}
}

func (w *finishedWatch) close() { _ = w.sub.Close() }

// settled statuses are those a waiter stops at.
var settled = append(slices.Clone(workflow.TerminalStatuses), workflow.StatusWaiting)

func (w *finishedWatch) wait(ctx context.Context, st *store.Store, id int64, timeout time.Duration) (*store.Execution, error) {
	want := strconv.FormatInt(id, 10)
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
	notice:
		for {
			select {
			case m, ok := <-w.ch:
				if !ok || m.Payload == want {
					break notice
				}
			case <-poll.C:
				break notice
			case <-deadline.C:
				return st.GetExecution(ctx, id)
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
}
