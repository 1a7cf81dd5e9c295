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

// idempotent makes start run once per key: the first call with the key claims it and runs
// start, recording its execution; a repeat gets replay's answer instead (ok false). A first
// call whose execution could not be stored gives the key back, so a repeat runs.
func (rt *Runtime) idempotent(ctx context.Context, h *hit, key string, start startFunc) (startFunc, *Answer, error) {
	scope := idempotencyScope(h)
	first, held, err := rt.cfg.Store.ClaimIdempotencyKey(ctx, scope, key, time.Now().Add(-rt.cfg.IdempotencyTTL))
	if err != nil {
		return nil, nil, err
	}
	if !first {
		ans, err := rt.replay(ctx, h, scope, key, held)
		return nil, &ans, err
	}
	return func(item workflow.Item, respond *trigger.Response) (int64, error) {
		id, err := start(item, respond)
		bg := context.WithoutCancel(ctx)
		if err != nil && !errors.Is(err, execution.ErrNotQueued) {
			if rerr := rt.cfg.Store.ReleaseIdempotencyKey(bg, scope, key); rerr != nil {
				rt.cfg.Log.Warn("release idempotency key", "err", rerr)
			}
			return id, err
		}
		if serr := rt.cfg.Store.SetIdempotencyExecution(bg, scope, key, id); serr != nil {
			rt.cfg.Log.Warn("record idempotency key execution", "execution", id, "err", serr)
		}
		return id, err
	}, nil, nil
}

// replay answers a repeated call with the answer of the first call's execution, waiting for
// it (and for that execution to be stored) if need be.
func (rt *Runtime) replay(ctx context.Context, h *hit, scope, key string, held *store.IdempotencyKey) (Answer, error) {
	deadline := time.Now().Add(rt.cfg.ResponseTimeout)
	for held.ExecutionID == nil {
		if time.Now().After(deadline) {
			return Answer{}, newError(NotYet, "The first call with this %s has not started its execution yet; try again shortly", HeaderIdempotencyKey)
		}
		select {
		case <-ctx.Done():
			return Answer{}, newError(Unavailable, "The server is shutting down")
		case <-time.After(replayPoll):
		}
		var err error
		held, err = rt.cfg.Store.GetIdempotencyKey(ctx, scope, key)
		if errors.Is(err, store.ErrNotFound) {
			return Answer{}, newError(NotYet, "The first call with this %s failed before it started an execution; try again", HeaderIdempotencyKey)
		}
		if err != nil {
			return Answer{}, err
		}
	}
	var ans Answer
	if respond := h.hook.Response; respond.WaitsForRun() {
		var err error
		if ans, err = rt.answers.await(ctx, rt.cfg.Store, time.Until(deadline), replayPoll, *held.ExecutionID, nil); err != nil {
			return Answer{}, err
		}
	} else {
		ans = respond.OnReceived()
	}
	ans.Headers = maps.Clone(ans.Headers)
	if ans.Headers == nil {
		ans.Headers = map[string]string{}
	}
	ans.Headers[HeaderReplayed] = "true"
	return ans, nil
}
