package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Webhook 2 and Respond to Webhook 1.1 as n8n 1.x exports them, called over HTTP on loopback.

// browserAgent is a user agent the bot check lets through (Go's own counts as a bot).
const browserAgent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"

// v2Hook is a Webhook 2 node's JSON (name Webhook) with its parameters.
func v2Hook(webhookID, params string) string {
	return fmt.Sprintf(`{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"webhookId":%q,"parameters":%s}`, webhookID, params)
}

// hookToRespond is Webhook 2 (responseNode) → Respond to Webhook 1.1 with its parameters.
func hookToRespond(name, webhookID, path, method, respondParams string) string {
	return fmt.Sprintf(`{"name":%q,"nodes":[%s,
 {"name":"Respond","type":"n8n-nodes-base.respondToWebhook","typeVersion":1.1,"position":[200,0],"parameters":%s}],
 "connections":{"Webhook":{"main":[[{"node":"Respond","type":"main","index":0}]]}}}`,
		name, v2Hook(webhookID, fmt.Sprintf(`{"path":%q,"httpMethod":%q,"responseMode":"responseNode","options":{}}`, path, method)), respondParams)
}

// activate saves a workflow through the REST API and activates it.
func activate(t *testing.T, e *testEnv, wf string) string {
	t.Helper()
	id := e.saveWorkflow(t, wf)
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	return id
}

