package main

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// scrape answers the status and body of GET url.
func scrape(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestWorkerAndSchedulerServeHealthAndMetrics starts an api, a worker and a scheduler as
// separate processes, the worker and scheduler with FLOWMILL_HEALTH_PORT: both answer health and
// readiness, and their /metrics carry the execution, queue, scheduler and error metrics, the
// worker's counting the run it did.
func TestWorkerAndSchedulerServeHealthAndMetrics(t *testing.T) {
	env := scaledEnv(t, "FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true")
	apiPort, workerPort, schedulerPort := freePort(t), freePort(t), freePort(t)
	start := func(bin, setting string, port int) string {
		m := maps.Clone(env)
		m[setting] = fmt.Sprint(port)
		startProc(t, bin, m)
		return fmt.Sprintf("http://127.0.0.1:%d/", port)
	}
	api := start("api", "FLOWMILL_PORT", apiPort)
	worker := start("worker", "FLOWMILL_HEALTH_PORT", workerPort)
	scheduler := start("scheduler", "FLOWMILL_HEALTH_PORT", schedulerPort)
	waitReady(t, api)

	for _, base := range []string{worker, scheduler} {
		require.Eventually(t, func() bool {
			code, _ := scrape(t, base+"healthz/readiness")
			return code == 200
		}, 30*time.Second, 50*time.Millisecond, "%s never became ready", base)
		code, body := scrape(t, base+"healthz")
		require.Equal(t, 200, code)
		require.JSONEq(t, `{"status":"ok"}`, body)
		_, body = scrape(t, base+"healthz/readiness")
		require.Contains(t, body, `"database":"ok"`)
		require.Contains(t, body, `"redis":"ok"`)
	}

	id := runWorkflow(t, api, "", startSetWorkflow)
	require.Eventually(t, func() bool {
		var e executionSummary
		return getJSON(t, api+"rest/executions/"+id, &e) == 200 && e.Status == "success"
	}, 30*time.Second, 20*time.Millisecond)

	// The counters of the run reach the worker's registry at different moments (the execution's
	// when it finishes, the queue's when its task returns): wait until every one is there.
	wantWorker := []string{
		`flowmill_executions_total{mode="manual",status="success"} 1`,
		`flowmill_executions_started_total{mode="manual"} 1`,
		`flowmill_execution_duration_seconds_count{status="success",workflow="other"} 1`,
		`flowmill_queue_tasks_total{kind="execution:run",result="ok"} 1`,
		`flowmill_queue_pending{queue="critical"} 0`,
		`flowmill_queue_latency_seconds{queue="critical"} 0`,
		`flowmill_redis_errors_total 0`,
		`flowmill_database_errors_total 0`,
	}
	var metrics string
	require.Eventually(t, func() bool {
		_, metrics = scrape(t, worker+"metrics")
		return missingLine(metrics, wantWorker) == ""
	}, 10*time.Second, 20*time.Millisecond, "worker metrics never held every expected line")
	require.Empty(t, missingLine(metrics, wantWorker))

	wantScheduler := []string{
		`flowmill_scheduler_ticks_total{result="fired"} 0`,
		`flowmill_scheduler_ticks_total{result="skipped"} 0`,
		`flowmill_queue_pending{queue="default"} 0`,
		`flowmill_database_errors_total 0`,
	}
	_, metrics = scrape(t, scheduler+"metrics")
	require.Empty(t, missingLine(metrics, wantScheduler), "scheduler metrics")
	require.True(t, strings.Contains(metrics, "go_goroutines "), "Go runtime metrics")
}

// missingLine answers the first of lines that is not a whole line of metrics, "" when all are.
func missingLine(metrics string, lines []string) string {
	for _, line := range lines {
		if !strings.Contains(metrics, line+"\n") {
			return line
		}
	}
	return ""
}
