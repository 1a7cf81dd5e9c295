package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func patchJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	res, b := call(t, "PATCH", url, "application/json", strings.NewReader(body))
	return res.StatusCode, b
}

// createVia saves a workflow through an api base URL and returns its id.
func createVia(t *testing.T, base, wf string) string {
	t.Helper()
	code, body := post(t, base+"rest/workflows", wf)
	require.Equal(t, 200, code, body)
	var w workflowResponse
	decodeData(t, []byte(body), &w)
	return w.ID
}

// credentialVia creates the credential cred (a POST /rest/credentials body) through the api at
// base and returns its id.
func credentialVia(t *testing.T, base, cred string) string {
	t.Helper()
	code, body := post(t, base+"rest/credentials", cred)
	require.Equal(t, 200, code, body)
	var c struct {
		ID string `json:"id"`
	}
	decodeData(t, []byte(body), &c)
	return c.ID
}

// TestTwoSchedulersFireEachTickOnce runs two scheduler processes against one database: a
// Schedule Trigger firing every second produces one execution per second, and none once the
// workflow is deactivated.
func TestTwoSchedulersFireEachTickOnce(t *testing.T) {
	a, _, env, _ := scaledStack(t, 1)
	startProc(t, "scheduler", env)
	id := createVia(t, a, `{"name":"every second","nodes":[
	 {"name":"Schedule Trigger","type":"n8n-nodes-base.scheduleTrigger","typeVersion":1,"position":[0,0],
	  "parameters":{"rule":{"interval":[{"field":"seconds","secondsInterval":1}]}}}],"connections":{},"settings":{"timezone":"UTC"}}`)
	code, body := patchJSON(t, a+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)

	list := func() []executionSummary {
		var out struct {
			Results []executionSummary `json:"results"`
		}
		require.Equal(t, 200, getJSON(t, a+"rest/executions?limit=250", &out))
		return out.Results
	}
	require.Eventually(t, func() bool { return len(list()) >= 5 }, 15*time.Second, 100*time.Millisecond)
	code, body = patchJSON(t, a+"rest/workflows/"+id, `{"active":false}`)
	require.Equal(t, 200, code, body)
	deactivated := len(list())

	// Absence can only be seen by letting time pass: two more ticks' worth.
	<-time.After(2500 * time.Millisecond)
	runs := list()
	require.LessOrEqual(t, len(runs), deactivated+1, "at most a tick already queued when the change landed")

	seen := map[string]bool{}
	var seconds []time.Time
	for _, r := range runs {
		require.Equal(t, "trigger", r.Mode)
		var d struct {
			Data struct {
				ResultData struct {
					RunData runDataJSON `json:"runData"`
				} `json:"resultData"`
			} `json:"data"`
		}
		require.Equal(t, 200, getJSON(t, a+"rest/executions/"+r.ID, &d))
		ts := d.Data.ResultData.RunData["Schedule Trigger"][0].Data.Main[0][0].JSON["timestamp"].(string)
		require.False(t, seen[ts], "tick %s fired twice", ts)
		seen[ts] = true
		at, err := time.Parse("2006-01-02T15:04:05.000-07:00", ts)
		require.NoError(t, err)
		seconds = append(seconds, at)
	}
	for i := 1; i < len(seconds); i++ {
		require.Equal(t, time.Second, seconds[i-1].Sub(seconds[i]).Abs(), "one execution per second: %v", seconds)
	}
}

