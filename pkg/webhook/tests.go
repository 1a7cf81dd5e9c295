package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// Test webhooks live in Redis so any api replica can serve the call:
//
//	reg:<id>                      the registration (session, workflow, webhooks), JSON
//	path:<METHOD> <path>          → registration id, one per webhook
//	dyn:<METHOD> <webhookId>      set of dynamic paths starting with that webhook id
//	wf:<workflowId>               → the workflow's registration id
//	due                           sorted set of registration ids by the end of their window (ms)
//
// Every key but due expires a little after the test window. Whoever deletes reg:<id> first owns
// the registration: the one call it serves, or its removal (expiry, StopTest), and only the
// owner tells the editor. The replica that registered a window ends it on time with a timer;
// should that replica die, every replica's sweep looks at due once per testSweepInterval and
// ends the windows that are over, so the editor still hears of it (testWebhookDeleted) about a
// second late.
type tests struct {
	rdb    redis.UniversalClient
	pub    *push.Publisher
	log    *slog.Logger
	window time.Duration

	mu     sync.Mutex
	timers map[string]*time.Timer

	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// testSweepInterval is how often each api replica ends the test webhook windows that are over
// but still registered (their replica died before its timer fired).
const testSweepInterval = time.Second

// registration is one editor session waiting for a call of its workflow's webhooks.
type registration struct {
	ID          string          `json:"id"`
	SessionID   string          `json:"sessionId"`
	WorkflowID  string          `json:"workflowId"`
	Workflow    json.RawMessage `json:"workflow"`
	Destination string          `json:"destination,omitempty"`
	// UserID is the user the run acts for; the registration's owner.
	UserID string            `json:"userId"`
	Hooks  []trigger.Webhook `json:"hooks"`
	// Until is the end of the window; the keys live a little longer, so the expiry timer of the
	// replica that registered them still finds them to announce the end.
	Until time.Time `json:"until"`
}

// keyGrace is how much longer than the window the keys of a registration live.
const keyGrace = 30 * time.Second

func testKey(parts ...string) string { return bus.KeyTestWebhookPrefix + strings.Join(parts, "") }

func (r *registration) keys() []string {
	keys := []string{testKey("reg:", r.ID)}
	for _, h := range r.Hooks {
		keys = append(keys, testKey("path:", h.Method, " ", h.Path))
	}
	return keys
}

// register makes the workflow's webhooks answer one test call for the window. A webhook path
// another workflow is testing is a conflict; the same workflow's earlier registration is
// replaced.
func (t *tests) register(ctx context.Context, reg *registration) error {
	if old, err := t.rdb.Get(ctx, testKey("wf:", reg.WorkflowID)).Result(); err == nil {
		t.remove(ctx, old, false)
	}
	reg.Until = time.Now().Add(t.window)
	ttl := t.window + keyGrace
	b, err := json.Marshal(reg)
	if err != nil {
		return err
	}
	var taken []string
	for _, h := range reg.Hooks {
		key := testKey("path:", h.Method, " ", h.Path)
		ok, err := t.rdb.SetNX(ctx, key, reg.ID, ttl).Result()
		if err != nil {
			return fmt.Errorf("register test webhook: %w", err)
		}
		if !ok {
			t.rdb.Del(ctx, taken...)
			e := newError(Conflict, "The webhook %s %q is already waiting for a test call of another workflow.", h.Method, h.Path)
			e.Hint = "Stop listening in the other workflow first"
			return e
		}
		taken = append(taken, key)
	}
	_, err = t.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, testKey("reg:", reg.ID), b, ttl)
		p.Set(ctx, testKey("wf:", reg.WorkflowID), reg.ID, ttl)
		p.ZAdd(ctx, testKey("due"), redis.Z{Score: float64(reg.Until.UnixMilli()), Member: reg.ID})
		for _, h := range reg.Hooks {
			if h.Dynamic() {
				dyn := testKey("dyn:", h.Method, " ", h.WebhookID)
				p.SAdd(ctx, dyn, h.Path)
				p.Expire(ctx, dyn, ttl)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("register test webhooks: %w", err)
	}
	t.mu.Lock()
	t.timers[reg.ID] = time.AfterFunc(t.window, func() { t.remove(context.Background(), reg.ID, true) })
	t.mu.Unlock()
	return nil
}

// claim takes the registration whose webhook matches the request, so it serves only this call;
// errNoWebhook when none does.
func (t *tests) claim(ctx context.Context, method, path string) (*registration, *trigger.Webhook, map[string]string, error) {
	id, err := t.rdb.Get(ctx, testKey("path:", method, " ", path)).Result()
	params := map[string]string{}
	if errors.Is(err, redis.Nil) {
		first, _, _ := strings.Cut(path, "/")
		patterns, _ := t.rdb.SMembers(ctx, testKey("dyn:", method, " ", first)).Result()
		pattern, got, ok := bestMatch(path, patterns)
		if !ok {
			return nil, nil, nil, errNoWebhook
		}
		path, params = pattern, got
		id, err = t.rdb.Get(ctx, testKey("path:", method, " ", path)).Result()
	}
	if errors.Is(err, redis.Nil) {
		return nil, nil, nil, errNoWebhook
	}
	if err != nil {
		return nil, nil, nil, err
	}
	reg, err := t.take(ctx, id)
	if err != nil {
		return nil, nil, nil, err
	}
	if time.Now().After(reg.Until) {
		// Past its window: the replica that registered it died before announcing the end, and no
		// sweep has come by yet. This call took it, so it tells the editor.
		t.announce(ctx, reg)
		return nil, nil, nil, errNoWebhook
	}
	for i := range reg.Hooks {
		if h := &reg.Hooks[i]; h.Method == method && h.Path == path {
			return reg, h, params, nil
		}
	}
	return nil, nil, nil, errNoWebhook
}

// peek reads the test webhook waiting on an exact path for a method without taking it; nil
// when there is none.
func (t *tests) peek(ctx context.Context, method, path string) *trigger.Webhook {
	id, err := t.rdb.Get(ctx, testKey("path:", method, " ", path)).Result()
	if err != nil {
		return nil
	}
	b, err := t.rdb.Get(ctx, testKey("reg:", id)).Bytes()
	if err != nil {
		return nil
	}
	reg, err := decodeRegistration(id, b)
	if err != nil {
		return nil
	}
	for i := range reg.Hooks {
		if h := &reg.Hooks[i]; h.Method == method && h.Path == path {
			return h
		}
	}
	return nil
}

// methods lists the methods of test webhooks waiting on a path, for a preflight answer.
func (t *tests) methods(ctx context.Context, path string) []string {
	var out []string
	for _, m := range Methods {
		if n, _ := t.rdb.Exists(ctx, testKey("path:", m, " ", path)).Result(); n > 0 {
			out = append(out, m)
		}
	}
	return out
}

// ofWorkflow reads the registration of a workflow without taking it; errNoWebhook when there is
// none.
func (t *tests) ofWorkflow(ctx context.Context, workflowID string) (*registration, error) {
	id, err := t.rdb.Get(ctx, testKey("wf:", workflowID)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, errNoWebhook
	}
	if err != nil {
		return nil, err
	}
	b, err := t.rdb.Get(ctx, testKey("reg:", id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, errNoWebhook
	}
	if err != nil {
		return nil, err
	}
	return decodeRegistration(id, b)
}

func decodeRegistration(id string, b []byte) (*registration, error) {
	var reg registration
	if err := json.Unmarshal(b, &reg); err != nil {
		return nil, fmt.Errorf("read test webhook registration %s: %w", id, err)
	}
	return &reg, nil
}

// take deletes registration id and its keys; errNoWebhook when someone else took it first.
func (t *tests) take(ctx context.Context, id string) (*registration, error) {
	b, err := t.rdb.GetDel(ctx, testKey("reg:", id)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, errNoWebhook
	}
	if err != nil {
		return nil, err
	}
	reg, err := decodeRegistration(id, b)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if tm := t.timers[id]; tm != nil {
		tm.Stop()
		delete(t.timers, id)
	}
	t.mu.Unlock()
	_, _ = t.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, reg.keys()[1:]...)
		p.ZRem(ctx, testKey("due"), id)
		for _, h := range reg.Hooks {
			if h.Dynamic() {
				p.SRem(ctx, testKey("dyn:", h.Method, " ", h.WebhookID), h.Path)
			}
		}
		return nil
	})
	// The workflow key may already name a newer registration.
	_ = t.rdb.Eval(ctx, `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`,
		[]string{testKey("wf:", reg.WorkflowID)}, id).Err()
	return reg, nil
}

