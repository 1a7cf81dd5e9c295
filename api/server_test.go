package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/store"
)

// testDist stands in for the built web app: the same placeholders the real build writes.
var testDist = fstest.MapFS{
	"index.html":             {Data: []byte(`<html><script>window.BASE_PATH = '/{{BASE_PATH}}/';</script><script src="/{{BASE_PATH}}/assets/app-1a2b.js"></script></html>`)},
	"assets/app-1a2b.js":     {Data: []byte("console.log('/{{BASE_PATH}}/rest');" + strings.Repeat(" ", 4096))},
	"assets/app-1a2b.js.map": {Data: []byte("{}")},
	"favicon.svg":            {Data: []byte("<svg/>")},
	"assets/photo.webp":      {Data: []byte("RIFF")},
	"assets/.hidden.js":      {Data: []byte("secret")},
}

type testEnv struct {
	cfg      *config.Config
	in       *infra.Infra
	srv      *server
	base     string // http://127.0.0.1:port + base path
	redisURL string
	dbURL    string
}

// startServer runs an api in-process on Postgres and Redis, listening on a free port.
func startServer(t *testing.T, vars map[string]string) *testEnv {
	t.Helper()
	return startServerWith(t, infratest.Env(t, vars))
}

func startServerWith(t *testing.T, env map[string]string) *testEnv {
	t.Helper()
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	require.NoError(t, err)
	ctx := context.Background()
	in, err := infra.Open(ctx, cfg, cfg.Logger(io.Discard))
	require.NoError(t, err)
	t.Cleanup(in.Close)
	srv, err := newServer(in, testDist)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done, err := srv.start(ctx, ln)
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, srv.shutdown(5*time.Second))
		<-done
	})
	e := &testEnv{cfg: cfg, in: in, srv: srv, base: "http://" + ln.Addr().String() + cfg.BasePath,
		redisURL: env["FLOWMILL_REDIS_URL"], dbURL: env["FLOWMILL_DATABASE_URL"]}
	signInDefault(t, e.base)
	return e
}

func (e *testEnv) do(t *testing.T, method, path string, body string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, e.base+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	require.NoError(t, err)
	if body != "" { // as the editor sends every body; a header given as "" is left out
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i+1] == "" {
			req.Header.Del(headers[i])
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res, b
}

func decodeData(t *testing.T, b []byte, v any) {
	t.Helper()
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &env), string(b))
	require.NoError(t, json.Unmarshal(env.Data, v), string(b))
}

func TestSettingsReflectConfiguration(t *testing.T) {
	e := startServer(t, map[string]string{
		"FLOWMILL_TIMEZONE": "Europe/Berlin",
		"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS": "true",
		"FLOWMILL_EXECUTIONS_TIMEOUT":                     "300",
		"FLOWMILL_WEBHOOK_URL":                            "https://hooks.example.com",
		"FLOWMILL_PUBLIC_API_DISABLED":                    "true",
	})
	res, b := e.do(t, "GET", "rest/settings", "")
	require.Equal(t, 200, res.StatusCode)
	var s map[string]any
	decodeData(t, b, &s)
	require.Equal(t, "Europe/Berlin", s["timezone"])
	require.Equal(t, true, s["saveManualExecutions"])
	require.EqualValues(t, 300, s["executionTimeout"])
	require.EqualValues(t, 3600, s["maxExecutionTimeout"])
	require.Equal(t, "all", s["saveDataErrorExecution"])
	require.Equal(t, "https://hooks.example.com/", s["urlBaseWebhook"])
	require.Equal(t, "webhook", s["endpointWebhook"])
	require.Equal(t, "webhook-test", s["endpointWebhookTest"])
	require.Equal(t, version, s["versionCli"])
	require.Equal(t, "en", s["defaultLocale"])
	require.Equal(t, "queue", s["executionMode"])
	require.Len(t, s["instanceId"], 64)
	require.Equal(t, map[string]any{"enabled": false, "latestVersion": float64(1), "path": "api"}, s["publicApi"])
	require.Equal(t, map[string]any{"enabled": true, "showSetupOnFirstLoad": true, "smtpSetup": false}, s["userManagement"])
	for _, key := range []string{"templates", "telemetry", "versionNotifications", "oauthCallbackUrls", "n8nMetadata",
		"personalizationSurveyEnabled", "workflowTagsDisabled", "hiringBannerEnabled", "logLevel"} {
		require.Contains(t, s, key)
	}

	// Skipping setup stops offering it.
	res, b = e.do(t, "POST", "rest/owner/skip-setup", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	_, b = e.do(t, "GET", "rest/settings", "")
	decodeData(t, b, &s)
	require.Equal(t, false, s["userManagement"].(map[string]any)["showSetupOnFirstLoad"])
	require.NoError(t, e.in.Store.SetSetting(context.Background(), store.SettingSkipOwnerSetup, "false"))

	// Once the owner is set up, the setup screen is no longer offered.
	require.NoError(t, e.in.Store.SetSetting(context.Background(), store.SettingOwnerSetUp, "true"))
	_, b = e.do(t, "GET", "rest/settings", "")
	decodeData(t, b, &s)
	require.Equal(t, false, s["userManagement"].(map[string]any)["showSetupOnFirstLoad"])
}

func TestLoginBeforeAndAfterOwnerSetup(t *testing.T) {
	e := startServer(t, nil)
	res, b := e.do(t, "GET", "rest/login", "")
	require.Equal(t, 200, res.StatusCode)
	var u userResponse
	decodeData(t, b, &u)
	require.Equal(t, "owner", u.GlobalRole.Name)
	require.True(t, u.IsPending)
	require.Nil(t, u.Email)
	require.NotContains(t, string(b), "password")

	require.NoError(t, e.in.Store.SetSetting(context.Background(), store.SettingOwnerSetUp, "true"))
	anonymous := &http.Client{}
	res, err := anonymous.Get(e.base + "rest/login")
	require.NoError(t, err)
	b, _ = io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 401, res.StatusCode)
	require.JSONEq(t, `{"code":401,"message":"Unauthorized"}`, string(b))
	res, err = anonymous.Get(e.base + "rest/push?sessionId=x")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 401, res.StatusCode, "push needs a signed-in user")
}

