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

// stored reads the answer of an execution kept in the database (or, failing that, the copy kept
// in Redis), for a call that missed the message or repeats an earlier call.
func (a *answers) stored(ctx context.Context, s *store.Store, id int64) (trigger.Answer, bool) {
	b, err := s.GetWebhookAnswer(ctx, id)
	if err != nil {
		if b, err = a.rdb.Get(ctx, bus.KeyWebhookResponsePrefix+execution.IDString(id)).Bytes(); err != nil {
			return trigger.Answer{}, false
		}
	}
	var wa execution.WebhookAnswer
	if json.Unmarshal(b, &wa) != nil {
		return trigger.Answer{}, false
	}
	return wa.Answer, true
}

// await waits for a webhook execution's answer: from answer (the message for this call), or
// from the copy the worker keeps in the database, which it reads every check (a lost Redis
// message is not a lost answer). A run that settled without answering gets NoAnswer. A database
// or Redis outage does not end the wait, nor does a lease that ran out while its worker lives;
// a worker known to be gone (see workerGone) ends it with NotYet: the outcome is not known, a
// repeat (with the same Idempotency-Key) gets it. After timeout the caller gets Timeout when the
// run is known to be going on, and NotYet when its fate is not known. answer may be nil (a
// repeated call, which only reads the database).
func (a *answers) await(ctx context.Context, s *store.Store, timeout, every time.Duration, id int64, answer <-chan trigger.Answer) (trigger.Answer, error) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	check := time.NewTicker(every)
	defer check.Stop()
	settledChecks := 0
	for {
		select {
		case ans := <-answer:
			return ans, nil
		case <-ctx.Done():
			return trigger.Answer{}, newError(Unavailable, "The server is shutting down")
		case <-deadline.C:
			e, err := s.GetExecution(ctx, id)
			if err == nil && e.Status == workflow.StatusRunning && e.LeaseExpiresAt != nil && e.LeaseExpiresAt.After(time.Now()) {
				return trigger.Answer{}, newError(Timeout, "The workflow (execution %d) did not answer within %s", id, timeout)
			}
			return trigger.Answer{}, notYet(id)
		case <-check.C:
			if ans, ok := a.stored(ctx, s, id); ok {
				return ans, nil
			}
			e, err := s.GetExecution(ctx, id)
			settled := errors.Is(err, store.ErrNotFound) || err == nil && (slices.Contains(workflow.TerminalStatuses, e.Status) || e.Status == workflow.StatusWaiting)
			if !settled {
				settledChecks = 0
				if err == nil && a.workerGone(ctx, e) {
					return trigger.Answer{}, notYet(id)
				}
				continue
			}
			// The worker keeps the answer just after the execution's end: give it a moment.
			if settledChecks++; settledChecks*int(every/time.Millisecond) > settleGrace {
				return trigger.Answer{}, newError(NoAnswer, "The workflow (execution %d) ended without an answer", id)
			}
		}
	}
}

// workerGone reports whether the worker running e is known to be gone: its lease ran out (read
// from the database just now, so the database is reachable) and its heartbeat has expired too. A
// lease alone is not enough: a live worker cannot renew it while the database is unreachable.
// Either way the execution is taken over and runs to its end; the caller is told to try again.
func (a *answers) workerGone(ctx context.Context, e *store.Execution) bool {
	if e.Status != workflow.StatusRunning || e.LeaseOwner == "" || e.LeaseExpiresAt == nil || e.LeaseExpiresAt.After(time.Now()) {
		return false
	}
	alive, err := bus.Alive(ctx, a.rdb, bus.RoleWorker, execution.ClaimWorker(e.LeaseOwner))
	return err == nil && !alive
}

// settleGrace (ms) is how long a settled execution's answer may take to be kept.
const settleGrace = 1000

// notYet is the error of a call whose execution's outcome is not known yet.
func notYet(id int64) *Error {
	return newError(NotYet, "The workflow (execution %d) has not answered yet: it is stored and will run, or is running; try again shortly", id)
}
