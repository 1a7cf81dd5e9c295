package execution_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// sink is a local HTTP server that counts the calls made for each execution (?execution=<id>).
type sink struct {
	*httptest.Server
	mu    sync.Mutex
	calls map[string]int
}

func newSink(t *testing.T, delay time.Duration) *sink {
	s := &sink{calls: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.calls[r.URL.Query().Get("execution")]++
		s.mu.Unlock()
		time.Sleep(delay) // the call's own latency, so runs overlap
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *sink) count(id int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[execution.IDString(id)]
}

func (s *sink) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		n += c
	}
	return n
}

// call is an HTTP Request node that calls the sink once per run, naming the execution.
func (s *sink) call() node {
	return node{name: "Call", typ: "n8n-nodes-base.httpRequest",
		params: fmt.Sprintf(`{"url":"=%s/?execution={{$execution.id}}"}`, s.URL)}
}

// waitFinal waits for execution id to reach a terminal status.
func waitFinal(t *testing.T, s *store.Store, id int64, within time.Duration) *store.Execution {
	t.Helper()
	var got *store.Execution
	require.Eventually(t, func() bool {
		var err error
		got, err = s.GetExecution(context.Background(), id)
		require.NoError(t, err)
		for _, st := range workflow.TerminalStatuses {
			if got.Status == st {
				return true
			}
		}
		return false
	}, within, 20*time.Millisecond, "execution %d did not end", id)
	return got
}

// TestProductionLimitRunsEachExecutionOnce is the duplicate-run scenario: a production limit of 3,
// a backlog of 30 trigger executions that outlasts the reconciler's grace, two runners in one
// process and a reconciler passing all the time. Every execution calls the sink exactly once.
func TestProductionLimitRunsEachExecutionOnce(t *testing.T) {
	e := setup(t, "FLOWMILL_CONCURRENCY_PRODUCTION_LIMIT", "3")
	second, err := worker.New(e.in) // a second worker in the same process: same worker id
	require.NoError(t, err)
	require.NoError(t, second.Start(context.Background()))
	t.Cleanup(second.Stop)
	snk := newSink(t, 100*time.Millisecond)
	wf := build(t, "limited", "", start, snk.call())
	save(t, e, wf)

	rec := execution.NewReconciler(e.in.Store, e.in.Queue, 50*time.Millisecond, nil).WithGrace(0)
	require.NoError(t, rec.Start(context.Background()))
	t.Cleanup(rec.Stop)

	var ids []int64
	for range 30 {
		ids = append(ids, e.run(t, wf, workflow.ModeTrigger, "").ID)
	}
	for _, id := range ids {
		got := waitFinal(t, e.in.Store, id, 20*time.Second)
		require.Equal(t, workflow.StatusSuccess, got.Status, "execution %d", id)
	}
	for _, id := range ids {
		require.Equal(t, 1, snk.count(id), "execution %d called the sink once", id)
	}
	require.Equal(t, 30, snk.total())
}

// TestPoisonPillEndsCrashed: an execution whose workers died three times while running it is
// not run a fourth time: it ends crashed, naming the node, and nothing queues it again.
func TestPoisonPillEndsCrashed(t *testing.T) {
	e := setup(t)
	snk := newSink(t, 0)
	wf := build(t, "poison", "", start, code("Code", `return $input.all()`), snk.call())
	save(t, e, wf)
	ctx := context.Background()
	s := e.in.Store
	ex := &store.Execution{Status: workflow.StatusQueued, Mode: workflow.ModeTrigger, WorkflowID: &wf.ID, WorkflowName: wf.Name}
	snapshot, err := jsonOf(wf)
	require.NoError(t, err)
	require.NoError(t, s.CreateExecution(ctx, ex, &store.ExecutionData{WorkflowData: snapshot, StartData: store.JSON(`{}`)}))

	// Three workers claim it and die in Code: each leaves a lease that runs out.
	for i := range 3 {
		token := fmt.Sprintf("dead-%d/x", i)
		c, err := s.ClaimExecution(ctx, ex.ID, token, time.Minute)
		require.NoError(t, err)
		require.Equal(t, i, c.Execution.Takeovers)
		ok, err := s.RenewLease(ctx, ex.ID, token, -time.Second, "Code")
		require.NoError(t, err)
		require.True(t, ok)
	}
	require.NoError(t, e.in.Queue.EnqueueExecution(ctx, queue.QueueDefault, queue.ExecutionRun{ExecutionID: ex.ID}))
	got := waitFinal(t, s, ex.ID, 20*time.Second)
	require.Equal(t, workflow.StatusCrashed, got.Status)
	require.Empty(t, got.LeaseOwner)
	resultErr := e.state(t, ex.ID)["resultData"].(map[string]any)["error"].(map[string]any)
	require.Equal(t, `The execution was stopped after its worker died 3 times while running node "Code"`, resultErr["message"])
	require.Equal(t, "Code", resultErr["node"])
	require.Zero(t, snk.count(ex.ID), "the poison pill never runs again")

	n, err := execution.NewReconciler(s, e.in.Queue, time.Hour, nil).WithGrace(0).RunOnce(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "a crashed execution is not queued again")
}

// TestConcurrentRetriesRunOnce: three retries of one failed execution asked at once start one
// run; the others are refused (still running, or already retried successfully).
func TestConcurrentRetriesRunOnce(t *testing.T) {
	e := setup(t)
	snk := newSink(t, 200*time.Millisecond)
	failing := build(t, "retried", "", start, code("Code", `throw new Error("not yet")`), snk.call())
	save(t, e, failing)
	ex := e.run(t, failing, workflow.ModeTrigger, "")
	require.Equal(t, workflow.StatusError, e.wait(t, ex.ID).Status)
	// Fix the saved workflow so a retry with it succeeds and calls the sink after Code.
	fixed := build(t, "retried", "", start, code("Code", `return $input.all()`), snk.call())
	fixed.ID = failing.ID
	doc, err := nodesOf(fixed)
	require.NoError(t, err)
	require.NoError(t, e.in.Store.DB.Model(&store.Workflow{}).Where("id = ?", failing.ID).Update("nodes", doc).Error)
	before := snk.total()

	var wg sync.WaitGroup
	var mu sync.Mutex
	var started []*store.Execution
	var refused []*execution.RetryError
	for range 3 {
		wg.Go(func() {
			r, err := e.svc.Retry(context.Background(), ex.ID, true)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				started = append(started, r)
				return
			}
			re, ok := err.(*execution.RetryError)
			require.True(t, ok, "%v", err)
			refused = append(refused, re)
		})
	}
	wg.Wait()
	require.Len(t, started, 1)
	require.Len(t, refused, 2)
	require.Equal(t, workflow.StatusSuccess, e.wait(t, started[0].ID).Status)
	orig, err := e.in.Store.GetExecution(context.Background(), ex.ID)
	require.NoError(t, err)
	require.NotNil(t, orig.RetrySuccessID)
	require.Equal(t, started[0].ID, *orig.RetrySuccessID)
	require.Equal(t, 1, snk.count(started[0].ID), "one retry called the sink")
	require.Equal(t, before+1, snk.total(), "no other retry ran")
}

func jsonOf(wf *workflow.Workflow) (store.JSON, error) {
	b, err := json.Marshal(wf)
	return store.JSON(b), err
}

// nodesOf is the nodes column of wf as the workflows table keeps it.
func nodesOf(wf *workflow.Workflow) (store.JSON, error) {
	b, err := json.Marshal(wf)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Nodes json.RawMessage `json:"nodes"`
	}
	err = json.Unmarshal(b, &doc)
	return store.JSON(doc.Nodes), err
}