func TestErrorsAreJSONWithStatus(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_MAX_BODY_SIZE": "1"})
	res, b := e.do(t, "GET", "rest/does-not-exist", "")
	require.Equal(t, 404, res.StatusCode)
	require.JSONEq(t, `{"code":404,"message":"Not found: GET /rest/does-not-exist"}`, string(b))

	code, b413 := e.postOversized(t, "rest/debug/ping", 2<<20)
	require.Equal(t, 413, code)
	require.JSONEq(t, `{"code":413,"message":"Request body is too large"}`, b413)

	res, b = e.do(t, "POST", "rest/debug/ping", "{not json", "Content-Type", "application/json")
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, string(b), "The body must be JSON")

	res, b = e.do(t, "GET", "rest/push", "")
	require.Equal(t, 400, res.StatusCode)
	require.JSONEq(t, `{"code":400,"message":"The query parameter sessionId is missing"}`, string(b))

	res, _ = e.do(t, "DELETE", "workflow/1", "")
	require.Equal(t, 404, res.StatusCode, "only GET and HEAD fall back to the web app")
}

func TestWebAppServedUnderBasePath(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_BASE_PATH": "/flow/"})
	require.True(t, strings.HasSuffix(e.base, "/flow/"))

	res, b := e.do(t, "GET", "workflow/42", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Equal(t, "no-cache", res.Header.Get("Cache-Control"))
	require.Contains(t, string(b), `window.BASE_PATH = '/flow/'`)
	require.Contains(t, string(b), `src="/flow/assets/app-1a2b.js"`)
	require.NotContains(t, string(b), "{{BASE_PATH}}")

	res, b = e.do(t, "GET", "assets/app-1a2b.js", "", "Accept-Encoding", "identity")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "public, max-age=31536000, immutable", res.Header.Get("Cache-Control"))
	require.Contains(t, string(b), "'/flow/rest'")
	etag := res.Header.Get("ETag")
	require.NotEmpty(t, etag)
	res, _ = e.do(t, "GET", "assets/app-1a2b.js", "", "If-None-Match", etag)
	require.Equal(t, 304, res.StatusCode)

	// Go's client asks for gzip and unpacks it transparently: the header tells it was used.
	req, _ := http.NewRequest("GET", e.base+"assets/app-1a2b.js", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	raw, err := http.DefaultTransport.RoundTrip(req)
	require.NoError(t, err)
	raw.Body.Close()
	require.Equal(t, "gzip", raw.Header.Get("Content-Encoding"))

	require.Equal(t, "text/javascript; charset=utf-8", res.Header.Get("Content-Type"))
	res, _ = e.do(t, "GET", "assets/photo.webp", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "image/webp", res.Header.Get("Content-Type"), "other files take the MIME table's type")
	res, _ = e.do(t, "GET", "favicon.svg", "")
	require.Equal(t, "image/svg+xml", res.Header.Get("Content-Type"))
	res, _ = e.do(t, "GET", "assets/missing.js", "")
	require.Equal(t, 404, res.StatusCode)
	res, _ = e.do(t, "GET", "assets/.hidden.js", "")
	require.Equal(t, 404, res.StatusCode, "hidden files are not served")
	res, _ = e.do(t, "GET", "assets/app-1a2b.js.map", "")
	require.Equal(t, 404, res.StatusCode, "source maps are not served")
	// The files found so far are kept by their own paths, not by views of the request buffers
	// that later requests on the same connection overwrite.
	e.srv.web.assets.Range(func(k, _ any) bool {
		_, err := fs.Stat(testDist, k.(string))
		require.NoError(t, err, "asset kept under %q", k)
		return true
	})

	res, b = e.do(t, "GET", "rest/settings", "")
	require.Equal(t, 200, res.StatusCode, string(b))

	// Outside the base path nothing is served.
	outside, err := http.Get(strings.TrimSuffix(e.base, "flow/") + "rest/settings")
	require.NoError(t, err)
	outside.Body.Close()
	require.Equal(t, 404, outside.StatusCode)
}

func TestWebAppMissingSaysHowToBuild(t *testing.T) {
	w, err := newWebApp(fstest.MapFS{}, "/")
	require.NoError(t, err)
	require.Nil(t, w.index)
	e := startServer(t, nil)
	e.srv.web = w
	res, b := e.do(t, "GET", "workflow", "")
	require.Equal(t, 503, res.StatusCode)
	require.Contains(t, string(b), "make build")
}

func TestHealthAndMetrics(t *testing.T) {
	e := startServer(t, nil)
	res, b := e.do(t, "GET", "healthz", "")
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"status":"ok"}`, string(b))

	// No worker has reported yet.
	res, b = e.do(t, "GET", "healthz/readiness", "")
	require.Equal(t, 503, res.StatusCode, string(b))
	require.Contains(t, string(b), `"worker":"no worker has reported a heartbeat"`)

	hb := bus.NewHeartbeat(e.in.Redis, bus.RoleWorker, "w1", time.Second, nil)
	require.NoError(t, hb.Start(context.Background()))
	defer hb.Stop()
	res, b = e.do(t, "GET", "healthz/readiness", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	require.JSONEq(t, `{"status":"ok","checks":{"database":"ok","redis":"ok","worker":"ok"}}`, string(b))

	res, b = e.do(t, "GET", "metrics", "")
	require.Equal(t, 200, res.StatusCode)
	text := string(b)
	require.Contains(t, text, `flowmill_queue_pending{queue="critical"} 0`)
	require.Contains(t, text, `flowmill_http_requests_total{code="200",method="GET"}`)
	require.Contains(t, text, "flowmill_push_connections 0")
}

// readEvent reads SSE lines until one data line arrives and returns its payload.
func readEvent(t *testing.T, r *bufio.Reader) map[string]any {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		if p, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(p), &m))
			return m
		}
	}
}

// openPush connects an SSE client and returns once the preamble arrived.
func openPush(t *testing.T, base, sessionID string) *bufio.Reader {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", base+"rest/push?sessionId="+sessionID, nil)
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	r := bufio.NewReader(res.Body)
	line, err := r.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, ":ok\n", line)
	return r
}

func TestPushPingsAndDropsDeadClients(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_PUSH_PING_INTERVAL": "50ms"})
	r := openPush(t, e.base, "s1")
	for range 2 {
		for {
			line, err := r.ReadString('\n')
			require.NoError(t, err)
			if line == ":ping\n" {
				break
			}
		}
	}
	require.Equal(t, 1, e.srv.hub.Connections())

	// A client that goes away is noticed at the next ping.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", e.base+"rest/push?sessionId=s2", nil)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return e.srv.hub.Connections() == 2 }, 5*time.Second, 10*time.Millisecond)
	cancel()
	res.Body.Close()
	require.Eventually(t, func() bool { return e.srv.hub.Connections() == 1 }, 5*time.Second, 10*time.Millisecond)
}

func TestPushMessageReachesStream(t *testing.T) {
	e := startServer(t, nil)
	r := openPush(t, e.base, "editor-1")
	require.NoError(t, e.in.Publisher.Send(context.Background(), "editor-1",
		pushMessage("executionStarted", map[string]any{"executionId": "1"})))
	m := readEvent(t, r)
	require.Equal(t, "executionStarted", m["type"])
	require.Equal(t, map[string]any{"executionId": "1"}, m["data"])
}

// postOversized announces a body of size bytes and reads the answer without sending the body:
// the server must refuse it from the headers alone. (A client that keeps writing may see the
// connection reset, which says nothing about the server's answer.)
func (e *testEnv) postOversized(t *testing.T, path string, size int) (int, string) {
	t.Helper()
	res, body := postOversizedTo(t, e.base+path, size)
	return res.StatusCode, body
}

// postOversizedTo is postOversized for any address.
func postOversizedTo(t *testing.T, address string, size int) (*http.Response, string) {
	t.Helper()
	u, err := url.Parse(address)
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", u.Path, u.Host, size)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// TestOneRegistryAndEvaluatorPerProcess: the api serves the node types and evaluates previews
// and webhooks with the registry and evaluator infra built once for the whole process (the
// embedded runner and trigger firer take the same ones from infra).
func TestOneRegistryAndEvaluatorPerProcess(t *testing.T) {
	e := startServer(t, nil)
	require.NotNil(t, e.in.Nodes)
	require.NotNil(t, e.in.Eval)
	require.Same(t, e.in.Nodes, e.srv.nodeTypes)
	require.Same(t, e.in.Eval, e.srv.ev)
}
