package markdown_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/markdown"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any

func TestMarkdownToHTML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		md      string
		options m
		want    string
	}{
		{"heading ids and ellipsis", "# Hello World\n\nWait...", nil, "<h1 id=\"helloworld\">Hello World</h1>\n<p>Wait…</p>"},
		{"repeated ids", "# A\n\n# A", nil, "<h1 id=\"a\">A</h1>\n<h1 id=\"a-1\">A</h1>"},
		{"github ids, level start", "# Hello World", m{"ghCompatibleHeaderId": true, "headerLevelStart": 2.0}, "<h2 id=\"hello-world\">Hello World</h2>"},
		{"no ids", "## x", m{"noHeaderId": true}, "<h2>x</h2>"},
		{"links in new window", "[a](http://x)", m{"openLinksInNewWindow": true}, "<p><a href=\"http://x\" rel=\"noopener noreferrer\" target=\"_blank\">a</a></p>"},
		{"raw html kept", "<div>x</div>", nil, "<div>x</div>"},
		{"strikethrough", "~~x~~", m{"strikethrough": true}, "<p><del>x</del></p>"},
		{"complete document", "x", m{"completeHTMLDocument": true},
			"<!DOCTYPE HTML>\n<html>\n<head>\n<meta charset=\"utf-8\">\n</head>\n<body>\n<p>x</p>\n</body>\n</html>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"mode": "markdownToHtml", "markdown": tc.md}
			if tc.options != nil {
				params["options"] = tc.options
			}
			out, err := nodetest.RunOne(t, markdown.Type(), 1, params, m{"keep": 1.0})
			require.NoError(t, err)
			require.Equal(t, []m{{"keep": 1.0, "data": tc.want}}, out)
		})
	}
}

func TestHTMLToMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		html    string
		options m
		want    string
	}{
		{"blocks and inline", "<h2>Title</h2><p>Some <strong>bold</strong> and <em>it</em> <code>x</code></p>", nil,
			"## Title\n\nSome **bold** and _it_ `x`"},
		{"links and images", `<p><a href="http://a" title="t">A</a> <img src="i.png" alt="I"></p>`, nil, "[A](http://a \"t\") ![I](i.png)"},
		{"lists", "<ul><li>a</li><li>b<ol><li>c</li></ol></li></ul>", nil, "* a\n* b\n  1. c"},
		{"escaping", "<p>a*b_c</p><p># not a heading</p>", nil, "a\\*b\\_c\n\n\\# not a heading"},
		{"code block", "<pre><code class=\"language-go\">x := 1\n</code></pre>", nil, "```go\nx := 1\n```"},
		{"head and scripts left out", "<html><head><title>T</title><style>p{}</style></head><body><p>x</p><script>1</script></body></html>", nil, "x"},
		{"options", "<ul><li><b>a</b></li></ul>", m{"bulletMarker": "-", "strongDelimiter": "__"}, "- __a__"},
		{"text replacement", "<p>cat cat</p>", m{"textReplace": m{"values": []any{m{"pattern": "cat", "replacement": "dog"}}}}, "dog cat"},
		{"ignored elements by upper-case name", "<h1>x</h1><p>y</p>", m{"ignore": "H1"}, "y"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"html": tc.html, "destinationKey": "out.md"}
			if tc.options != nil {
				params["options"] = tc.options
			}
			out, err := nodetest.RunOne(t, markdown.Type(), 1, params, m{})
			require.NoError(t, err)
			require.Equal(t, []m{{"out": m{"md": tc.want}}}, out)
		})
	}
}