func TestWebhookV2MultipleMethodsLeaveByTheirOutput(t *testing.T) {
	e := startWithWorker(t, nil)
	activate(t, e, `{"name":"multi","nodes":[`+v2Hook("m1", `{"multipleMethods":true,"httpMethod":["GET","POST"],"path":"multi","responseMode":"lastNode","options":{}}`)+`,
 {"name":"On GET","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"string":[{"name":"branch","value":"get"}]}}},
 {"name":"On POST","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,200],"parameters":{"values":{"string":[{"name":"branch","value":"post"}]}}}],
 "connections":{"Webhook":{"main":[[{"node":"On GET","type":"main","index":0}],[{"node":"On POST","type":"main","index":0}]]}}}`)

	res, body := call(t, "GET", e.base+"webhook/multi?q=1", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, `"get"`, jsonField(t, body, "branch"))
	require.Equal(t, `{"q":"1"}`, jsonField(t, body, "query"))
	res, body = call(t, "POST", e.base+"webhook/multi", "application/json", strings.NewReader(`{"n":1}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, `"post"`, jsonField(t, body, "branch"))
	require.JSONEq(t, `{"n":1}`, jsonField(t, body, "body"))
	// The item has n8n 1.x's keys, in its order.
	v, err := workflow.DecodeJSONValue([]byte(body))
	require.NoError(t, err)
	require.Equal(t, []string{"headers", "params", "query", "body", "webhookUrl", "executionMode", "branch"}, v.(*workflow.Object).Keys())
	require.Equal(t, `"production"`, jsonField(t, body, "executionMode"))
	require.True(t, strings.HasSuffix(strings.Trim(jsonField(t, body, "webhookUrl"), `"`), "/webhook/multi"), body)

	// Unlisted methods are not served; the preflight lists the registered ones.
	res, _ = call(t, "PUT", e.base+"webhook/multi", "", nil)
	require.Equal(t, 404, res.StatusCode)
	res, _ = call(t, "OPTIONS", e.base+"webhook/multi", "", nil, "Access-Control-Request-Method", "POST")
	require.Equal(t, 204, res.StatusCode)
	require.ElementsMatch(t, []string{"OPTIONS", "GET", "POST"}, strings.Split(res.Header.Get("Access-Control-Allow-Methods"), ", "))

	// Each method is registered: another workflow cannot take one of them.
	other := e.saveWorkflow(t, `{"name":"other","nodes":[`+v2Hook("m2", `{"path":"multi","httpMethod":"POST"}`)+`],"connections":{}}`)
	code, b := e.setActive(t, other, true)
	require.Equal(t, 409, code, string(b))
	// A method it does not use is free.
	activate(t, e, `{"name":"other put","nodes":[`+v2Hook("m3", `{"path":"multi","httpMethod":"PUT"}`)+`],"connections":{}}`)
}

func TestWebhookV2PathParamsCodesAndBinary(t *testing.T) {
	e := startWithWorker(t, nil)
	activate(t, e, hookThenV2("params", "p2", `{"path":"item/:id","responseMode":"lastNode","options":{}}`))
	res, body := call(t, "GET", e.base+"webhook/p2/item/9", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"id":"9"}`, jsonField(t, body, "params"))
	require.True(t, strings.HasSuffix(strings.Trim(jsonField(t, body, "webhookUrl"), `"`), "/webhook/p2/item/:id"), body)

	activate(t, e, `{"name":"custom","nodes":[`+v2Hook("c1", `{"path":"custom","options":{"responseCode":{"values":{"responseCode":"customCode","customCode":299}},"responseData":"ok"}}`)+`],"connections":{}}`)
	activate(t, e, `{"name":"created","nodes":[`+v2Hook("c2", `{"path":"created","options":{"responseCode":{"values":{"responseCode":201}}}}`)+`],"connections":{}}`)
	res, body = call(t, "GET", e.base+"webhook/custom", "", nil)
	require.Equal(t, 299, res.StatusCode)
	require.Equal(t, "ok", body)
	res, body = call(t, "GET", e.base+"webhook/created", "", nil)
	require.Equal(t, 201, res.StatusCode)
	require.JSONEq(t, `{"message":"Workflow was started"}`, body)

	// A body Webhook 2 does not parse becomes a file, which Respond to Webhook sends back.
	activate(t, e, hookToRespond("echo file", "f1", "file", "POST", `{"respondWith":"binary","options":{}}`))
	res, body = call(t, "POST", e.base+"webhook/file", "text/csv", strings.NewReader("a,b\n1,2\n"))
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "a,b\n1,2\n", body)
	require.Equal(t, "text/csv", res.Header.Get("Content-Type"))
}

// hookThenV2 is Webhook 2 → Set (done = true).
func hookThenV2(name, webhookID, params string) string {
	return fmt.Sprintf(`{"name":%q,"nodes":[%s,
 {"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"boolean":[{"name":"done","value":true}]}}}],
 "connections":{"Webhook":{"main":[[{"node":"Set","type":"main","index":0}]]}}}`, name, v2Hook(webhookID, params))
}

func TestWebhookV2CORSIPWhitelistAndBots(t *testing.T) {
	e := startWithWorker(t, nil)
	activate(t, e, `{"name":"cors","nodes":[`+v2Hook("o1", `{"path":"cors","httpMethod":"POST","options":{"allowedOrigins":"https://a.example,https://b.example"}}`)+`],"connections":{}}`)
	activate(t, e, `{"name":"ip refused","nodes":[`+v2Hook("i1", `{"path":"ipw","options":{"ipWhitelist":"10.9.8.7, 192.168.0.0/16"}}`)+`],"connections":{}}`)
	activate(t, e, `{"name":"ip allowed","nodes":[`+v2Hook("i2", `{"path":"ipok","options":{"ipWhitelist":"10.9.8.7,127.0.0.0/8"}}`)+`],"connections":{}}`)
	activate(t, e, `{"name":"bots","nodes":[`+v2Hook("b1", `{"path":"nobots","options":{"ignoreBots":true}}`)+`],"connections":{}}`)

	// Preflight: an allowed origin is echoed, another gets the first allowed one.
	res, _ := call(t, "OPTIONS", e.base+"webhook/cors", "", nil, "Origin", "https://b.example",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "x-y")
	require.Equal(t, 204, res.StatusCode)
	require.Equal(t, "https://b.example", res.Header.Get("Access-Control-Allow-Origin"))
	require.Equal(t, "x-y", res.Header.Get("Access-Control-Allow-Headers"))
	require.Equal(t, "300", res.Header.Get("Access-Control-Max-Age"))
	require.ElementsMatch(t, []string{"OPTIONS", "POST"}, strings.Split(res.Header.Get("Access-Control-Allow-Methods"), ", "))
	res, _ = call(t, "OPTIONS", e.base+"webhook/cors", "", nil, "Origin", "https://evil.example", "Access-Control-Request-Method", "POST")
	require.Equal(t, "https://a.example", res.Header.Get("Access-Control-Allow-Origin"))
	res, body := call(t, "POST", e.base+"webhook/cors", "application/json", strings.NewReader(`{}`), "Origin", "https://a.example")
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "https://a.example", res.Header.Get("Access-Control-Allow-Origin"))

	before := storedExecutions(t, e.base)
	res, body = call(t, "GET", e.base+"webhook/ipw", "", nil)
	require.Equal(t, 403, res.StatusCode)
	require.Equal(t, "IP is not whitelisted to access the webhook!", body)
	require.Equal(t, before, storedExecutions(t, e.base), "a refused call runs nothing")
	res, body = call(t, "GET", e.base+"webhook/ipok", "", nil)
	require.Equal(t, 200, res.StatusCode, body)

	res, body = call(t, "GET", e.base+"webhook/nobots", "", nil, "User-Agent", "Twitterbot/1.0")
	require.Equal(t, 403, res.StatusCode)
	require.Equal(t, "Authorization data is wrong!", body)
	res, body = call(t, "GET", e.base+"webhook/nobots", "", nil, "User-Agent", browserAgent)
	require.Equal(t, 200, res.StatusCode, body)
}

