package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// faultEnv is an api whose Redis and Postgres connections go through fault proxies, and a
// worker (plus what a scheduler would run) connected directly, as in the scaled setup.
type faultEnv struct {
	*testEnv
	redis, pg *faultProxy
	direct    *infra.Infra
}

func startBehindProxies(t *testing.T, vars map[string]string) *faultEnv {
	t.Helper()
	env := infratest.Env(t, vars)
	hostOf := func(raw string) string {
		u, err := url.Parse(raw)
		require.NoError(t, err)
		return u.Host
	}
	f := &faultEnv{
		redis: newFaultProxy(t, hostOf(env["FLOWMILL_REDIS_URL"])),
		pg:    newFaultProxy(t, hostOf(env["FLOWMILL_DATABASE_URL"])),
	}
	apiEnv := map[string]string{}
	for k, v := range env {
		apiEnv[k] = v
	}
	apiEnv["FLOWMILL_REDIS_URL"] = f.redis.through(env["FLOWMILL_REDIS_URL"])
	apiEnv["FLOWMILL_DATABASE_URL"] = f.pg.through(env["FLOWMILL_DATABASE_URL"])
	f.testEnv = startServerWith(t, apiEnv)
	cfg := infratest.Config(t, env)
	direct, err := infra.Open(context.Background(), cfg, cfg.Logger(io.Discard))
	require.NoError(t, err)
	t.Cleanup(direct.Close)
	w, err := worker.New(direct)
	require.NoError(t, err)
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(w.Stop)
	f.direct = direct
	return f
}

// sideEffects counts the requests an HTTP Request node sends, and the idempotency keys.
type sideEffects struct {
	hits atomic.Int64
	mu   sync.Mutex
	keys map[string]int
}

