package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/webhook"
)

// The webhook matrix: every method, body type, auth mode and response mode of production
// webhooks, plus the calls that must be turned away, called with a real HTTP client against
// any running Flowmill. Each stack gets the workflows once (activated), then every call.

// matrixCredentials are the credentials the matrix's webhooks authenticate with, as the public
// API creates them.
var matrixCredentials = map[string]string{
	"c-basic":  `{"name":"c-basic","type":"httpBasicAuth","data":{"user":"ann","password":"pw"}}`,
	"c-header": `{"name":"c-header","type":"httpHeaderAuth","data":{"name":"X-Key","value":"k1"}}`,
}

// matrixMethods are the methods a webhook node registers.
var matrixMethods = []string{"DELETE", "GET", "HEAD", "PATCH", "POST", "PUT"}

// respondWorkflow is Webhook (responseNode, path and method given) → Respond to Webhook.
func respondWorkflow(path, method, respondParams string) string {
	return hookThen("respond "+path, "r-"+path, fmt.Sprintf(`{"path":%q,"httpMethod":%q,"responseMode":"responseNode"}`, path, method),
		"Respond", "n8n-nodes-base.respondToWebhook", respondParams)
}

// matrixWorkflows are the workflows the calls reach; creds maps credential names to their ids.
func matrixWorkflows(creds map[string]string) []string {
	var out []string
	for _, m := range matrixMethods {
		out = append(out, hookWorkflow("echo "+m, "id-"+m, fmt.Sprintf(
			`{"path":"echo","httpMethod":%q,"responseMode":"lastNode","options":{"rawBody":true}}`, m)))
	}
	return append(out,
		// Bodies.
		hookWorkflow("bodies", "b1", `{"path":"bodies","httpMethod":"POST","responseMode":"lastNode","responseData":"allEntries","options":{"rawBody":true}}`),
		hookWorkflow("upload", "u1", `{"path":"upload","httpMethod":"POST","responseMode":"lastNode","responseData":"firstEntryBinary","responseBinaryPropertyName":"upload"}`),
		hookWorkflow("raw", "w1", `{"path":"raw","httpMethod":"POST","responseMode":"lastNode","responseData":"firstEntryBinary","options":{"rawBody":true}}`),
		// onReceived.
		hookWorkflow("received", "r1", `{"path":"received","responseCode":202,
		  "options":{"responseData":"thanks","responseHeaders":{"entries":[{"name":"x-reply","value":"1"}]}}}`),
		hookWorkflow("received2", "r2", `{"path":"received2"}`),
		hookWorkflow("received3", "r3", `{"path":"received3","options":{"noResponseBody":true}}`),
		// lastNode.
		hookWorkflow("prop", "p1", `{"path":"prop","responseMode":"lastNode","responseCode":201,
		  "options":{"responsePropertyName":"query.x","responseContentType":"text/plain"}}`),
		hookWorkflow("last no data", "n1", `{"path":"lastnodata","responseMode":"lastNode","responseData":"noData","responseCode":202,
		  "options":{"responseHeaders":{"entries":[{"name":"x-last","value":"none"}]}}}`),
		hookThen("no item", "i1", `{"path":"noitem","responseMode":"lastNode"}`,
			"IF", "n8n-nodes-base.if", `{"conditions":{"boolean":[{"value1":false,"value2":true}]}}`),
		// responseNode.
		respondWorkflow("first", "POST", `{"respondWith":"firstIncomingItem"}`),
		respondWorkflow("json", "GET", `{"respondWith":"json","responseBody":"={{ JSON.stringify({got: $json.query.v}) }}",
		  "options":{"responseCode":418,"responseHeaders":{"entries":[{"name":"x-r","value":"y"}]}}}`),
		respondWorkflow("text", "POST", `{"respondWith":"text","responseBody":"={{ 'hi ' + $json.body.who }}"}`),
		respondWorkflow("binary", "POST", `{"respondWith":"binary","options":{"responseHeaders":{"entries":[{"name":"x-file","value":"hello.txt"}]}}}`),
		respondWorkflow("nothing", "GET", `{"respondWith":"noData","options":{"responseCode":202,"responseHeaders":{"entries":[{"name":"x-n","value":"0"}]}}}`),
		// Authentication and bots.
		withCredential(hookWorkflow("basic", "hb", `{"path":"basic","authentication":"basicAuth","responseMode":"lastNode"}`),
			"hb", "httpBasicAuth", creds["c-basic"], "c-basic"),
		withCredential(hookWorkflow("header", "hh", `{"path":"header","authentication":"headerAuth","responseMode":"lastNode","options":{"ignoreBots":true}}`),
			"hh", "httpHeaderAuth", creds["c-header"], "c-header"),
		// Bad input.
		hookWorkflow("json", "hj", `{"path":"json","httpMethod":"POST","responseMode":"lastNode"}`),
	)
}

