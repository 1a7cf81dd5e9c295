package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
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
	return fmt.Sprintf(`{"name":%q,"nodes":[
 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":%q,"parameters":%s},
 {"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"boolean":[{"name":"done","value":true}]}}}],
 "connections":{"Webhook":{"main":[[{"node":"Set","type":"main","index":0}]]}}}`, name, webhookID, params)
}

func executionCount(t *testing.T, e *testEnv) int64 {
	t.Helper()
	n, _, err := e.in.Store.CountExecutions(context.Background(), store.ExecutionFilter{})
	require.NoError(t, err)
	return n
}

func TestWebhookMethodsBodiesAndResponseModes(t *testing.T) {
	e := startWithWorker(t, nil)
	for _, m := range []string{"DELETE", "GET", "HEAD", "PATCH", "POST", "PUT"} {
		id := e.saveWorkflow(t, hookWorkflow("echo "+m, "id-"+m, fmt.Sprintf(
			`{"path":"echo","httpMethod":%q,"responseMode":"lastNode","options":{"rawBody":true}}`, m)))
		code, b := e.setActive(t, id, true)
		require.Equal(t, 200, code, string(b))
	}
	for _, m := range []string{"DELETE", "GET", "PATCH", "POST", "PUT"} {
		res, body := call(t, m, e.base+"webhook/echo?q=1", "application/json", strings.NewReader(`{"m":"`+m+`"}`), "X-Test", "yes")
		require.Equal(t, 200, res.StatusCode, body)
		var out map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &out), body)
		require.Equal(t, true, out["done"])
		require.Equal(t, map[string]any{"m": m}, out["body"], m)
		require.Equal(t, map[string]any{"q": "1"}, out["query"])
		require.Equal(t, "yes", out["headers"].(map[string]any)["x-test"])
		require.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	}
	res, _ := call(t, "HEAD", e.base+"webhook/echo", "", nil)
	require.Equal(t, 200, res.StatusCode)

	// CORS preflight lists every method registered on the path.
	res, _ = call(t, "OPTIONS", e.base+"webhook/echo", "", nil, "Access-Control-Request-Headers", "x-test")
	require.Equal(t, 204, res.StatusCode)
	for _, m := range []string{"GET", "POST", "PUT", "OPTIONS"} {
		require.Contains(t, res.Header.Get("Access-Control-Allow-Methods"), m)
	}
	require.Equal(t, "x-test", res.Header.Get("Access-Control-Allow-Headers"))

	// Bodies: form, multipart with a file, text kept as rawBody.
	id := e.saveWorkflow(t, hookWorkflow("bodies", "b1", `{"path":"bodies","httpMethod":"POST","responseMode":"lastNode","responseData":"allEntries","options":{"rawBody":true}}`))
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body := call(t, "POST", e.base+"webhook/bodies", "application/x-www-form-urlencoded", strings.NewReader("a=1&b=2&b=3"))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"a":"1","b":["2","3"]}`, jsonField(t, body, "0.body"))
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	require.NoError(t, mw.WriteField("f", "v"))
	fw, _ := mw.CreateFormFile("upload", "hello.txt")
	_, _ = fw.Write([]byte("hello"))
	require.NoError(t, mw.Close())
	res, body = call(t, "POST", e.base+"webhook/bodies", mw.FormDataContentType(), &mp)
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"f":["v"]}`, jsonField(t, body, "0.body"))
	res, body = call(t, "POST", e.base+"webhook/bodies", "text/plain", strings.NewReader("plain words"))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{}`, jsonField(t, body, "0.body"))
	res, body = call(t, "POST", e.base+"webhook/bodies", "application/xml", strings.NewReader(`<order id="7"><item>a</item></order>`))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"order":{"$":{"id":"7"},"item":"a"}}`, jsonField(t, body, "0.body"))

	// onReceived: custom code, body, headers; no body.
	id = e.saveWorkflow(t, hookWorkflow("received", "r1", `{"path":"received","responseCode":202,
	  "options":{"responseData":"thanks","responseHeaders":{"entries":[{"name":"x-reply","value":"1"}]}}}`))
	code, b = e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body = call(t, "GET", e.base+"webhook/received", "", nil)
	require.Equal(t, 202, res.StatusCode)
	require.Equal(t, "thanks", body)
	require.Equal(t, "1", res.Header.Get("x-reply"))
	id = e.saveWorkflow(t, hookWorkflow("received2", "r2", `{"path":"received2"}`))
	code, _ = e.setActive(t, id, true)
	require.Equal(t, 200, code)
	res, body = call(t, "GET", e.base+"webhook/received2", "", nil)
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"message":"Workflow was started"}`, body)
	id = e.saveWorkflow(t, hookWorkflow("received3", "r3", `{"path":"received3","options":{"noResponseBody":true}}`))
	code, _ = e.setActive(t, id, true)
	require.Equal(t, 200, code)
	res, body = call(t, "GET", e.base+"webhook/received3", "", nil)
	require.Equal(t, 200, res.StatusCode)
	require.Empty(t, body)

	// lastNode: a property with a content type, and no data.
	id = e.saveWorkflow(t, hookWorkflow("prop", "p1", `{"path":"prop","responseMode":"lastNode","responseCode":201,
	  "options":{"responsePropertyName":"query.x","responseContentType":"text/plain"}}`))
	code, _ = e.setActive(t, id, true)
	require.Equal(t, 200, code)
	res, body = call(t, "GET", e.base+"webhook/prop?x=hello", "", nil)
	require.Equal(t, 201, res.StatusCode)
	require.Equal(t, "hello", body)
	require.Equal(t, "text/plain", res.Header.Get("Content-Type"))

	// responseNode: Respond to Webhook answers before the rest of the run.
	id = e.saveWorkflow(t, `{"name":"respond","nodes":[
	 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"rn","parameters":{"path":"respond","responseMode":"responseNode"}},
	 {"name":"Respond","type":"n8n-nodes-base.respondToWebhook","typeVersion":1,"position":[200,0],"parameters":{"respondWith":"json",
	   "responseBody":"={{ JSON.stringify({got: $json.query.v}) }}","options":{"responseCode":418,"responseHeaders":{"entries":[{"name":"x-r","value":"y"}]}}}}],
	 "connections":{"Webhook":{"main":[[{"node":"Respond","type":"main","index":0}]]}}}`)
	code, b = e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body = call(t, "GET", e.base+"webhook/respond?v=7", "", nil)
	require.Equal(t, 418, res.StatusCode, body)
	require.JSONEq(t, `{"got":"7"}`, body)
	require.Equal(t, "y", res.Header.Get("x-r"))
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

func TestWebhookAuthBotsAndBadInput(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_MAX_BODY_SIZE": "1"})
	owner, err := e.in.Store.Owner(context.Background())
	require.NoError(t, err)
	credIDs := map[string]string{}
	for _, c := range []struct {
		name, typ string
		data      map[string]any
	}{
		{"c-basic", "httpBasicAuth", map[string]any{"user": "ann", "password": "pw"}},
		{"c-header", "httpHeaderAuth", map[string]any{"name": "X-Key", "value": "k1"}},
	} {
		sealed, err := e.srv.credentials.Encrypt(c.data)
		require.NoError(t, err)
		cred := &store.Credential{Name: c.name, Type: c.typ, Data: sealed}
		require.NoError(t, e.in.Store.CreateCredential(context.Background(), cred, owner.ID))
		credIDs[c.name] = cred.ID
	}
	basic := strings.Replace(hookWorkflow("basic", "hb", `{"path":"basic","authentication":"basicAuth","responseMode":"lastNode"}`),
		`"webhookId":"hb"`, `"webhookId":"hb","credentials":{"httpBasicAuth":{"id":"`+credIDs["c-basic"]+`","name":"c-basic"}}`, 1)
	header := strings.Replace(hookWorkflow("header", "hh", `{"path":"header","authentication":"headerAuth","responseMode":"lastNode","options":{"ignoreBots":true}}`),
		`"webhookId":"hh"`, `"webhookId":"hh","credentials":{"httpHeaderAuth":{"id":"`+credIDs["c-header"]+`","name":"c-header"}}`, 1)
	ids := []string{e.saveWorkflow(t, basic), e.saveWorkflow(t, header)}
	for _, id := range ids {
		code, b := e.setActive(t, id, true)
		require.Equal(t, 200, code, string(b))
	}

	res, body := call(t, "GET", e.base+"webhook/basic", "", nil)
	require.Equal(t, 401, res.StatusCode)
	require.Equal(t, `Basic realm="Webhook"`, res.Header.Get("WWW-Authenticate"))
	req, _ := http.NewRequest("GET", e.base+"webhook/basic", nil)
	req.SetBasicAuth("ann", "wrong")
	wrong, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	wrong.Body.Close()
	require.Equal(t, 403, wrong.StatusCode)
	req.SetBasicAuth("ann", "pw")
	ok, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	ok.Body.Close()
	require.Equal(t, 200, ok.StatusCode)

	browser := "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"
	res, _ = call(t, "GET", e.base+"webhook/header", "", nil, "User-Agent", browser)
	require.Equal(t, 403, res.StatusCode)
	res, body = call(t, "GET", e.base+"webhook/header", "", nil, "X-Key", "k1", "User-Agent", browser)
	require.Equal(t, 200, res.StatusCode, body)
	res, _ = call(t, "GET", e.base+"webhook/header", "", nil, "X-Key", "k1", "User-Agent", "Twitterbot/1.0")
	require.Equal(t, 403, res.StatusCode, "ignoreBots")

	before := executionCount(t, e)
	id := e.saveWorkflow(t, hookWorkflow("json", "hj", `{"path":"json","httpMethod":"POST"}`))
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body = call(t, "POST", e.base+"webhook/json", "application/json", strings.NewReader(`{"broken":`))
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, body, "body is not valid JSON")
	code413, _ := e.postOversized(t, "webhook/json", 2<<20)
	require.Equal(t, 413, code413)
	res, body = call(t, "POST", e.base+"webhook/nowhere", "", nil)
	require.Equal(t, 404, res.StatusCode)
	require.Contains(t, body, `The requested webhook \"POST nowhere\" is not registered.`)
	require.Contains(t, body, "The workflow must be active")
	res, body = call(t, "GET", e.base+"webhook-test/nowhere", "", nil)
	require.Equal(t, 404, res.StatusCode)
	require.Contains(t, body, "Click the 'Execute workflow' button")
	require.Equal(t, before, executionCount(t, e), "no rejected call ran the workflow")
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
	var execID string
	require.Eventually(t, func() bool {
		list, err := e.in.Store.ListExecutions(context.Background(), store.ExecutionFilter{Statuses: []string{store.StatusWaiting}}, 10)
		require.NoError(t, err)
		if len(list) == 1 {
			execID = fmt.Sprint(list[0].ID)
		}
		return execID != ""
	}, 10*time.Second, 20*time.Millisecond)

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