func newSideEffects(t *testing.T) (*sideEffects, string) {
	s := &sideEffects{keys: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		s.keys[r.Header.Get("Idempotency-Key")]++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// hookCalling is Webhook (path, response mode) → HTTP Request to url.
func hookCalling(name, path, mode, url string) string {
	return hookThen(name, path, fmt.Sprintf(`{"httpMethod":"POST","path":%q,"responseMode":%q}`, path, mode),
		"Call", "n8n-nodes-base.httpRequest", fmt.Sprintf(`{"url":%q,"options":{}}`, url+"/hit"))
}

func (f *faultEnv) activate(t *testing.T, doc string) string {
	t.Helper()
	id := f.saveWorkflow(t, doc)
	status, b := f.setActive(t, id, true)
	require.Equal(t, 200, status, string(b))
	return id
}

// executionsOf lists the executions of a workflow, read directly.
func (f *faultEnv) executionsOf(t *testing.T, workflowID string) []store.Execution {
	t.Helper()
	var out []store.Execution
	require.NoError(t, f.direct.Store.DB.Where("workflow_id = ?", workflowID).Order("id").Find(&out).Error)
	return out
}

// callSlowHook activates a lastNode webhook at path whose Code node runs for ms milliseconds,
// calls it, and returns once its execution runs: the workflow id and where the answer arrives.
func (f *faultEnv) callSlowHook(t *testing.T, path string, ms int) (string, <-chan callResult) {
	t.Helper()
	id := f.activate(t, hookThen(path, path, fmt.Sprintf(`{"httpMethod":"POST","path":%q,"responseMode":"lastNode"}`, path),
		"Code", "n8n-nodes-base.code", fmt.Sprintf(`{"jsCode":"const t = Date.now(); while (Date.now() - t < %d) {} return [{json: {done: true}}];"}`, ms)))
	answer := make(chan callResult, 1)
	go func() { answer <- postHook(t, f.base+"webhook/"+path) }()
	require.Eventually(t, func() bool {
		ex := f.executionsOf(t, id)
		return len(ex) == 1 && ex[0].Status == workflow.StatusRunning
	}, 10*time.Second, 50*time.Millisecond, "the execution to run")
	return id, answer
}

// postHookTogether makes n calls of postHook at once and returns their results in order.
func postHookTogether(t *testing.T, n int, url string, headers ...string) []callResult {
	t.Helper()
	results := make([]callResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { results[i] = postHook(t, url, headers...) })
	}
	wg.Wait()
	return results
}

type callResult struct {
	status  int
	body    string
	headers http.Header
}

func postHook(t *testing.T, url string, headers ...string) callResult {
	t.Helper()
	res, body := call(t, http.MethodPost, url, "application/json", strings.NewReader(`{"a":1}`), headers...)
	return callResult{res.StatusCode, body, res.Header}
}

func TestRedisCutCallersGetTheRealAnswer(t *testing.T) {
	f := startBehindProxies(t, nil)
	effects, sink := newSideEffects(t)
	last := f.activate(t, hookCalling("cut-last", "cut-last", "lastNode", sink))
	received := f.activate(t, hookCalling("cut-received", "cut-received", "onReceived", sink))

	f.redis.cut()
	// The execution is stored but cannot be queued: an onReceived caller is answered as usual,
	// since the reconciler queues the execution once Redis is back.
	r := postHook(t, f.base+"webhook/cut-received")
	require.Equal(t, 200, r.status, r.body)
	require.JSONEq(t, `{"message":"Workflow was started"}`, r.body)

	// A lastNode caller waits; its answer cannot come over Redis (the api's subscription is
	// cut too) and comes from the database.
	answer := make(chan callResult, 1)
	go func() { answer <- postHook(t, f.base+"webhook/cut-last") }()
	require.Eventually(t, func() bool {
		return len(f.executionsOf(t, last)) == 1 && len(f.executionsOf(t, received)) == 1
	}, 10*time.Second, 50*time.Millisecond, "both executions stored")

	// The reconciler (on the scheduler, which reaches Redis) queues them once they are past its
	// grace.
	rec := execution.NewReconciler(f.direct.Store, f.direct.Queue, time.Second, nil)
	queued := 0
	require.Eventually(t, func() bool {
		n, err := rec.RunOnce(context.Background())
		require.NoError(t, err)
		queued += n
		return queued >= 2
	}, 15*time.Second, 50*time.Millisecond, "the reconciler to queue both executions")
	select {
	case r = <-answer:
	case <-time.After(20 * time.Second):
		t.Fatal("the lastNode caller got no answer")
	}
	require.Equal(t, 200, r.status, r.body)
	require.JSONEq(t, `{"ok":true}`, r.body)

	require.Eventually(t, func() bool {
		for _, wf := range []string{last, received} {
			ex := f.executionsOf(t, wf)
			if len(ex) != 1 || ex[0].Status != workflow.StatusSuccess {
				return false
			}
		}
		return true
	}, 10*time.Second, 50*time.Millisecond, "both executions to succeed")
	require.EqualValues(t, 2, effects.hits.Load())
	f.redis.restore()
}

func TestAnExpiredLeaseOfALiveWorkerIsNotAnAnswer(t *testing.T) {
	f := startBehindProxies(t, nil)
	// The Code node runs for 2 s; meanwhile the lease is made to look run out, as when the
	// worker could not renew it while the database was unreachable.
	id, answer := f.callSlowHook(t, "slow-hook", 2000)
	require.NoError(t, f.direct.Store.DB.Model(&store.Execution{}).Where("workflow_id = ?", id).
		Update("lease_expires_at", time.Now().Add(-time.Minute)).Error)
	r := <-answer
	require.Equal(t, 200, r.status, r.body)
	require.JSONEq(t, `{"done":true}`, r.body)
}

func TestDatabaseOutageAnswers503WithRetryAfter(t *testing.T) {
	f := startBehindProxies(t, nil)
	_, sink := newSideEffects(t)
	f.activate(t, hookCalling("db-cut", "db-cut", "onReceived", sink))
	res, _ := f.do(t, "GET", "rest/workflows", "")
	require.Equal(t, 200, res.StatusCode)

	f.pg.cut()
	res, b := f.do(t, "GET", "rest/workflows", "")
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode, string(b))
	require.Equal(t, "5", res.Header.Get("Retry-After"))
	require.Contains(t, string(b), "The database is unavailable; try again shortly")

	r := postHook(t, f.base+"webhook/db-cut")
	require.Equal(t, http.StatusServiceUnavailable, r.status, r.body)
	require.Equal(t, "5", r.headers.Get("Retry-After"))

	f.pg.restore()
	require.Eventually(t, func() bool {
		res, _ := f.do(t, "GET", "rest/workflows", "")
		return res.StatusCode == 200
	}, 10*time.Second, 50*time.Millisecond, "the api to reach the database again")
}