// hookCall is one call of the matrix and the answer it must get.
type hookCall struct {
	name         string
	method, path string // path below the base URL, with its query
	contentType  string
	body         string
	headers      []string // name, value pairs
	// announce, when set, sends only the headers of a POST announcing a body of this many bytes.
	announce int
	want     hookAnswer
}

// hookAnswer is what a call must get; zero fields are not checked, except stored.
type hookAnswer struct {
	status int
	// stored is how many executions the call stores: 1 when the workflow runs, 0 when the call
	// is turned away.
	stored int64
	text   *string           // the body, exactly
	json   string            // the body as JSON
	fields map[string]string // JSON found at jsonField paths of the body
	has    []string          // parts of the body
	// headers are exact header values; headerLists are headers listing values (", ").
	headers     map[string]string
	headerLists map[string][]string
}

// uploadBody is a multipart form with a field and a text file.
func uploadBody() (contentType, body string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.WriteField("f", "v")
	part, _ := w.CreatePart(textproto.MIMEHeader{
		"Content-Disposition": {`form-data; name="upload"; filename="hello.txt"`}, "Content-Type": {"text/plain"}})
	_, _ = part.Write([]byte("hello"))
	_ = w.Close()
	return w.FormDataContentType(), b.String()
}

// matrixCalls are the calls of the matrix, in the order they are made.
func matrixCalls() []hookCall {
	multipartType, multipartBody := uploadBody()
	browser := "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0"
	basic := func(user, pass string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	}
	var calls []hookCall
	for _, m := range matrixMethods {
		if m == "HEAD" {
			continue
		}
		calls = append(calls, hookCall{name: "method " + m, method: m, path: "webhook/echo?q=1", contentType: "application/json",
			body: `{"m":"` + m + `"}`, headers: []string{"X-Test", "yes"},
			want: hookAnswer{status: 200, stored: 1, headers: map[string]string{"Access-Control-Allow-Origin": "*"},
				fields: map[string]string{"done": "true", "body": `{"m":"` + m + `"}`, "query": `{"q":"1"}`, "headers.x-test": `"yes"`}}})
	}
	return append(calls,
		hookCall{name: "method HEAD", method: "HEAD", path: "webhook/echo", want: hookAnswer{status: 200, stored: 1, text: new("")}},
		hookCall{name: "OPTIONS preflight lists every method of the path", method: "OPTIONS", path: "webhook/echo",
			headers: []string{"Access-Control-Request-Headers", "x-test"},
			want: hookAnswer{status: 204, headers: map[string]string{"Access-Control-Allow-Headers": "x-test", "Access-Control-Allow-Origin": "*"},
				headerLists: map[string][]string{"Access-Control-Allow-Methods": append([]string{"OPTIONS"}, matrixMethods...)}}},

		// Bodies.
		hookCall{name: "body form-urlencoded", method: "POST", path: "webhook/bodies", contentType: "application/x-www-form-urlencoded",
			body: "a=1&b=2&b=3", want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"0.body": `{"a":"1","b":["2","3"]}`}}},
		hookCall{name: "body multipart fields", method: "POST", path: "webhook/bodies", contentType: multipartType, body: multipartBody,
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"0.body": `{"f":["v"]}`}}},
		hookCall{name: "body multipart file becomes binary data", method: "POST", path: "webhook/upload", contentType: multipartType, body: multipartBody,
			want: hookAnswer{status: 200, stored: 1, text: new("hello"), headers: map[string]string{"Content-Type": "text/plain"}}},
		hookCall{name: "body xml", method: "POST", path: "webhook/bodies", contentType: "application/xml", body: `<order id="7"><item>a</item></order>`,
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"0.body": `{"order":{"$":{"id":"7"},"item":"a"}}`}}},
		hookCall{name: "body text is not parsed", method: "POST", path: "webhook/bodies", contentType: "text/plain", body: "plain words",
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"0.body": `{}`}}},
		hookCall{name: "body text kept as rawBody", method: "POST", path: "webhook/raw", contentType: "text/plain", body: "plain words",
			want: hookAnswer{status: 200, stored: 1, text: new("plain words"), headers: map[string]string{"Content-Type": "text/plain"}}},

		// onReceived.
		hookCall{name: "onReceived code, data and headers", method: "GET", path: "webhook/received",
			want: hookAnswer{status: 202, stored: 1, text: new("thanks"), headers: map[string]string{"X-Reply": "1"}}},
		hookCall{name: "onReceived default", method: "GET", path: "webhook/received2",
			want: hookAnswer{status: 200, stored: 1, json: `{"message":"Workflow was started"}`}},
		hookCall{name: "onReceived noResponseBody", method: "GET", path: "webhook/received3",
			want: hookAnswer{status: 200, stored: 1, text: new("")}},

		// lastNode.
		hookCall{name: "lastNode firstEntryJson property", method: "GET", path: "webhook/prop?x=hello",
			want: hookAnswer{status: 201, stored: 1, text: new("hello"), headers: map[string]string{"Content-Type": "text/plain"}}},
		hookCall{name: "lastNode allEntries", method: "POST", path: "webhook/bodies", contentType: "application/json", body: `{"n":1}`,
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"0.body": `{"n":1}`, "0.done": "true"}}},
		hookCall{name: "lastNode noData", method: "GET", path: "webhook/lastnodata",
			want: hookAnswer{status: 202, stored: 1, text: new(""), headers: map[string]string{"X-Last": "none"}}},
		hookCall{name: "lastNode no item to return", method: "GET", path: "webhook/noitem",
			want: hookAnswer{status: 500, stored: 1, json: `{"code":500,"message":"No item to return got found."}`}},

		// responseNode.
		hookCall{name: "responseNode first item", method: "POST", path: "webhook/first?from=x", contentType: "application/json", body: `{"n":1}`,
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"body": `{"n":1}`, "query": `{"from":"x"}`}}},
		hookCall{name: "responseNode json, code and headers", method: "GET", path: "webhook/json?v=7",
			want: hookAnswer{status: 418, stored: 1, json: `{"got":"7"}`, headers: map[string]string{"X-R": "y"}}},
		hookCall{name: "responseNode text", method: "POST", path: "webhook/text", contentType: "application/json", body: `{"who":"ann"}`,
			want: hookAnswer{status: 200, stored: 1, text: new("hi ann"), headers: map[string]string{"Content-Type": "text/html; charset=utf-8"}}},
		hookCall{name: "responseNode binary", method: "POST", path: "webhook/binary", contentType: multipartType, body: multipartBody,
			want: hookAnswer{status: 200, stored: 1, text: new("hello"), headers: map[string]string{"Content-Type": "text/plain", "X-File": "hello.txt"}}},
		hookCall{name: "responseNode no data", method: "GET", path: "webhook/nothing",
			want: hookAnswer{status: 202, stored: 1, text: new(""), headers: map[string]string{"X-N": "0"}}},

		// Authentication and bots.
		hookCall{name: "basic auth missing", method: "GET", path: "webhook/basic",
			want: hookAnswer{status: 401, text: new("Authorization is required!"), headers: map[string]string{"WWW-Authenticate": `Basic realm="Webhook"`}}},
		hookCall{name: "basic auth wrong", method: "GET", path: "webhook/basic", headers: []string{"Authorization", basic("ann", "wrong")},
			want: hookAnswer{status: 403, text: new("Authorization data is wrong!")}},
		hookCall{name: "basic auth right", method: "GET", path: "webhook/basic", headers: []string{"Authorization", basic("ann", "pw")},
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"done": "true"}}},
		hookCall{name: "header auth missing", method: "GET", path: "webhook/header", headers: []string{"User-Agent", browser},
			want: hookAnswer{status: 403, text: new("Authorization data is wrong!")}},
		hookCall{name: "header auth wrong", method: "GET", path: "webhook/header", headers: []string{"X-Key", "k2", "User-Agent", browser},
			want: hookAnswer{status: 403, text: new("Authorization data is wrong!")}},
		hookCall{name: "header auth right", method: "GET", path: "webhook/header", headers: []string{"X-Key", "k1", "User-Agent", browser},
			want: hookAnswer{status: 200, stored: 1, fields: map[string]string{"done": "true", "headers.x-key": `"k1"`}}},
		hookCall{name: "ignoreBots turns a bot away", method: "GET", path: "webhook/header", headers: []string{"X-Key", "k1", "User-Agent", "Twitterbot/1.0"},
			want: hookAnswer{status: 403, text: new("Authorization data is wrong!")}},

		// Bad input.
		hookCall{name: "malformed JSON body", method: "POST", path: "webhook/json", contentType: "application/json", body: `{"broken":`,
			want: hookAnswer{status: 400, json: `{"code":400,"message":"body is not valid JSON: unexpected end of JSON input"}`}},
		hookCall{name: "body over the size limit", path: "webhook/json", announce: 2 << 20,
			want: hookAnswer{status: 413, json: `{"code":413,"message":"Request body is too large"}`}},
		hookCall{name: "unknown path", method: "POST", path: "webhook/nowhere",
			want: hookAnswer{status: 404, has: []string{`The requested webhook \"POST nowhere\" is not registered.`, webhook.HintProductionUnregistered}}},
		hookCall{name: "unknown test path", method: "GET", path: "webhook-test/nowhere",
			want: hookAnswer{status: 404, has: []string{`The requested webhook \"GET nowhere\" is not registered.`, webhook.HintTestUnregistered}}},
	)
}

