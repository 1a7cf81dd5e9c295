package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireSandboxed checks that a webhook answer carries the sandbox policy and nosniff.
func requireSandboxed(t *testing.T, res *http.Response, label string) {
	t.Helper()
	require.Contains(t, res.Header.Values("Content-Security-Policy"), webhookSandboxPolicy, label)
	require.NotContains(t, strings.Join(res.Header.Values("Content-Security-Policy"), ";"), "allow-same-origin", label)
	require.NotContains(t, strings.Join(res.Header.Values("Content-Security-Policy"), ";"), "allow-scripts", label)
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), label)
}

// htmlPage is Webhook (responseNode) → Respond to Webhook answering an HTML page with a script,
// with the workflow's own Content-Security-Policy and X-Content-Type-Options headers.
func htmlPage(path string) string {
	return respondWorkflow(path, "GET", `{"respondWith":"text","responseBody":"<html><script>fetch('/rest/workflows')</script></html>",
	  "options":{"responseHeaders":{"entries":[{"name":"content-type","value":"text/html; charset=utf-8"},
	    {"name":"Content-Security-Policy","value":"default-src *"},{"name":"X-Content-Type-Options","value":"sniff"}]}}}`)
}

func TestWebhookAnswersAreSandboxed(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_TEST_WEBHOOK_TIMEOUT": "1m"})
	for _, wf := range []string{
		htmlPage("page"),
		hookWorkflow("received", "r1", `{"path":"received","httpMethod":"POST"}`),
		withCredential(hookWorkflow("basic", "hb", `{"path":"basic","authentication":"basicAuth"}`),
			"hb", "httpBasicAuth", "no-such-credential", "gone"),
		`{"name":"waits","nodes":[
		 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"w1","parameters":{"path":"wait"}},
		 {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[200,0],"webhookId":"w2","parameters":{"resume":"webhook","httpMethod":"POST","responseMode":"lastNode"}}],
		 "connections":{"Webhook":{"main":[[{"node":"Wait","type":"main","index":0}]]}}}`,
	} {
		code, b := e.setActive(t, e.saveWorkflow(t, wf), true)
		require.Equal(t, 200, code, string(b))
	}

	// Production: a workflow's HTML page keeps its own policy, and ours is added beside it.
	res, body := call(t, "GET", e.base+"webhook/page", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	requireSandboxed(t, res, "Respond to Webhook page")
	require.Contains(t, res.Header.Values("Content-Security-Policy"), "default-src *")

	res, body = call(t, "POST", e.base+"webhook/received", "application/json", strings.NewReader(`{}`))
	require.Equal(t, 200, res.StatusCode, body)
	requireSandboxed(t, res, "answer on receipt")
	res, body = call(t, "OPTIONS", e.base+"webhook/received", "", nil, "Access-Control-Request-Method", "POST")
	require.Equal(t, 204, res.StatusCode, body)
	requireSandboxed(t, res, "preflight")
	res, body = call(t, "GET", e.base+"webhook/basic", "", nil)
	require.Equal(t, 500, res.StatusCode, body)
	requireSandboxed(t, res, "authentication problem")
	res, body = call(t, "GET", e.base+"webhook/nowhere", "", nil)
	require.Equal(t, 404, res.StatusCode, body)
	requireSandboxed(t, res, "unknown production path")
	res, body = call(t, "GET", e.base+"webhook", "", nil)
	require.Equal(t, 404, res.StatusCode, body)
	requireSandboxed(t, res, "no path")

	// Test webhooks.
	page := strings.Replace(htmlPage("test-page"), `{"name":`, `{"id":"WF-HTML","name":`, 1)
	code, b := post(t, e.base+"rest/workflows/run", `{"workflowData":`+page+`}`, "sessionid", "ed-h")
	require.Equal(t, 200, code, b)
	res, body = call(t, "GET", e.base+"webhook-test/test-page", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	require.Contains(t, body, "<script>")
	requireSandboxed(t, res, "test webhook page")
	res, body = call(t, "GET", e.base+"webhook-test/test-page", "", nil)
	require.Equal(t, 404, res.StatusCode, body)
	requireSandboxed(t, res, "unknown test path")

	// Waiting webhooks.
	res, body = call(t, "GET", e.base+"webhook/wait", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	execID := e.waitingExecutionID(t)
	res, body = call(t, "POST", e.base+"webhook-waiting/"+execID, "application/json", strings.NewReader(`{"a":1}`))
	require.Equal(t, 200, res.StatusCode, body)
	requireSandboxed(t, res, "waiting webhook")
	res, body = call(t, "POST", e.base+"webhook-waiting/999999", "", nil)
	require.Equal(t, 404, res.StatusCode, body)
	requireSandboxed(t, res, "unknown waiting execution")
}

func TestWebhookSandboxOffOnlyOnItsOwnOrigin(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_WEBHOOK_SANDBOX": "false", "FLOWMILL_WEBHOOK_URL": "https://hooks.example.test/"})
	code, b := e.setActive(t, e.saveWorkflow(t, htmlPage("page")), true)
	require.Equal(t, 200, code, string(b))

	get := func(host string) *http.Response {
		req, err := http.NewRequest("GET", e.base+"webhook/page", nil)
		require.NoError(t, err)
		if host != "" {
			req.Host = host
		}
		res, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 200, res.StatusCode)
		return res
	}
	// Addressed to the webhook origin (a proxy passing the Host on): the workflow's page as it is.
	res := get("hooks.example.test")
	require.Equal(t, []string{"default-src *"}, res.Header.Values("Content-Security-Policy"))
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	// Reached through any other host, such as the editor's: still sandboxed.
	requireSandboxed(t, get(""), "editor host")
	requireSandboxed(t, get("hooks.example.test:8443"), "another port")

	// The webhook host serves webhooks only: a page there shares its origin with whatever the
	// host serves, so the editor and /rest are not (the session cookie may reach that host
	// when only the port differs).
	for _, c := range []struct{ method, path string }{
		{"GET", ""}, {"GET", "workflow"}, {"GET", "rest/settings"}, {"GET", "rest/workflows"}, {"POST", "rest/me/api-key"}, {"GET", "api/v1/docs"},
	} {
		req, err := http.NewRequest(c.method, e.base+c.path, nil)
		require.NoError(t, err)
		req.Host = "hooks.example.test"
		req.Header.Set("Origin", "https://hooks.example.test")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 404, res.StatusCode, "%s %s on the webhook host", c.method, c.path)
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	}
	res, b = e.do(t, "GET", "rest/settings", "")
	require.Equal(t, 200, res.StatusCode, "the editor's host serves everything: %s", b)
}

func TestEditorPagesHeaders(t *testing.T) {
	e := startServer(t, map[string]string{
		"FLOWMILL_TEMPLATES_HOST":       "https://templates.example.com/api/",
		"FLOWMILL_DEMO_FRAME_ANCESTORS": "https://blog.example.com, http://localhost:3000",
	})
	sum := sha256.Sum256([]byte("window.BASE_PATH = '/';"))
	scriptHash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"

	for _, p := range []string{"", "workflow/42", "signin", "assets/app-1a2b.js", "favicon.svg", "workflows/demo/x"} {
		res, b := e.do(t, "GET", p, "")
		require.Equal(t, 200, res.StatusCode, "%s: %s", p, b)
		csp := res.Header.Get("Content-Security-Policy")
		require.Contains(t, csp, "default-src 'self'; script-src 'self' "+scriptHash+"; style-src 'self' 'unsafe-inline'; ", p)
		require.Contains(t, csp, "connect-src 'self' https://templates.example.com;", p)
		require.Contains(t, csp, "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'", p)
		require.NotContains(t, csp, "unsafe-eval", p)
		require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"), p)
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), p)
		require.Equal(t, "same-origin", res.Header.Get("Referrer-Policy"), p)
	}

	// The demo view may be framed by the editor, the templates host and the listed origins.
	for _, p := range []string{"workflows/demo", "workflows/demo/"} {
		res, _ := e.do(t, "GET", p, "")
		require.Equal(t, 200, res.StatusCode)
		csp := res.Header.Get("Content-Security-Policy")
		require.True(t, strings.HasSuffix(csp, "; frame-ancestors 'self' https://templates.example.com https://blog.example.com http://localhost:3000"), csp)
		require.Contains(t, csp, "script-src 'self' "+scriptHash+";")
		require.Empty(t, res.Header.Get("X-Frame-Options"), "X-Frame-Options cannot name several origins")
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	}

	// REST, public API, health: nosniff and a policy that allows nothing, errors included.
	for _, c := range []struct {
		path string
		code int
	}{{"rest/settings", 200}, {"rest/nope", 404}, {"rest/node-icon/n8n-nodes-base.respondToWebhook", 200}, {"api/v1/workflows", 401}, {"healthz", 200}, {"assets/missing.js", 404}} {
		res, b := e.do(t, "GET", c.path, "")
		require.Equal(t, c.code, res.StatusCode, "%s: %s", c.path, b)
		require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"), c.path)
		if c.path != "assets/missing.js" {
			require.Equal(t, machinePolicy, res.Header.Get("Content-Security-Policy"), c.path)
		}
		switch {
		case strings.HasPrefix(c.path, "rest/node-icon/"):
			require.Equal(t, fmt.Sprintf("private, max-age=%d", nodeIconMaxAge), res.Header.Get("Cache-Control"), c.path)
		case c.path != "assets/missing.js":
			require.Equal(t, "no-store", res.Header.Get("Cache-Control"), c.path)
		}
	}

	// Swagger UI has its own policy: its script files, no inline script.
	res, b := e.do(t, "GET", "api/v1/docs", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	require.Equal(t, docsPolicy, res.Header.Get("Content-Security-Policy"))
	require.NotRegexp(t, `<script>`, string(b), "the page's scripts are files the policy allows")
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "DENY", res.Header.Get("X-Frame-Options"))
	res, _ = e.do(t, "GET", "api/v1/docs/init.js", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
}

func TestEditorHeadersUnderBasePath(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_BASE_PATH": "/flow/"})
	sum := sha256.Sum256([]byte("window.BASE_PATH = '/flow/';"))
	res, b := e.do(t, "GET", "workflows/demo", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	csp := res.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", "the hash of the script as served")
	require.True(t, strings.HasSuffix(csp, "frame-ancestors 'self'"), csp)
	res, _ = e.do(t, "GET", "webhook/nowhere", "")
	require.Equal(t, 404, res.StatusCode)
	require.Equal(t, webhookSandboxPolicy, res.Header.Get("Content-Security-Policy"))
}

func TestInlineScriptHashes(t *testing.T) {
	h := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
	}
	got := inlineScriptHashes([]byte(`<head><script>a()</script><script type="module" src="/x.js"></script>
<SCRIPT type="text/javascript">b()
</SCRIPT><script></script></head>`))
	require.Equal(t, []string{h("a()"), h("b()\n")}, got)
	require.Empty(t, inlineScriptHashes(nil))
}
