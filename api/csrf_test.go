package main

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStateChangingRESTCallsNeedJSONFromTheEditorsOrigin(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_PUBLIC_URL": "https://flow.example.com/"})
	u, err := url.Parse(e.base)
	require.NoError(t, err)
	own := "http://" + u.Host
	tags := func() []tagResponse {
		res, b := e.do(t, "GET", "rest/tags", "")
		require.Equal(t, 200, res.StatusCode, string(b))
		var out []tagResponse
		decodeData(t, b, &out)
		return out
	}

	// Refused: bodies a cross-site form or no-cors fetch can send, and cross-site callers.
	for _, c := range []struct {
		name    string
		body    string
		headers []string
		code    int
		message string
	}{
		{"form-encoded", "name=form", []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "send the request body as application/json"},
		{"text/plain holding JSON", `{"name":"plain"}`, []string{"Content-Type", "text/plain"}, 415, "send the request body as application/json"},
		{"multipart", "--x\r\n\r\n--x--", []string{"Content-Type", "multipart/form-data; boundary=x"}, 415, "send the request body as application/json"},
		{"body without a type", `{"name":"untyped"}`, []string{"Content-Type", ""}, 415, "send the request body as application/json"},
		{"JSON-like type", `{"name":"like"}`, []string{"Content-Type", "application/jsonx"}, 415, "send the request body as application/json"},
		{"cross-site Origin", `{"name":"evil"}`, []string{"Origin", "https://evil.example"}, 403, "Cross-site request refused"},
		{"Origin of another port", `{"name":"port"}`, []string{"Origin", "http://" + u.Hostname() + ":1"}, 403, "Cross-site request refused"},
		{"opaque Origin", `{"name":"null"}`, []string{"Origin", "null"}, 403, "Cross-site request refused"},
		{"Sec-Fetch-Site cross-site", `{"name":"fetch"}`, []string{"Sec-Fetch-Site", "cross-site"}, 403, "Cross-site request refused"},
		{"Sec-Fetch-Site same-site", `{"name":"sibling"}`, []string{"Sec-Fetch-Site", "same-site", "Origin", own}, 403, "Cross-site request refused"},
	} {
		res, b := e.do(t, "POST", "rest/tags", c.body, c.headers...)
		require.Equal(t, c.code, res.StatusCode, "%s: %s", c.name, b)
		var body errorBody
		require.NoError(t, jsonUnmarshal(b, &body), string(b))
		require.Equal(t, c.code, body.Code, c.name)
		require.Contains(t, body.Message, c.message, c.name)
	}
	require.Empty(t, tags(), "nothing refused was stored")

	// Allowed: the editor's own calls (its origin as the browser sees it, or the public URL's),
	// typed navigation, clients that send no browser headers, and body-less calls.
	for _, headers := range [][]string{
		{"Origin", own, "Sec-Fetch-Site", "same-origin"},
		{"Origin", "https://flow.example.com", "Sec-Fetch-Site", "same-origin"},
		{"Content-Type", "application/json; charset=utf-8", "Sec-Fetch-Site", "none"},
		{},
	} {
		res, b := e.do(t, "POST", "rest/tags", `{"name":"t`+strconv.Itoa(len(tags()))+`"}`, headers...)
		require.Equal(t, 200, res.StatusCode, "%v: %s", headers, b)
	}
	require.Len(t, tags(), 4)
	res, b := e.do(t, "POST", "rest/me/api-key", "", "Content-Type", "", "Origin", own)
	require.Equal(t, 200, res.StatusCode, "an empty body needs no type: %s", b)
	var key struct {
		APIKey string `json:"apiKey"`
	}
	decodeData(t, b, &key)
	require.NotEmpty(t, key.APIKey)
	res, b = e.do(t, "DELETE", "rest/tags/"+tags()[0].ID, "", "Content-Type", "", "Origin", "https://evil.example")
	require.Equal(t, 403, res.StatusCode, "DELETE is checked too: %s", b)
	require.Len(t, tags(), 4)

	// Reads are not state-changing: a cross-site GET gets its answer (the browser keeps it from
	// the other site's script without CORS).
	res, _ = e.do(t, "GET", "rest/tags", "", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	require.Equal(t, 200, res.StatusCode)

	// Public /rest calls too: sign-in and password reset.
	res, b = e.do(t, "POST", "rest/login", "email=a%40b.c&password=x", "Content-Type", "application/x-www-form-urlencoded")
	require.Equal(t, 415, res.StatusCode, string(b))
	res, b = e.do(t, "POST", "rest/forgot-password", `{"email":"a@b.c"}`, "Origin", "https://evil.example")
	require.Equal(t, 403, res.StatusCode, string(b))

	// The public API (an API key the browser never sends by itself) is unaffected.
	res, b = e.do(t, "POST", "api/v1/tags", `{"name":"by key"}`, apiKeyHeader, key.APIKey,
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	require.Equal(t, 201, res.StatusCode, string(b))

	// Webhooks take whatever their callers send, from anywhere.
	code, wb := e.setActive(t, e.saveWorkflow(t, hookWorkflow("form", "f1", `{"path":"form","httpMethod":"POST","responseMode":"lastNode"}`)), true)
	require.Equal(t, 200, code, string(wb))
	res, b = e.do(t, "POST", "webhook/form", "name=Ann", "Content-Type", "application/x-www-form-urlencoded",
		"Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	require.Equal(t, 200, res.StatusCode, string(b))
	require.Contains(t, string(b), `"name":"Ann"`)
}

// TestOriginBehindATrustedProxy: behind a proxy listed in FLOWMILL_TRUSTED_PROXIES, the origin the
// browser addressed is the forwarded scheme and host; anyone else's forwarded headers are ignored.
func TestOriginBehindATrustedProxy(t *testing.T) {
	forwarded := []string{"Origin", "https://hooks.example.org", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "hooks.example.org"}
	trusting := startServer(t, map[string]string{"FLOWMILL_TRUSTED_PROXIES": "127.0.0.1"})
	res, b := trusting.do(t, "POST", "rest/tags", `{"name":"proxied"}`, forwarded...)
	require.Equal(t, 200, res.StatusCode, string(b))
	res, b = trusting.do(t, "POST", "rest/tags", `{"name":"spoofed"}`, "Origin", "https://evil.example", "X-Forwarded-Proto", "https", "X-Forwarded-Host", "hooks.example.org")
	require.Equal(t, 403, res.StatusCode, string(b))

	plain := startServer(t, nil)
	res, b = plain.do(t, "POST", "rest/tags", `{"name":"proxied"}`, forwarded...)
	require.Equal(t, 403, res.StatusCode, "forwarded headers from an untrusted peer count for nothing: %s", b)
}
