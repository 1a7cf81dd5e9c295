package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestConcurrentRetryRequestsRunOnce sends three retries of a failed execution at once with
// success saving off: the side effect runs once, the retry that ran answers true (read from the
// original, as the retry itself is not kept) and the others are refused.
func TestConcurrentRetryRequestsRunOnce(t *testing.T) {
	var calls atomic.Int32
	var healthy atomic.Bool
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		if !healthy.Load() {
			http.Error(w, "not yet", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(target.Close)
	e := startWithWorker(t, map[string]string{"FLOWMILL_EXECUTIONS_DATA_SAVE_ON_SUCCESS": "none"})
	wf, err := workflow.Parse([]byte(fmt.Sprintf(`{"name":"flaky","nodes":[
		{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
		{"name":"Call","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[200,0],"parameters":{"url":%q}}],
		"connections":{"Start":{"main":[[{"node":"Call","type":"main","index":0}]]}}}`, target.URL)))
	require.NoError(t, err)
	ctx := context.Background()
	ex, err := e.srv.executions.Create(ctx, execution.New{Workflow: wf, Mode: workflow.ModeTrigger})
	require.NoError(t, err)
	failed, err := e.srv.executions.Wait(ctx, ex.ID, retryWait)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusError, failed.Status)
	require.EqualValues(t, 1, calls.Load())
	healthy.Store(true)

	type answer struct {
		status int
		body   string
	}
	answers := make([]answer, 3)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			res, body := e.do(t, "POST", fmt.Sprintf("rest/executions/%d/retry", ex.ID), `{}`)
			answers[i] = answer{res.StatusCode, string(body)}
		})
	}
	wg.Wait()
	ran := 0
	for _, a := range answers {
		switch a.status {
		case http.StatusOK:
			ran++
			require.JSONEq(t, `{"data":true}`, a.body, "a retry that succeeded answers true")
		case http.StatusConflict:
			require.Contains(t, a.body, "A retry of this execution is still running.")
		case http.StatusBadRequest:
			require.Contains(t, a.body, "already retried successfully")
		default:
			t.Fatalf("unexpected answer %d %s", a.status, a.body)
		}
	}
	require.Equal(t, 1, ran, "%v", answers)
	require.EqualValues(t, 2, calls.Load(), "the side effect ran once more, not three times")
	orig, err := e.in.Store.GetExecution(ctx, ex.ID)
	require.NoError(t, err)
	require.NotNil(t, orig.RetrySuccessID)
}