func TestRespondToWebhookV11Answers(t *testing.T) {
	e := startWithWorker(t, nil)
	for _, wf := range []string{
		hookToRespond("all", "r1", "all", "POST", `{"respondWith":"allIncomingItems","options":{"responseKey":"items"}}`),
		hookToRespond("first", "r2", "first", "GET", `{"respondWith":"firstIncomingItem","options":{"responseCode":202}}`),
		hookToRespond("json", "r3", "json", "GET", `{"respondWith":"json","responseBody":"={{ {\"got\": $json.query.v} }}"}`),
		hookToRespond("json default", "r4", "jsondefault", "GET", `{"respondWith":"json"}`),
		hookToRespond("text", "r5", "text", "GET", `{"respondWith":"text","responseBody":"hello","options":{"responseHeaders":{"entries":[{"name":"Content-Type","value":"text/plain"}]}}}`),
		hookToRespond("no data", "r6", "nodata", "GET", `{"respondWith":"noData","options":{"responseCode":204}}`),
		hookToRespond("redirect", "r7", "redirect", "GET", `{"respondWith":"redirect","redirectURL":"https://example.com/next"}`),
	} {
		activate(t, e, wf)
	}
	res, body := call(t, "POST", e.base+"webhook/all", "application/json", strings.NewReader(`{"n":1}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"n":1}`, jsonField(t, body, "items.0.body"))
	res, body = call(t, "GET", e.base+"webhook/first?x=1", "", nil)
	require.Equal(t, 202, res.StatusCode, body)
	require.JSONEq(t, `{"x":"1"}`, jsonField(t, body, "query"))
	res, body = call(t, "GET", e.base+"webhook/json?v=7", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `{"got":"7"}`, body)
	_, body = call(t, "GET", e.base+"webhook/jsondefault", "", nil)
	require.JSONEq(t, `{"myField":"value"}`, body)
	res, body = call(t, "GET", e.base+"webhook/text", "", nil)
	require.Equal(t, "hello", body)
	require.Equal(t, "text/plain", res.Header.Get("Content-Type"))
	res, body = call(t, "GET", e.base+"webhook/nodata", "", nil)
	require.Equal(t, 204, res.StatusCode)
	require.Empty(t, body)

	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	r, err := noFollow.Get(e.base + "webhook/redirect")
	require.NoError(t, err)
	r.Body.Close()
	require.Equal(t, 307, r.StatusCode)
	require.Equal(t, "https://example.com/next", r.Header.Get("Location"))

}

func TestWebhookJWTAuthAndRespondWithJWT(t *testing.T) {
	e := startWithWorker(t, nil)
	code, body := post(t, e.base+"rest/me/api-key", "")
	require.Equal(t, 200, code, body)
	var key struct {
		APIKey string `json:"apiKey"`
	}
	decodeData(t, []byte(body), &key)
	res, body := call(t, "POST", e.base+"api/v1/credentials", "application/json",
		strings.NewReader(`{"name":"jwt","type":"jwtAuth","data":{"keyType":"passphrase","secret":"s3cret","algorithm":"HS256"}}`), apiKeyHeader, key.APIKey)
	require.Equal(t, 200, res.StatusCode, body)
	var cred credentialResponse
	require.NoError(t, json.Unmarshal([]byte(body), &cred))
	creds := fmt.Sprintf(`"credentials":{"jwtAuth":{"id":%q,"name":"jwt"}},`, cred.ID)

	activate(t, e, `{"name":"guarded","nodes":[{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"webhookId":"j1",`+creds+
		`"parameters":{"path":"guarded","authentication":"jwtAuth","responseMode":"lastNode","options":{}}}],"connections":{}}`)
	activate(t, e, `{"name":"issue","nodes":[`+v2Hook("j2", `{"path":"issue","responseMode":"responseNode","options":{}}`)+`,
 {"name":"Respond","type":"n8n-nodes-base.respondToWebhook","typeVersion":1.1,"position":[200,0],`+creds+`"parameters":{"respondWith":"jwt","payload":"={{ JSON.stringify({sub: $json.query.user}) }}"}}],
 "connections":{"Webhook":{"main":[[{"node":"Respond","type":"main","index":0}]]}}}`)

	res, body = call(t, "GET", e.base+"webhook/issue?user=ann", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	token := strings.Trim(jsonField(t, body, "token"), `"`)
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return []byte("s3cret"), nil })
	require.NoError(t, err)
	require.Equal(t, "ann", claims["sub"])

	res, body = call(t, "GET", e.base+"webhook/guarded", "", nil)
	require.Equal(t, 401, res.StatusCode)
	require.Equal(t, "No token provided", body)
	bad, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": "eve"}).SignedString([]byte("wrong"))
	res, body = call(t, "GET", e.base+"webhook/guarded", "", nil, "Authorization", "Bearer "+bad)
	require.Equal(t, 403, res.StatusCode)
	require.Equal(t, "invalid signature", body)
	res, body = call(t, "GET", e.base+"webhook/guarded", "", nil, "Authorization", "Bearer "+token)
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, `"ann"`, jsonField(t, body, "jwtPayload.sub"))
}

