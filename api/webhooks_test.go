package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// startWithWorker runs an api and a worker in-process on the same Postgres and Redis, wired as
// in the embedded default: production webhooks run on the in-process runner.
func startWithWorker(t *testing.T, vars map[string]string) *testEnv {
	t.Helper()
	e := startServer(t, vars)
	w, err := worker.New(e.in)
	require.NoError(t, err)
	e.srv.runWebhooksHere(w.Runner())
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(w.Stop)
	return e
}

// saveWorkflow stores a workflow and returns its id.
func (e *testEnv) saveWorkflow(t *testing.T, body string) string {
	t.Helper()
	res, b := e.do(t, "POST", "rest/workflows", body, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(b))
	var w workflowResponse
	decodeData(t, b, &w)
	return w.ID
}

func (e *testEnv) setActive(t *testing.T, id string, active bool) (int, []byte) {
	t.Helper()
	res, b := e.do(t, "PATCH", "rest/workflows/"+id, fmt.Sprintf(`{"active":%v}`, active), "Content-Type", "application/json")
	return res.StatusCode, b
}

func call(t *testing.T, method, url, contentType string, body io.Reader, headers ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// hookWorkflow is Webhook → Set (adds done: true), with the webhook's parameters given.
func hookWorkflow(name, webhookID, params string) string {
	return hookThen(name, webhookID, params, "Set", "n8n-nodes-base.set", `{"values":{"boolean":[{"name":"done","value":true}]}}`)
}

// hookThen is Webhook → one node of version 1 (its name, type and parameters), with the
// webhook's parameters given.
func hookThen(name, webhookID, params, next, nextType, nextParams string) string {
	return fmt.Sprintf(`{"name":%q,"nodes":[
 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":%q,"parameters":%s},
 {"name":%q,"type":%q,"typeVersion":1,"position":[200,0],"parameters":%s}],
 "connections":{"Webhook":{"main":[[{"node":%q,"type":"main","index":0}]]}}}`, name, webhookID, params, next, nextType, nextParams, next)
}

// withCredential gives the Webhook node of a hookThen document (found by its webhookId) the
// credential of a type, by id and name.
func withCredential(wf, webhookID, credType, id, name string) string {
	return strings.Replace(wf, fmt.Sprintf(`"webhookId":%q`, webhookID),
		fmt.Sprintf(`"webhookId":%q,"credentials":{%q:{"id":%q,"name":%q}}`, webhookID, credType, id, name), 1)
}

func jsonField(t *testing.T, body, path string) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(body), &v), body)
	for _, p := range strings.Split(path, ".") {
		switch x := v.(type) {
		case []any:
			var i int
			fmt.Sscan(p, &i)
			v = x[i]
		case map[string]any:
			v = x[p]
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestActivationRulesAndErrors(t *testing.T) {
	e := startServer(t, nil)
	// No trigger node: refused, the error is kept for the warning icon.
	id := e.saveWorkflow(t, startSetWorkflow)
	code, b := e.setActive(t, id, true)
	require.Equal(t, 400, code)
	require.Contains(t, string(b), "does not contain any nodes which could start the workflow")
	res, b := e.do(t, "GET", "rest/active/error/"+id, "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), `"message":"Workflow cannot be activated`)
	require.Contains(t, string(b), `"time":`)

	a := e.saveWorkflow(t, hookWorkflow("A", "ha", `{"path":"same","httpMethod":"POST"}`))
	bID := e.saveWorkflow(t, hookWorkflow("B", "hb", `{"path":"same","httpMethod":"POST"}`))
	code, b = e.setActive(t, a, true)
	require.Equal(t, 200, code, string(b))
	var saved workflowResponse
	decodeData(t, b, &saved)
	require.True(t, saved.Active)
	code, b = e.setActive(t, bID, true)
	require.Equal(t, 409, code)
	require.Contains(t, string(b), `already used by the active workflow \"A\"`)

	res, b = e.do(t, "GET", "rest/active", "")
	require.Equal(t, 200, res.StatusCode)
	var ids []string
	decodeData(t, b, &ids)
	require.Equal(t, []string{a}, ids)
	res, b = e.do(t, "GET", "rest/active/error/"+a, "")
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"data":null}`, string(b))

	// A node issue: a required credential left empty.
	c := e.saveWorkflow(t, hookWorkflow("C", "hc", `{"path":"c","authentication":"basicAuth"}`))
	code, b = e.setActive(t, c, true)
	require.Equal(t, 400, code)
	require.Contains(t, string(b), `Credentials for \"httpBasicAuth\" are not set.`)

	// Updating an active workflow re-registers its webhooks; deactivating frees the path.
	res, b = e.do(t, "PATCH", "rest/workflows/"+a, `{"nodes":[{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"ha","parameters":{"path":"moved","httpMethod":"POST"}}],"connections":{}}`,
		"Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(b))
	code, b = e.setActive(t, bID, true)
	require.Equal(t, 200, code, string(b))
	res, b = e.do(t, "DELETE", "rest/workflows/"+bID, "")
	require.Equal(t, 200, res.StatusCode, string(b))
	hooks, err := e.in.Store.FindWebhooks(context.Background(), "POST", "same")
	require.NoError(t, err)
	require.Empty(t, hooks)
}

func TestDynamicWebhookPaths(t *testing.T) {
	e := startWithWorker(t, nil)
	id := e.saveWorkflow(t, hookWorkflow("dyn", "dyn1", `{"path":"user/:id/orders/:order","responseMode":"lastNode"}`))
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body := call(t, "GET", e.base+"webhook/dyn1/user/42/orders/7", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"id":"42","order":"7"}`, jsonField(t, body, "params"))
	res, _ = call(t, "GET", e.base+"webhook/dyn1/team/42/orders/7", "", nil)
	require.Equal(t, 404, res.StatusCode)
}

func TestTestWebhookOneCallPushAndExpiry(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_TEST_WEBHOOK_TIMEOUT": "1s"})
	stream := openPush(t, e.base, "ed-1")
	wf := strings.Replace(hookWorkflow("test hook", "t1", `{"path":"try","httpMethod":"POST","responseMode":"lastNode"}`),
		`{"name":"test hook",`, `{"id":"WF-T","name":"test hook",`, 1)
	code, body := post(t, e.base+"rest/workflows/run", `{"workflowData":`+wf+`}`, "sessionid", "ed-1")
	require.Equal(t, 200, code, body)
	require.JSONEq(t, `{"data":{"waitingForWebhook":true}}`, body)

	res, answer := call(t, "POST", e.base+"webhook-test/try", "application/json", strings.NewReader(`{"x":1}`))
	require.Equal(t, 200, res.StatusCode, answer)
	require.JSONEq(t, `{"x":1}`, jsonField(t, answer, "body"))
	m := readEvent(t, stream)
	require.Equal(t, "testWebhookReceived", m["type"])
	data := m["data"].(map[string]any)
	require.Equal(t, "WF-T", data["workflowId"])
	execID := data["executionId"].(string)
	var types []string
	for len(types) == 0 || types[len(types)-1] != "executionFinished" {
		m = readEvent(t, stream)
		require.Equal(t, execID, m["data"].(map[string]any)["executionId"])
		types = append(types, m["type"].(string))
	}
	require.Equal(t, "executionStarted", types[0])

	// One call only.
	res, _ = call(t, "POST", e.base+"webhook-test/try", "application/json", strings.NewReader(`{}`))
	require.Equal(t, 404, res.StatusCode)

	// Unused, the registration expires after the window and the editor is told.
	code, body = post(t, e.base+"rest/workflows/run", `{"workflowData":`+wf+`}`, "sessionid", "ed-1")
	require.Equal(t, 200, code, body)
	m = readEvent(t, stream)
	require.Equal(t, "testWebhookDeleted", m["type"])
	require.Equal(t, map[string]any{"workflowId": "WF-T"}, m["data"])
	res, _ = call(t, "POST", e.base+"webhook-test/try", "application/json", strings.NewReader(`{}`))
	require.Equal(t, 404, res.StatusCode)

	// DELETE /rest/test-webhook/:id stops waiting at once.
	code, body = post(t, e.base+"rest/workflows/run", `{"workflowData":`+wf+`}`, "sessionid", "ed-1")
	require.Equal(t, 200, code, body)
	res, b := e.do(t, "DELETE", "rest/test-webhook/WF-T", "")
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"data":true}`, string(b))
	require.Equal(t, "testWebhookDeleted", readEvent(t, stream)["type"])
	res, b = e.do(t, "DELETE", "rest/test-webhook/WF-T", "")
	require.JSONEq(t, `{"data":false}`, string(b))
}

func TestWaitNodeWebhookResume(t *testing.T) {
	e := startWithWorker(t, nil)
	id := e.saveWorkflow(t, `{"name":"waits for a call","nodes":[
	 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"w1","parameters":{"path":"start"}},
	 {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[200,0],"webhookId":"w2","parameters":{"resume":"webhook","httpMethod":"POST",
	   "responseMode":"lastNode","options":{"webhookSuffix":"go"}}},
	 {"name":"After","type":"n8n-nodes-base.set","typeVersion":1,"position":[400,0],"parameters":{"values":{"string":[{"name":"got","value":"={{ $json.body.answer }}"}]}}}],
	 "connections":{"Webhook":{"main":[[{"node":"Wait","type":"main","index":0}]]},"Wait":{"main":[[{"node":"After","type":"main","index":0}]]}}}`)
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body := call(t, "GET", e.base+"webhook/start", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	execID := e.waitingExecutionID(t)

	res, body = call(t, "GET", e.base+"webhook-waiting/"+execID+"/go", "", nil)
	require.Equal(t, 404, res.StatusCode, "wrong method: %s", body)
	res, body = call(t, "POST", e.base+"webhook-waiting/"+execID, "application/json", strings.NewReader(`{}`))
	require.Equal(t, 404, res.StatusCode, "wrong suffix: %s", body)
	res, body = call(t, "POST", e.base+"webhook-waiting/"+execID+"/go", "application/json", strings.NewReader(`{"answer":"yes"}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `"yes"`, jsonField(t, body, "got"))
	res, body = call(t, "POST", e.base+"webhook-waiting/"+execID+"/go", "application/json", strings.NewReader(`{}`))
	require.Equal(t, 409, res.StatusCode, body)
	require.Contains(t, body, "has finished already")
	res, _ = call(t, "POST", e.base+"webhook-waiting/999999/go", "", nil)
	require.Equal(t, 404, res.StatusCode)
}

// waitingExecutionID waits for the one waiting execution and returns its id.
func (e *testEnv) waitingExecutionID(t *testing.T) string {
	t.Helper()
	var execID string
	require.Eventually(t, func() bool {
		list, err := e.in.Store.ListExecutions(context.Background(), store.ExecutionFilter{Statuses: []workflow.Status{workflow.StatusWaiting}}, 10)
		require.NoError(t, err)
		if len(list) == 1 {
			execID = fmt.Sprint(list[0].ID)
		}
		return execID != ""
	}, 10*time.Second, 20*time.Millisecond)
	return execID
}