// runWebhookMatrix creates the matrix's credentials and workflows through admin (the public API
// and the REST API, as the default owner), activates them, and makes every call through caller.
func runWebhookMatrix(t *testing.T, admin, caller string) {
	code, body := post(t, admin+"rest/me/api-key", "")
	require.Equal(t, 200, code, body)
	var key struct {
		APIKey string `json:"apiKey"`
	}
	decodeData(t, []byte(body), &key)
	creds := map[string]string{}
	for name, doc := range matrixCredentials {
		res, body := call(t, "POST", admin+"api/v1/credentials", "application/json", strings.NewReader(doc), apiKeyHeader, key.APIKey)
		require.Equal(t, 200, res.StatusCode, body)
		var created credentialResponse
		require.NoError(t, json.Unmarshal([]byte(body), &created), body)
		require.NotEmpty(t, created.ID, body)
		creds[name] = created.ID
	}
	for _, wf := range matrixWorkflows(creds) {
		code, body := patchJSON(t, admin+"rest/workflows/"+createVia(t, admin, wf), `{"active":true}`)
		require.Equal(t, 200, code, body)
	}

	for _, c := range matrixCalls() {
		t.Run(c.name, func(t *testing.T) {
			before := storedExecutions(t, admin)
			var res *http.Response
			var body string
			if c.announce > 0 {
				res, body = postOversizedTo(t, caller+c.path, c.announce)
			} else {
				res, body = call(t, c.method, caller+c.path, c.contentType, strings.NewReader(c.body), c.headers...)
			}
			w := c.want
			require.Equal(t, w.status, res.StatusCode, body)
			if w.text != nil {
				require.Equal(t, *w.text, body)
			}
			if w.json != "" {
				require.JSONEq(t, w.json, body)
			}
			for path, v := range w.fields {
				require.JSONEq(t, v, jsonField(t, body, path), "%s in %s", path, body)
			}
			for _, part := range w.has {
				require.Contains(t, body, part)
			}
			for name, v := range w.headers {
				require.Equal(t, v, res.Header.Get(name), name)
			}
			for name, values := range w.headerLists {
				require.ElementsMatch(t, values, strings.Split(res.Header.Get(name), ", "), name)
			}
			require.Equal(t, before+w.stored, storedExecutions(t, admin), "executions stored by the call")
		})
	}
}