func TestWebhookV2TestCallAndStreaming(t *testing.T) {
	e := startWithWorker(t, nil)
	wf := strings.Replace(hookThenV2("test v2", "t2", `{"multipleMethods":true,"httpMethod":["GET","POST"],"path":"try2","responseMode":"lastNode","options":{}}`),
		`{"name":"test v2",`, `{"id":"WF-T2","name":"test v2",`, 1)
	// The Set node hangs off the POST output.
	wf = strings.Replace(wf, `"main":[[{"node":"Set"`, `"main":[[],[{"node":"Set"`, 1)
	code, body := post(t, e.base+"rest/workflows/run", `{"workflowData":`+wf+`}`, "sessionid", "ed-2")
	require.Equal(t, 200, code, body)
	res, body := call(t, "POST", e.base+"webhook-test/try2", "application/json", strings.NewReader(`{"x":1}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.Equal(t, "true", jsonField(t, body, "done"))
	require.Equal(t, `"test"`, jsonField(t, body, "executionMode"))
	require.True(t, strings.HasSuffix(strings.Trim(jsonField(t, body, "webhookUrl"), `"`), "/webhook-test/try2"), body)

	// Webhook 2.1 streaming, with no node that streams: headers, then an empty body at the end.
	activate(t, e, `{"name":"stream","nodes":[{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2.1,"position":[0,0],"webhookId":"s1",
 "parameters":{"path":"stream","responseMode":"streaming","options":{}}}],"connections":{}}`)
	res, body = call(t, "GET", e.base+"webhook/stream", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.Empty(t, body)
	require.Equal(t, "application/json; charset=utf-8", res.Header.Get("Content-Type"))
}

func TestWebhookV2ResponseModeMustFitRespondNodes(t *testing.T) {
	e := startWithWorker(t, nil)
	activate(t, e, `{"name":"no respond","nodes":[`+v2Hook("n1", `{"path":"norespond","responseMode":"responseNode","options":{}}`)+`],"connections":{}}`)
	activate(t, e, strings.Replace(hookToRespond("wrong mode", "n2", "wrongmode", "GET", `{}`), `"responseMode":"responseNode"`, `"responseMode":"onReceived"`, 1))
	for _, path := range []string{"norespond", "wrongmode"} {
		before := storedExecutions(t, e.base)
		res, body := call(t, "GET", e.base+"webhook/"+path, "", nil)
		require.Equal(t, 500, res.StatusCode, body)
		require.JSONEq(t, `{"code":500,"message":"Workflow Webhook Error: Workflow could not be started!"}`, body)
		require.Equal(t, before, storedExecutions(t, e.base))
	}
}

func TestWebhookIPWhitelistBehindATrustedProxy(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_TRUSTED_PROXIES": "127.0.0.1/32"})
	activate(t, e, `{"name":"ip","nodes":[`+v2Hook("i3", `{"path":"behind","options":{"ipWhitelist":"203.0.113.7"}}`)+`],"connections":{}}`)
	res, body := call(t, "GET", e.base+"webhook/behind", "", nil, "X-Forwarded-For", "203.0.113.7")
	require.Equal(t, 200, res.StatusCode, body)
	res, body = call(t, "GET", e.base+"webhook/behind", "", nil, "X-Forwarded-For", "198.51.100.1")
	require.Equal(t, 403, res.StatusCode, body)
	// Without a trusted proxy the header is the caller's word, not believed.
	plain := startWithWorker(t, nil)
	activate(t, plain, `{"name":"ip","nodes":[`+v2Hook("i4", `{"path":"direct","options":{"ipWhitelist":"203.0.113.7"}}`)+`],"connections":{}}`)
	res, _ = call(t, "GET", plain.base+"webhook/direct", "", nil, "X-Forwarded-For", "203.0.113.7")
	require.Equal(t, 403, res.StatusCode)
}
