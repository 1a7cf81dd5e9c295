package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// answers hands the answers workers publish for webhook executions to the calls waiting for
// them on this replica. One subscription serves every waiting call; it also carries the
// activation notices that empty the production caches.
type answers struct {
	rdb     redis.UniversalClient
	log     *slog.Logger
	mu      sync.Mutex
	waiting map[string]chan trigger.Answer
	// answerSub hears the answers, activationSub the activation notices, whose workflow ids go to
	// activated (it empties the production caches).
	answerSub, activationSub *bus.Subscriber
}

func newAnswers(rdb redis.UniversalClient, log *slog.Logger, activated func(id string)) *answers {
	a := &answers{rdb: rdb, log: log, waiting: map[string]chan trigger.Answer{}}
	cfg := bus.SubscriberConfig{Logger: log}
	a.answerSub = bus.WebhookAnswers.Subscribe(rdb, func(m json.RawMessage) {
		var wa execution.WebhookAnswer
		if err := json.Unmarshal(m, &wa); err != nil {
			a.log.Warn("unreadable webhook answer", "err", err)
			return
		}
		a.deliver(wa)
	}, cfg)
	a.activationSub = bus.Activations.Subscribe(rdb, activated, cfg)
	return a
}

// start subscribes to answers and activation notices, and returns once both subscriptions are
// live.
func (a *answers) start(ctx context.Context) error {
	if err := a.answerSub.Start(ctx); err != nil {
		return err
	}
	if err := a.activationSub.Start(ctx); err != nil {
		a.answerSub.Stop()
		return err
	}
	return nil
}

// stop unsubscribes. Safe to call twice, and before start.
func (a *answers) stop() {
	a.answerSub.Stop()
	a.activationSub.Stop()
}

// expect registers a call waiting for the answer carrying token; release forgets it.
func (a *answers) expect(token string) (<-chan trigger.Answer, func()) {
	ch := make(chan trigger.Answer, 1)
	a.mu.Lock()
	a.waiting[token] = ch
	a.mu.Unlock()
	return ch, func() {
		a.mu.Lock()
		delete(a.waiting, token)
		a.mu.Unlock()
	}
}

// deliver hands an answer to the call waiting for it; false when none is waiting here.
func (a *answers) deliver(wa execution.WebhookAnswer) bool {
	a.mu.Lock()
	ch := a.waiting[wa.Token]
	delete(a.waiting, wa.Token)
	a.mu.Unlock()
	if ch != nil {
		ch <- wa.Answer
	}
	return ch != nil
}

// stored reads the copy of an answer kept in Redis, for a call that missed the message.
func (a *answers) stored(ctx context.Context, id int64) (trigger.Answer, bool) {
	b, err := a.rdb.Get(ctx, bus.KeyWebhookResponsePrefix+execution.IDString(id)).Bytes()
	if err != nil {
		return trigger.Answer{}, false
	}
	var wa execution.WebhookAnswer
	if json.Unmarshal(b, &wa) != nil {
		return trigger.Answer{}, false
	}
	return wa.Answer, true
}

// await waits for a webhook execution's answer. Every second it looks at the execution itself,
// so a run that ended without an answer reaching this replica, or whose worker died, gets an
// answer too; the caller never waits past timeout.
func (a *answers) await(ctx context.Context, s *store.Store, timeout time.Duration, id int64, answer <-chan trigger.Answer) (trigger.Answer, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	check := time.NewTicker(time.Second)
	defer check.Stop()
	for {
		select {
		case ans := <-answer:
			return ans, nil
		case <-ctx.Done():
			return trigger.Answer{}, newError(Unavailable, "The server is shutting down")
		case <-deadline.C:
			return trigger.Answer{}, newError(Timeout, "The workflow (execution %d) did not answer within %s", id, timeout)
		case <-check.C:
			e, err := s.GetExecution(ctx, id)
			settled := errors.Is(err, store.ErrNotFound) || err == nil && (slices.Contains(workflow.TerminalStatuses, e.Status) || e.Status == workflow.StatusWaiting)
			if settled {
				if ans, ok := a.stored(ctx, id); ok {
					return ans, nil
				}
				select {
				case ans := <-answer:
					return ans, nil
				case <-time.After(500 * time.Millisecond):
				}
				if ans, ok := a.stored(ctx, id); ok {
					return ans, nil
				}
				return trigger.Answer{}, newError(NoAnswer, "The workflow (execution %d) ended without an answer", id)
			}
			if err == nil && e.Status == workflow.StatusRunning && e.LeaseExpiresAt != nil && e.LeaseExpiresAt.Before(time.Now()) {
				return trigger.Answer{}, newError(WorkerGone, "The worker running the workflow (execution %d) stopped before it answered", id)
			}
		}
	}
}
