package html_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/html"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestGenerateTemplate(t *testing.T) {
	t.Parallel()
	got, err := nodetest.RunOne(t, html.Type(), 1.1, m{"operation": "generateHtmlTemplate",
		"html": "<p>{{ $json.name }}</p><i>{{ $json.n * 2 }}</i><b>{{ $json.missing }}</b>"},
		m{"name": "Ada", "n": 2.0}, m{"name": "Bob", "n": 1.5})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{
		{"html": "<p>Ada</p><i>4</i><b>undefined</b>"},
		{"html": "<p>Bob</p><i>3</i><b>undefined</b>"},
	}, got)

	got, err = nodetest.RunOne(t, html.Type(), 1.1, m{"operation": "generateHtmlTemplate",
		"html": "{{ $json.x }}|{{ $json.o }}|{{ $json.l }}|{{ $json.x }}"}, m{"x": nil, "o": m{"a": 1.0}, "l": []any{1.0, "b"}})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"html": "null|[object Object]|1,b|null"}}, got)
}

func TestExtract(t *testing.T) {
	t.Parallel()
	doc := "<div><h1>\n  A   title\n  here </h1><p></p></div>"
	values := m{"values": []any{m{"key": "t", "cssSelector": "h1"}, m{"key": "p", "cssSelector": "p"}}}
	got, err := nodetest.RunOne(t, html.Type(), 1.1, m{"operation": "extractHtmlContent", "dataPropertyName": "a.b",
		"extractionValues": values, "options": m{"cleanUpText": true}}, m{"a": m{"b": doc}})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"t": "A title here", "p": nil}}, got)

	// Version 1 reads a top-level key only.
	_, err = nodetest.RunOne(t, html.Type(), 1, m{"operation": "extractHtmlContent", "dataPropertyName": "a.b",
		"extractionValues": values}, m{"a": m{"b": doc}})
	require.ErrorContains(t, err, `No property named "a.b" exists!`)
	got, err = nodetest.RunOne(t, html.Type(), 1, m{"operation": "extractHtmlContent", "dataPropertyName": "a.b",
		"extractionValues": values}, m{"a.b": doc})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"t": "A   title\n  here", "p": nil}}, got)
	got, err = nodetest.RunOne(t, html.Type(), 1, m{"operation": "extractHtmlContent", "dataPropertyName": `["a.b"]`,
		"extractionValues": values, "options": m{"trimValues": false}}, m{"a.b": doc})
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"t": "\n  A   title\n  here ", "p": nil}}, got)
}

func TestTable(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"first_name": "Ada", "ok": true}, m{"age": 3.0, "first_name": "Bob", "ok": false})
	out, err := nodetest.Run(t, html.Type(), nodetest.Node{Version: 1.1, Parameters: m{"operation": "convertToHtmlTable",
		"options": m{"customStyling": true, "capitalize": true, "caption": "People", "rowAttributes": "class=r"}}}, in)
	require.NoError(t, err)
	require.Len(t, out[0], 1)
	require.Equal(t, "<table  ><caption>People</caption><thead  ><tr><th>First Name</th><th>Ok</th><th>Age</th></tr></thead>"+
		"<tbody><tr  class=r><td  >Ada</td><td  ><input type=\"checkbox\" checked=\"checked\"/></td><td  >undefined</td></tr>"+
		"<tr  class=r><td  >Bob</td><td  ><input type=\"checkbox\" /></td><td  >3</td></tr></tbody></table>",
		out[0][0].JSON.Get("table"))
	require.Equal(t, workflow.PairedItems{{Item: 0}, {Item: 1}}, *out[0][0].PairedItem)

	got, err := nodetest.RunOne(t, html.Type(), 1.1, m{"operation": "convertToHtmlTable"}, m{"a": 1.0})
	require.NoError(t, err)
	require.Contains(t, got[0]["table"], "<table style='border-spacing:0; font-family:helvetica,arial,sans-serif' >")
}