// storedExecutions counts the executions stored in the stack, whatever their status.
func storedExecutions(t *testing.T, base string) int64 {
	t.Helper()
	filter := url.QueryEscape(`{"status":["new","queued","running","waiting","success","error","canceled","crashed"]}`)
	var out struct {
		Count int64 `json:"count"`
	}
	require.Equal(t, 200, getJSON(t, base+"rest/executions?limit=1&filter="+filter, &out))
	return out.Count
}

// TestWebhookMatrixInProcess runs the matrix against an api and a worker in the test process.
func TestWebhookMatrixInProcess(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_MAX_BODY_SIZE": "1"})
	runWebhookMatrix(t, e.base, e.base)
}

// TestWebhookMatrixScaled runs the matrix against the scaled stack: workflows activated through
// api A, called through api B, run by a worker process, on Postgres and Redis.
func TestWebhookMatrixScaled(t *testing.T) {
	a, b, _, _ := scaledStack(t, 1, "FLOWMILL_MAX_BODY_SIZE", "1")
	runWebhookMatrix(t, a, b)
}

// TestWebhookMatrixEmbedded runs the matrix against the embedded default: one api process with
// SQLite, its own Redis, and the worker inside.
func TestWebhookMatrixEmbedded(t *testing.T) {
	_, base := startEmbedded(t, "FLOWMILL_MAX_BODY_SIZE", "1")
	runWebhookMatrix(t, base, base)
}