// TestScaledWebhooksAnswerAcrossProcesses: webhooks of a workflow activated through api A answer
// through api B with the worker's answer; they keep answering after the api restarts; a worker
// killed mid-request gives the caller a 5xx.
func TestScaledWebhooksAnswerAcrossProcesses(t *testing.T) {
	a, b, env, workers := scaledStack(t, 1, "FLOWMILL_EXECUTION_LEASE_TTL", "3s", "FLOWMILL_HEARTBEAT_INTERVAL", "1s")
	respond := createVia(t, a, `{"name":"respond","nodes":[
	 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"s1","parameters":{"path":"scaled","httpMethod":"POST","responseMode":"responseNode"}},
	 {"name":"Respond","type":"n8n-nodes-base.respondToWebhook","typeVersion":1,"position":[200,0],"parameters":{"respondWith":"firstIncomingItem"}}],
	 "connections":{"Webhook":{"main":[[{"node":"Respond","type":"main","index":0}]]}}}`)
	code, body := patchJSON(t, a+"rest/workflows/"+respond, `{"active":true}`)
	require.Equal(t, 200, code, body)
	for _, base := range []string{a, b} {
		res, answer := call(t, "POST", base+"webhook/scaled?from=x", "application/json", strings.NewReader(`{"n":1}`))
		require.Equal(t, 200, res.StatusCode, answer)
		var item map[string]any
		require.NoError(t, json.Unmarshal([]byte(answer), &item), answer)
		require.Equal(t, map[string]any{"n": 1.0}, item["body"])
	}

	// Restarting an api: activation is stored, the webhook answers at once.
	port := freePort(t)
	restarted := fmt.Sprintf("http://127.0.0.1:%d/", port)
	envC := map[string]string{"FLOWMILL_PORT": fmt.Sprint(port)}
	for k, v := range env {
		envC[k] = v
	}
	startProc(t, "api", envC)
	waitReady(t, restarted)
	res, answer := call(t, "POST", restarted+"webhook/scaled", "application/json", strings.NewReader(`{"n":2}`))
	require.Equal(t, 200, res.StatusCode, answer)

	// A worker that dies mid-run: once its lease and heartbeat have run out the caller gets 503
	// with Retry-After (the execution is taken over; its outcome is not known yet), not a hang.
	busy := createVia(t, a, `{"name":"busy hook","nodes":[
	 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"s2","parameters":{"path":"busy","responseMode":"lastNode"}},
	 {"name":"Loop","type":"n8n-nodes-base.code","typeVersion":1,"position":[200,0],"parameters":{"jsCode":"while (true) {}"}}],
	 "connections":{"Webhook":{"main":[[{"node":"Loop","type":"main","index":0}]]}}}`)
	code, body = patchJSON(t, a+"rest/workflows/"+busy, `{"active":true}`)
	require.Equal(t, 200, code, body)
	done := make(chan *http.Response, 1)
	go func() {
		res, err := http.Get(b + "webhook/busy")
		if err == nil {
			res.Body.Close()
		}
		done <- res
	}()
	require.Eventually(t, func() bool {
		var cur []executionSummary
		return getJSON(t, a+"rest/executions-current", &cur) == 200 && len(cur) == 1 && cur[0].Status == "running"
	}, 15*time.Second, 20*time.Millisecond)
	require.NoError(t, workers[0].cmd.Process.Signal(syscall.SIGKILL))
	select {
	case res := <-done:
		require.NotNil(t, res)
		require.Equal(t, 503, res.StatusCode)
		require.Equal(t, "5", res.Header.Get("Retry-After"))
	case <-time.After(15 * time.Second):
		t.Fatal("the caller was left hanging")
	}
}

// TestEmbeddedWebhooksAndSchedules: the embedded default (one api process with SQLite and its
// own Redis) serves production webhooks in every response mode and fires schedules.
func TestEmbeddedWebhooksAndSchedules(t *testing.T) {
	_, base := startEmbedded(t)
	for _, mode := range []string{"onReceived", "lastNode", "responseNode"} {
		id := createVia(t, base, fmt.Sprintf(`{"name":"embedded %s","nodes":[
		 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"e-%s","parameters":{"path":%q,"httpMethod":"POST","responseMode":%q}},
		 {"name":"Respond","type":"n8n-nodes-base.respondToWebhook","typeVersion":1,"position":[200,0],"parameters":{"respondWith":"text","responseBody":"={{ 'hi ' + $json.body.who }}"}}],
		 "connections":{"Webhook":{"main":[[{"node":"Respond","type":"main","index":0}]]}}}`, mode, mode, mode, mode))
		code, body := patchJSON(t, base+"rest/workflows/"+id, `{"active":true}`)
		require.Equal(t, 200, code, body)
		res, answer := call(t, "POST", base+"webhook/"+mode, "application/json", strings.NewReader(`{"who":"ann"}`))
		require.Equal(t, 200, res.StatusCode, answer)
		want := map[string]string{"onReceived": `{"message":"Workflow was started"}`, "lastNode": `"body":{"who":"ann"},"webhookUrl":`, "responseNode": "hi ann"}[mode]
		require.Contains(t, answer, want, mode)
	}
	id := createVia(t, base, `{"name":"embedded schedule","nodes":[
	 {"name":"Interval","type":"n8n-nodes-base.interval","typeVersion":1,"position":[0,0],"parameters":{"interval":1}}],"connections":{}}`)
	code, body := patchJSON(t, base+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)
	require.Eventually(t, func() bool {
		var out struct {
			Results []executionSummary `json:"results"`
		}
		getJSON(t, base+`rest/executions?filter={"workflowId":"`+id+`"}`, &out)
		return len(out.Results) >= 2
	}, 15*time.Second, 100*time.Millisecond)
}
