package webhook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"net/http"
	"time"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// HeaderIdempotencyKey is the request header that makes a production call idempotent, and
// HeaderReplayed the answer header of a repeated call answered from the first one.
const (
	HeaderIdempotencyKey = "Idempotency-Key"
	HeaderReplayed       = "Idempotent-Replayed"
)

// MaxIdempotencyKey is the longest Idempotency-Key accepted, in bytes.
const MaxIdempotencyKey = 255

// replayPoll is how often a repeated call looks for the first call's execution and answer.
const replayPoll = 100 * time.Millisecond

// idempotencyKey reads a call's Idempotency-Key: "" when it sent none; BadRequest when it is
// longer than MaxIdempotencyKey or holds anything but printable ASCII.
func idempotencyKey(r *http.Request) (string, error) {
	key := r.Header.Get(HeaderIdempotencyKey)
	if len(key) > MaxIdempotencyKey {
		return "", newError(BadRequest, "The %s header is longer than %d characters", HeaderIdempotencyKey, MaxIdempotencyKey)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return "", newError(BadRequest, "The %s header may hold printable ASCII characters only", HeaderIdempotencyKey)
		}
	}
	return key, nil
}

// idempotencyScope names the webhook a key belongs to: the workflow, node, method and path.
func idempotencyScope(h *hit) string {
	sum := sha256.Sum256([]byte(h.wf.ID + "\x00" + h.hook.Node + "\x00" + h.hook.Method + "\x00" + h.hook.Path))
	return hex.EncodeToString(sum[:])
}

// abandonAfter is how long the first call with a key may take to record its execution. A key
// still without one after that is taken over by a repeat: its first call failed and could not
// give the key back (the database was unreachable), or its process died.
const abandonAfter = 30 * time.Second

// idempotent makes start run once per key: the first call with the key claims it and runs
// start, recording its execution (in the statement that stores it, where start can: see
// store.CreateOwnedExecutionWithKey); a repeat gets replay's answer instead (a nil startFunc). A
// first call whose execution could not be stored gives the key back, so a repeat runs; one that
// could not even do that leaves a claim that a repeat takes over after abandonAfter.
func (rt *Runtime) idempotent(ctx context.Context, h *hit, key string, start startFunc) (startFunc, *Answer, error) {
	scope := idempotencyScope(h)
	first, held, err := rt.cfg.Store.ClaimIdempotencyKey(ctx, scope, key, time.Now().Add(-rt.cfg.IdempotencyTTL))
	if err != nil {
		return nil, nil, err
	}
	claimedAt := held.CreatedAt
	if !first {
		ans, takenAt, err := rt.replay(ctx, h, scope, key, held)
		if takenAt.IsZero() {
			return nil, &ans, err
		}
		claimedAt = takenAt
	}
	return func(item workflow.Item, respond *trigger.Response, _ *store.IdempotencyClaim) (int64, error) {
		claim := &store.IdempotencyClaim{Scope: scope, Key: key, ClaimedAt: claimedAt}
		id, err := start(item, respond, claim)
		bg := context.WithoutCancel(ctx)
		if err != nil && !errors.Is(err, execution.ErrNotQueued) {
			// A key its execution was recorded on stays, even when the store's answer was lost
			// after it committed: the repeat replays that execution.
			if rerr := rt.cfg.Store.ReleaseIdempotencyKey(bg, scope, key, claimedAt); rerr != nil {
				rt.cfg.Log.Warn("release idempotency key", "err", rerr)
			}
			return id, err
		}
		if !claim.Recorded {
			rt.recordKey(bg, scope, key, claimedAt, id)
		}
		return id, err
	}, nil, nil
}

// recordKey records the execution a key's first call started. While the database cannot be
// reached it keeps trying in the background until the claim would count as abandoned.
func (rt *Runtime) recordKey(ctx context.Context, scope, key string, claimedAt time.Time, id int64) {
	record := func() bool {
		ok, err := rt.cfg.Store.SetIdempotencyExecution(ctx, scope, key, claimedAt, id)
		if err != nil {
			return false
		}
		if !ok {
			rt.cfg.Log.Warn("idempotency key taken over before its execution was recorded", "execution", id)
		}
		return true
	}
	if record() {
		return
	}
	go func() {
		for time.Since(claimedAt) < abandonAfter {
			time.Sleep(time.Second)
			if record() {
				return
			}
		}
		rt.cfg.Log.Warn("could not record the execution of an idempotency key", "execution", id)
	}()
}

// replay answers a repeated call with the answer of the first call's execution, waiting for
// it (and for that execution to be stored) if need be. When the first call abandoned the key,
// the repeat takes it over and replay returns the time of its claim instead: the repeat runs.
func (rt *Runtime) replay(ctx context.Context, h *hit, scope, key string, held *store.IdempotencyKey) (Answer, time.Time, error) {
	deadline := time.Now().Add(rt.cfg.ResponseTimeout)
	for held.ExecutionID == nil {
		if held.CreatedAt.Before(time.Now().Add(-abandonAfter)) {
			won, at, err := rt.cfg.Store.TakeOverIdempotencyKey(ctx, scope, key, time.Now().Add(-abandonAfter))
			if err != nil {
				return Answer{}, time.Time{}, err
			}
			if won {
				return Answer{}, at, nil
			}
		}
		if time.Now().After(deadline) {
			return Answer{}, time.Time{}, newError(NotYet, "The first call with this %s has not started its execution yet; try again shortly", HeaderIdempotencyKey)
		}
		select {
		case <-ctx.Done():
			return Answer{}, time.Time{}, newError(Unavailable, "The server is shutting down")
		case <-time.After(replayPoll):
		}
		var err error
		held, err = rt.cfg.Store.GetIdempotencyKey(ctx, scope, key)
		if errors.Is(err, store.ErrNotFound) {
			return Answer{}, time.Time{}, newError(NotYet, "The first call with this %s failed before it started an execution; try again", HeaderIdempotencyKey)
		}
		if err != nil {
			return Answer{}, time.Time{}, err
		}
	}
	var ans Answer
	if respond := h.hook.Response; respond.WaitsForRun() {
		var err error
		if ans, err = rt.answers.await(ctx, rt.cfg.Store, time.Until(deadline), replayPoll, *held.ExecutionID, nil); err != nil {
			return Answer{}, time.Time{}, err
		}
	} else {
		ans = respond.OnReceived()
	}
	ans.Headers = maps.Clone(ans.Headers)
	if ans.Headers == nil {
		ans.Headers = map[string]string{}
	}
	ans.Headers[HeaderReplayed] = "true"
	return ans, time.Time{}, nil
}
