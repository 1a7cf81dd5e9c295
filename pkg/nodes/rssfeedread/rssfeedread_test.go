package rssfeedread_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/rssfeedread"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// feedServer serves the files of testdata by name, and a few answers that are not feeds.
func feedServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/feeds/{name}", func(w http.ResponseWriter, r *http.Request) {
		require.Equal(t, "rss-parser", r.Header.Get("User-Agent"))
		require.Equal(t, "application/rss+xml", r.Header.Get("Accept"))
		b, err := os.ReadFile("testdata/" + r.PathValue("name"))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(r.URL.Query().Get("b"))) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/feeds/rss2.xml", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// golden is what rss-parser 3.13 (n8n's) gives for a test feed, item by item as JSON.
func golden(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	var raw []json.RawMessage
	require.NoError(t, json.Unmarshal(b, &raw))
	out := make([]string, len(raw))
	for i, r := range raw {
		out[i] = string(r)
	}
	return out
}

// unescapeHTML undoes Go's escaping of HTML characters in JSON, which JavaScript does not do.
var unescapeHTML = strings.NewReplacer(`\u0026`, "&", `\u003c`, "<", `\u003e`, ">")

func jsonOf(t *testing.T, items []workflow.Item) []string {
	t.Helper()
	out := make([]string, len(items))
	for i, it := range items {
		b, err := json.Marshal(it.JSON)
		require.NoError(t, err)
		out[i] = unescapeHTML.Replace(string(b))
	}
	return out
}

func TestReadFeedsAsRSSParser(t *testing.T) {
	t.Parallel()
	srv := feedServer(t)
	for _, name := range []string{"rss2", "atom", "rdf", "podcast"} {
		out, err := nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1,
			Parameters: m{"url": srv.URL + "/feeds/" + name + ".xml"}}, nodetest.Items(m{}))
		require.NoError(t, err, name)
		require.Equal(t, golden(t, name+".json"), jsonOf(t, out[0]), name)
	}
}

func TestReadPairsItemsByVersion(t *testing.T) {
	t.Parallel()
	srv := feedServer(t)
	feedURL := srv.URL + "/feeds/rdf.xml"
	// Version 1 reads once and links every entry to all input items.
	out, err := nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1, Parameters: m{"url": feedURL}}, nodetest.Items(m{}, m{}))
	require.NoError(t, err)
	require.Len(t, out[0], 1)
	require.Equal(t, workflow.PairedItems{{Item: 0}, {Item: 1}}, *out[0][0].PairedItem)
	// Version 1.1 reads once per input item.
	out, err = nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1, Parameters: m{"url": "={{ $json.u }}"}},
		nodetest.Items(m{"u": feedURL}, m{"u": srv.URL + "/feeds/podcast.xml"}))
	require.NoError(t, err)
	require.Len(t, out[0], 2)
	require.Equal(t, "R one", out[0][0].JSON.Get("title"))
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)
	// A redirect is followed.
	out, err = nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1, Parameters: m{"url": srv.URL + "/moved"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Len(t, out[0], 3)
}

func TestReadFailures(t *testing.T) {
	t.Parallel()
	srv := feedServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := "http://" + ln.Addr().String() + "/feed"
	require.NoError(t, ln.Close())
	cases := []struct{ url, want string }{
		{"", `The parameter "URL" has to be set!`},
		{"example.com/feed", `The provided "URL" is not valid!`},
		{closed, `It was not possible to connect to the URL. Please make sure the URL "` + closed + `" it is valid!`},
		{srv.URL + "/text?b=not%20xml", "Non-whitespace before first tag."},
		{srv.URL + "/text?b=" + url.QueryEscape(`<rss version="2.0"><channel><item></channel></rss>`), "Unexpected close tag"},
		{srv.URL + "/text?b=" + url.QueryEscape("<html><body>x</body></html>"), "Feed not recognized as RSS 1 or 2."},
		{srv.URL + "/feeds/missing.xml", "Status code 404"},
		{srv.URL + "/loop", "Too many redirects"},
		{"http://169.254.169.254/latest", "The address 169.254.169.254 is not allowed"},
	}
	for _, c := range cases {
		_, err := nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1, Parameters: m{"url": c.url}}, nodetest.Items(m{}))
		e := nodetest.NodeError(t, err)
		require.True(t, strings.HasPrefix(e.Message, c.want), "%s: %q", c.url, e.Message)
	}
	_, err = nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1, Host: nodes.Host{UnpackMaxBytes: 100},
		Parameters: m{"url": srv.URL + "/feeds/rss2.xml"}}, nodetest.Items(m{}))
	require.Equal(t, "The feed is larger than 100 bytes, the limit for reading a feed (FLOWMILL_UNPACK_MAX_SIZE)", nodetest.NodeError(t, err).Message)
	out, err := nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1, ContinueOnFail: true,
		Parameters: m{"url": srv.URL + "/feeds/missing.xml"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "Status code 404"}}, nodetest.JSONs(out[0]))
}

func TestReadIgnoreSSL(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		b, _ := os.ReadFile("testdata/rdf.xml")
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	_, err := nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1, Parameters: m{"url": srv.URL}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "certificate")
	out, err := nodetest.Run(t, rssfeedread.Type(), nodetest.Node{Version: 1.1,
		Parameters: m{"url": srv.URL, "options": m{"ignoreSSL": true}}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Len(t, out[0], 1)
}