func TestIdempotencyKeyRunsOnceAndReplaysTheAnswer(t *testing.T) {
	f := startBehindProxies(t, nil)
	effects, sink := newSideEffects(t)
	id := f.activate(t, hookCalling("idem", "idem", "lastNode", sink))

	const n = 20
	results := postHookTogether(t, n, f.base+"webhook/idem", "Idempotency-Key", "order-1")
	replayed := 0
	for _, r := range results {
		require.Equal(t, 200, r.status, r.body)
		require.JSONEq(t, `{"ok":true}`, r.body)
		if r.headers.Get("Idempotent-Replayed") == "true" {
			replayed++
		}
	}
	require.Equal(t, n-1, replayed)
	require.Len(t, f.executionsOf(t, id), 1)
	require.EqualValues(t, 1, effects.hits.Load())

	// Later repeats too; another key runs again.
	r := postHook(t, f.base+"webhook/idem", "Idempotency-Key", "order-1")
	require.Equal(t, "true", r.headers.Get("Idempotent-Replayed"))
	require.JSONEq(t, `{"ok":true}`, r.body)
	r = postHook(t, f.base+"webhook/idem", "Idempotency-Key", "order-2")
	require.Equal(t, 200, r.status)
	require.Empty(t, r.headers.Get("Idempotent-Replayed"))
	require.EqualValues(t, 2, effects.hits.Load())
	require.Len(t, f.executionsOf(t, id), 2)

	// Bad keys run nothing.
	r = postHook(t, f.base+"webhook/idem", "Idempotency-Key", strings.Repeat("k", 256))
	require.Equal(t, 400, r.status, r.body)
	for _, bad := range []string{"cl\u00e9", "tab\tkey"} {
		r = postHook(t, f.base+"webhook/idem", "Idempotency-Key", bad)
		require.Equal(t, 400, r.status, r.body)
		require.Contains(t, r.body, "printable ASCII")
	}
	require.EqualValues(t, 2, effects.hits.Load())

	// Each execution's HTTP Request sent its own idempotency key.
	effects.mu.Lock()
	require.Len(t, effects.keys, 2)
	require.NotContains(t, effects.keys, "")
	effects.mu.Unlock()
}

// A key whose first call could neither record an execution nor give the key back (the database
// went away between the two) is taken over by a repeat once it is abandoned, and runs once.
func TestAbandonedIdempotencyKeyIsTakenOver(t *testing.T) {
	f := startBehindProxies(t, nil)
	effects, sink := newSideEffects(t)
	f.activate(t, hookCalling("idem-gone", "idem-gone", "lastNode", sink))
	r := postHook(t, f.base+"webhook/idem-gone", "Idempotency-Key", "first")
	require.Equal(t, 200, r.status, r.body)
	var scope string
	require.NoError(t, f.direct.Store.DB.Raw(`SELECT scope FROM idempotency_keys WHERE key = 'first'`).Scan(&scope).Error)
	require.NotEmpty(t, scope)

	// A claim of "stale" made a minute ago that never got its execution.
	require.NoError(t, f.direct.Store.DB.Exec(`INSERT INTO idempotency_keys (scope, key, created_at) VALUES (?, 'stale', ?)`,
		scope, time.Now().Add(-time.Minute).UTC()).Error)
	r = postHook(t, f.base+"webhook/idem-gone", "Idempotency-Key", "stale")
	require.Equal(t, 200, r.status, r.body)
	require.Empty(t, r.headers.Get("Idempotent-Replayed"))
	require.JSONEq(t, `{"ok":true}`, r.body)
	r = postHook(t, f.base+"webhook/idem-gone", "Idempotency-Key", "stale")
	require.Equal(t, "true", r.headers.Get("Idempotent-Replayed"))
	require.EqualValues(t, 2, effects.hits.Load())
}

func TestIdempotencyKeyOnTheInProcessRunner(t *testing.T) {
	e := startWithWorker(t, nil)
	effects, sink := newSideEffects(t)
	id := e.saveWorkflow(t, hookCalling("idem-here", "idem-here", "lastNode", sink))
	status, b := e.setActive(t, id, true)
	require.Equal(t, 200, status, string(b))

	const n = 5
	results := postHookTogether(t, n, e.base+"webhook/idem-here", "Idempotency-Key", "here-1")
	for _, r := range results {
		require.Equal(t, 200, r.status, r.body)
		require.JSONEq(t, `{"ok":true}`, r.body)
	}
	r := postHook(t, e.base+"webhook/idem-here", "Idempotency-Key", "here-1")
	require.Equal(t, "true", r.headers.Get("Idempotent-Replayed"))
	require.JSONEq(t, `{"ok":true}`, r.body)
	require.EqualValues(t, 1, effects.hits.Load())
}

func TestWaitingCallOutlivesADatabaseCut(t *testing.T) {
	f := startBehindProxies(t, nil)
	id, answer := f.callSlowHook(t, "slow-db", 1500)
	// The api loses the database while the worker (which still reaches it) finishes the run.
	f.pg.cut()
	require.Eventually(t, func() bool {
		ex := f.executionsOf(t, id)
		return len(ex) == 1 && ex[0].Status == workflow.StatusSuccess
	}, 10*time.Second, 50*time.Millisecond, "the execution to succeed")
	r := <-answer
	require.Equal(t, 200, r.status, r.body)
	require.JSONEq(t, `{"done":true}`, r.body)
	f.pg.restore()
}
