package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// scaledStack starts two api processes, workers and a scheduler on a fresh database and Redis
// database, and returns the two api base URLs.
func scaledStack(t *testing.T, workers int, extra ...string) (string, string, map[string]string, []*proc) {
	t.Helper()
	env := scaledEnv(t, extra...)
	a, b, _ := twoAPIProcs(t, env)
	var ws []*proc
	for range workers {
		ws = append(ws, startProc(t, "worker", env))
	}
	startProc(t, "scheduler", env)
	waitReady(t, a)
	waitReady(t, b)
	return a, b, env, ws
}

// scaledEnv is the settings of a scaled stack's processes on a fresh Postgres schema and Redis
// database, with extra settings as key, value pairs.
func scaledEnv(t *testing.T, extra ...string) map[string]string {
	t.Helper()
	_, redisURL := queuetest.Redis(t)
	env := map[string]string{
		"FLOWMILL_DATABASE_URL":   storetest.PostgresSchemaURL(t),
		"FLOWMILL_REDIS_URL":      redisURL,
		"FLOWMILL_ENCRYPTION_KEY": "scaled-test-key-0123456789",
		"FLOWMILL_DATA_DIR":       t.TempDir(),
	}
	return withSettings(env, extra)
}

// twoAPIProcs starts api processes A and B with env, each on a free port, and returns their base
// URLs and A's process; the caller waits for them to be ready.
func twoAPIProcs(t *testing.T, env map[string]string) (a, b string, apiA *proc) {
	t.Helper()
	withPort := func(port int) map[string]string {
		m := maps.Clone(env)
		m["FLOWMILL_PORT"] = fmt.Sprint(port)
		return m
	}
	portA, portB := freePort(t), freePort(t)
	apiA = startProc(t, "api", withPort(portA))
	startProc(t, "api", withPort(portB))
	return fmt.Sprintf("http://127.0.0.1:%d/", portA), fmt.Sprintf("http://127.0.0.1:%d/", portB), apiA
}

func runWorkflow(t *testing.T, base, session, wf string) string {
	t.Helper()
	code, body := post(t, base+"rest/workflows/run", `{"workflowData":`+wf+`}`, "sessionid", session)
	require.Equal(t, 200, code, body)
	var out runResponse
	decodeData(t, []byte(body), &out)
	require.NotEmpty(t, out.ExecutionID)
	return out.ExecutionID
}

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode == 200 {
		decodeData(t, b, v)
	}
	return res.StatusCode
}

const busyWorkflow = `{"name":"busy","nodes":[
 {"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
 {"name":"Loop","type":"n8n-nodes-base.code","typeVersion":1,"position":[200,0],"parameters":{"jsCode":"while (true) {}"}}],
 "connections":{"Start":{"main":[[{"node":"Loop","type":"main","index":0}]]}}}`

const waitWorkflow = `{"name":"waits","nodes":[
 {"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
 {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[200,0],"parameters":{"amount":1,"unit":"hours"}}],
 "connections":{"Start":{"main":[[{"node":"Wait","type":"main","index":0}]]}}}`

// TestScaledRunProgressAndStopAcrossAPIs: a run started through api A reports every step, in
// order, to the editor's stream on api B; executions started through A are stopped through B.
func TestScaledRunProgressAndStopAcrossAPIs(t *testing.T) {
	a, b, _, _ := scaledStack(t, 1, "FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true")
	stream := openPush(t, b, "editor-b")
	id := runWorkflow(t, a, "editor-b", startSetWorkflow)
	var got []string
	for len(got) == 0 || got[len(got)-1] != "executionFinished" {
		m := readEvent(t, stream)
		data := m["data"].(map[string]any)
		require.Equal(t, id, data["executionId"])
		entry := m["type"].(string)
		if n, ok := data["nodeName"].(string); ok {
			entry += ":" + n
		}
		got = append(got, entry)
	}
	require.Equal(t, []string{"executionStarted", "nodeExecuteBefore:Start", "nodeExecuteAfter:Start",
		"nodeExecuteBefore:Set", "nodeExecuteAfter:Set", "executionFinished"}, got)

	for _, wf := range []string{busyWorkflow, waitWorkflow} {
		id := runWorkflow(t, a, "", wf)
		require.Eventually(t, func() bool {
			var e executionSummary
			return getJSON(t, b+"rest/executions/"+id, &e) == 200 && (e.Status == "running" || e.Status == "waiting")
		}, 15*time.Second, 20*time.Millisecond)
		began := time.Now()
		code, body := post(t, b+"rest/executions-current/"+id+"/stop", "")
		require.Equal(t, 200, code, body)
		require.Less(t, time.Since(began), 2*time.Second)
		var stopped map[string]any
		decodeData(t, []byte(body), &stopped)
		require.Equal(t, "canceled", stopped["status"], body)
	}

	// The worker's slot is free again.
	stream2 := openPush(t, b, "editor-b2")
	runWorkflow(t, a, "editor-b2", startSetWorkflow)
	for {
		m := readEvent(t, stream2)
		if m["type"] == "executionFinished" {
			var run map[string]any
			raw, _ := json.Marshal(m["data"].(map[string]any)["data"])
			require.NoError(t, json.Unmarshal(raw, &run))
			require.Equal(t, true, run["finished"])
			break
		}
	}
}
