package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/core"
)

// Every node type the editor lists has a documentation URL, and the page behind it is served by
// the api itself: summary, example and the parameters of the description, for signed-in users.
func TestNodeDocumentation(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_ISSUES_URL": "https://issues.example.com/flowmill"})
	res, b := e.do(t, "GET", "rest/node-types?onlyLatest=true", "")
	require.Equal(t, 200, res.StatusCode)
	var all []map[string]any
	decodeData(t, b, &all)
	require.Len(t, all, len(core.ForInstance(e.cfg).Latest()))
	for _, d := range all {
		url, _ := d["documentationUrl"].(string)
		require.Equal(t, e.cfg.BasePath+"docs/nodes/"+d["name"].(string), url, d["name"])
		page, body := e.do(t, "GET", strings.TrimPrefix(url, e.cfg.BasePath), "")
		require.Equal(t, 200, page.StatusCode, url)
		require.Contains(t, page.Header.Get("Content-Type"), "text/html")
		require.Contains(t, string(body), "<h2>Example</h2>", url)
		require.Contains(t, string(body), "https://issues.example.com/flowmill")
	}

	// The Set page: the hand-written summary, the parameters of the latest version's description,
	// nothing unescaped.
	_, body := e.do(t, "GET", "docs/nodes/n8n-nodes-base.set", "")
	page := string(body)
	require.Contains(t, page, "<h1>Edit Fields (Set)</h1>")
	require.Contains(t, page, "<em>Keep Only Set</em>")
	require.Contains(t, page, "<code>assignments</code>")
	require.Contains(t, page, "<strong>Fields to Set</strong>")
	require.NotContains(t, page, "<script")

	// Full descriptions carry the URL too; the index lists the nodes; unknown types are 404.
	res, b = e.do(t, "POST", "rest/node-types", `{"nodeInfos":[{"name":"n8n-nodes-base.code","version":1}]}`)
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), `"documentationUrl":"`+e.cfg.BasePath+`docs/nodes/n8n-nodes-base.code"`)
	require.Contains(t, string(b), "myNewField", "the Code node's default is n8n's example code")
	res, b = e.do(t, "GET", "docs/nodes", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), `href="`+e.cfg.BasePath+`docs/nodes/n8n-nodes-base.httpRequest"`)
	res, b = e.do(t, "GET", "docs/nodes/n8n-nodes-base.nope", "")
	require.Equal(t, 404, res.StatusCode)
	require.Contains(t, string(b), "n8n-nodes-base.nope")

	// Settings name the documentation and the issue tracker.
	_, b = e.do(t, "GET", "rest/settings", "")
	require.Contains(t, string(b), `"docsUrl":"`+e.cfg.BasePath+`docs/nodes"`)
	require.Contains(t, string(b), `"issuesUrl":"https://issues.example.com/flowmill"`)

	// Without a session the pages are not served.
	anon, err := (&http.Client{}).Get(e.base + "docs/nodes/n8n-nodes-base.set")
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, anon.Body)
	anon.Body.Close()
	require.Equal(t, 401, anon.StatusCode)
}

func TestRenderMarkdownEscapes(t *testing.T) {
	got := string(renderMarkdown("A <b>x</b> and `<i>` *em*\n\n## Ex <a>\n\n```js\nif (a < b) {}\n```"))
	require.Equal(t, "<p>A &lt;b&gt;x&lt;/b&gt; and <code>&lt;i&gt;</code> <em>em</em></p>\n<h2>Ex &lt;a&gt;</h2>\n<pre><code>if (a &lt; b) {}</code></pre>\n", got)
}
