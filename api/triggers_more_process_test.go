package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

// TestCronCustomExpressionFiresEverySecond activates a Cron node with a custom six-field
// expression firing every second on the scaled stack (scheduler, worker and api processes): each
// tick the scheduler queues is a distinct second, and each tick handled while the workflow was
// active started exactly one execution.
func TestCronCustomExpressionFiresEverySecond(t *testing.T) {
	a, _, env, _ := scaledStack(t, 1)
	id := createVia(t, a, `{"name":"cron every second","nodes":[
	 {"name":"Cron","type":"n8n-nodes-base.cron","typeVersion":1,"position":[0,0],
	  "parameters":{"triggerTimes":{"item":[{"mode":"custom","cronExpression":"*/1 * * * * *"}]}}}],"connections":{},"settings":{"timezone":"UTC"}}`)
	code, body := patchJSON(t, a+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)

	runs := func() []executionSummary {
		var out struct {
			Results []executionSummary `json:"results"`
		}
		filter := url.QueryEscape(fmt.Sprintf(`{"workflowId":%q}`, id))
		require.Equal(t, 200, getJSON(t, a+"rest/executions?limit=250&filter="+filter, &out))
		return out.Results
	}
	require.Eventually(t, func() bool { return len(runs()) >= 5 }, 15*time.Second, 100*time.Millisecond)
	deactivating := time.Now()
	code, body = patchJSON(t, a+"rest/workflows/"+id, `{"active":false}`)
	require.Equal(t, 200, code, body)

	// Wait until every tick queued has been handled and every run has finished.
	ins := asynq.NewInspectorFromRedisClient(queuetest.RedisAt(t, env["FLOWMILL_REDIS_URL"]))
	require.Eventually(t, func() bool {
		q, err := ins.GetQueueInfo(queue.QueueDefault)
		if err != nil || q.Pending+q.Active > 0 {
			return false
		}
		for _, r := range runs() {
			if !r.Finished {
				return false
			}
		}
		return true
	}, 15*time.Second, 100*time.Millisecond)

	tasks, err := ins.ListCompletedTasks(queue.QueueDefault, asynq.PageSize(1000))
	require.NoError(t, err)
	var fires []time.Time
	handledWhileActive := 0
	for _, task := range tasks {
		if task.Type != queue.KindTriggerFire {
			continue
		}
		var p queue.TriggerFire
		require.NoError(t, queue.Decode(task.Type, task.Payload, &p))
		require.Equal(t, id, p.WorkflowID)
		require.Equal(t, "Cron", p.Node)
		fires = append(fires, time.Unix(p.FireTime, 0))
		if task.CompletedAt.Before(deactivating) {
			handledWhileActive++
		}
	}
	slices.SortFunc(fires, time.Time.Compare)
	ones := 0
	for i := 1; i < len(fires); i++ {
		gap := fires[i].Sub(fires[i-1])
		require.GreaterOrEqual(t, gap, time.Second, "each second fires once: %v", fires)
		if gap == time.Second {
			ones++
		}
	}
	// A scheduler waking more than a second late skips a tick rather than firing two at once,
	// so a loaded machine may leave a gap; most ticks still follow each other.
	require.Greater(t, ones, (len(fires)-1)/2, "ticks one second apart: %v", fires)

	all := runs()
	for _, r := range all {
		require.Equal(t, "trigger", r.Mode)
		require.Equal(t, "success", r.Status)
	}
	// Ticks handled before the change landed each made one execution; a tick handled after it
	// makes one only if its worker read the workflow while it was still active.
	require.GreaterOrEqual(t, len(all), handledWhileActive)
	require.LessOrEqual(t, len(all), len(fires))
}

// twoAPIs starts api processes A and B and a worker on a fresh Postgres schema and Redis
// database, with extra settings; A's process is returned so the test can kill it.
func twoAPIs(t *testing.T, extra ...string) (apiA *proc, a, b string) {
	t.Helper()
	env := scaledEnv(t, extra...)
	a, b, apiA = twoAPIProcs(t, env)
	startProc(t, "worker", env)
	waitReady(t, a)
	waitReady(t, b)
	return apiA, a, b
}

// TestTestWebhookExpiryAnnouncedWhenItsReplicaDied: an editor connected to api B runs a webhook
// workflow through api A, whose test webhook then waits for its call; A is killed, taking its
// expiry timer along. Api B still tells the editor when the window is over (testWebhookDeleted),
// and the test webhook no longer answers.
func TestTestWebhookExpiryAnnouncedWhenItsReplicaDied(t *testing.T) {
	const window = 2 * time.Second
	apiA, a, b := twoAPIs(t, "FLOWMILL_TEST_WEBHOOK_TIMEOUT", window.String())
	stream := openPush(t, b, "editor-on-b")
	wf := hookWorkflow("listens", "dead-replica", `{"path":"orphan","httpMethod":"POST"}`)
	id := createVia(t, a, wf)
	wf = strings.Replace(wf, `{"name":"listens",`, fmt.Sprintf(`{"id":%q,"name":"listens",`, id), 1)

	registering := time.Now()
	code, body := post(t, a+"rest/workflows/run", `{"workflowData":`+wf+`}`, "sessionid", "editor-on-b")
	require.Equal(t, 200, code, body)
	require.JSONEq(t, `{"data":{"waitingForWebhook":true}}`, body)
	require.NoError(t, apiA.cmd.Process.Signal(syscall.SIGKILL))
	<-apiA.done

	got := make(chan map[string]any, 1)
	go func() { got <- readEventOrNil(stream) }()
	select {
	case m := <-got:
		require.NotNil(t, m, "the push stream ended")
		require.Equal(t, "testWebhookDeleted", m["type"])
		require.Equal(t, map[string]any{"workflowId": id}, m["data"])
		require.GreaterOrEqual(t, time.Since(registering), window, "not before the window is over")
	case <-time.After(window + 10*time.Second):
		t.Fatal("the editor was not told that the test webhook stopped listening")
	}
	res, answer := call(t, "POST", b+"webhook-test/orphan", "application/json", strings.NewReader(`{}`))
	require.Equal(t, 404, res.StatusCode, answer)
}

// readEventOrNil is readEvent for a goroutine: nil when the stream ends or cannot be read.
func readEventOrNil(r *bufio.Reader) map[string]any {
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil
		}
		if p, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if json.Unmarshal([]byte(p), &m) != nil {
				return nil
			}
			return m
		}
	}
}