// remove takes registration id away and, when notify, tells its editor that it stopped
// listening (testWebhookDeleted). It reports whether there was one.
func (t *tests) remove(ctx context.Context, id string, notify bool) bool {
	reg, err := t.take(ctx, id)
	if err != nil {
		if !errors.Is(err, errNoWebhook) {
			t.log.Warn("remove test webhooks", "err", err)
		}
		return false
	}
	if notify {
		t.announce(ctx, reg)
	}
	return true
}

// announce tells the editor of a registration taken away that it stopped listening.
func (t *tests) announce(ctx context.Context, reg *registration) {
	if reg.SessionID == "" {
		return
	}
	if err := t.pub.Send(ctx, reg.SessionID, push.Message{Type: push.TypeTestWebhookDeleted,
		Data: map[string]any{"workflowId": reg.WorkflowID}}); err != nil {
		t.log.Warn("push testWebhookDeleted", "err", err)
	}
}

// start begins the sweep that ends windows other replicas left behind.
func (t *tests) start(ctx context.Context) {
	ctx, t.cancel = context.WithCancel(context.WithoutCancel(ctx))
	t.done = make(chan struct{})
	go func() {
		defer close(t.done)
		tick := time.NewTicker(testSweepInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				t.sweep(ctx)
			}
		}
	}()
}

// sweep ends every registration whose window is over. take lets one replica own each, so the
// editor hears of it once whichever replicas sweep.
func (t *tests) sweep(ctx context.Context) {
	ids, err := t.rdb.ZRangeByScore(ctx, testKey("due"), &redis.ZRangeBy{Min: "-inf",
		Max: strconv.FormatInt(time.Now().UnixMilli(), 10), Count: 100}).Result()
	if err != nil {
		if ctx.Err() == nil {
			t.log.Warn("sweep test webhooks", "err", err)
		}
		return
	}
	for _, id := range ids {
		t.remove(ctx, id, true)
		// Also when the keys expired already (no replica ran for a while).
		_ = t.rdb.ZRem(ctx, testKey("due"), id).Err()
	}
}

// stop ends the sweep and cancels the expiry timers of this replica; the keys still expire in
// Redis and other replicas' sweeps end their windows. Safe to call twice, and before start.
func (t *tests) stop() {
	t.stopOnce.Do(func() {
		if t.cancel != nil {
			t.cancel()
			<-t.done
		}
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, tm := range t.timers {
		tm.Stop()
		delete(t.timers, id)
	}
}
