package htmlextract_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/htmlextract"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func values(rows ...m) m {
	list := []any{}
	for _, r := range rows {
		list = append(list, r)
	}
	return m{"values": list}
}

const page = `<html><body><h1>  Title </h1><ul><li class="a">one</li><li class="b">two</li></ul>
<a href="/x">link</a><input name="q" value="search"><select><option value="1">A</option><option value="2" selected>B</option></select>
<textarea>notes</textarea><div id="d"><b>bold</b> text</div></body></html>`

func TestHTMLExtract(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		params  m
		input   m
		want    []m
		wantErr string
	}{
		{"text is trimmed", m{"extractionValues": values(m{"key": "title", "cssSelector": "h1"})}, m{"data": page},
			[]m{{"title": "Title"}}, ""},
		{"trimming off", m{"extractionValues": values(m{"key": "title", "cssSelector": "h1"}), "options": m{"trimValues": false}},
			m{"data": page}, []m{{"title": "  Title "}}, ""},
		{"text of all matches is joined", m{"extractionValues": values(m{"key": "items", "cssSelector": "li"})}, m{"data": page},
			[]m{{"items": "onetwo"}}, ""},
		{"return array", m{"extractionValues": values(m{"key": "items", "cssSelector": "li", "returnArray": true})}, m{"data": page},
			[]m{{"items": []any{"one", "two"}}}, ""},
		{"attribute, html, value in key order", m{"extractionValues": values(
			m{"key": "href", "cssSelector": "a", "returnValue": "attribute", "attribute": "href"},
			m{"key": "inner", "cssSelector": "#d", "returnValue": "html"},
			m{"key": "q", "cssSelector": "input", "returnValue": "value"},
			m{"key": "sel", "cssSelector": "select", "returnValue": "value"},
			m{"key": "notes", "cssSelector": "textarea", "returnValue": "value"},
		)}, m{"data": page}, []m{{"href": "/x", "inner": "<b>bold</b> text", "q": "search", "sel": "2", "notes": "notes"}}, ""},
		{"a select without a selected option gives its first", m{"extractionValues": values(
			m{"key": "s", "cssSelector": "select", "returnValue": "value"})},
			m{"data": `<select><option value="a">A</option><option value="b">B</option></select>`}, []m{{"s": "a"}}, ""},
		{"nothing found", m{"extractionValues": values(
			m{"key": "t", "cssSelector": "h6"},
			m{"key": "a", "cssSelector": "h6", "returnValue": "attribute", "attribute": "x"},
			m{"key": "h", "cssSelector": "h6", "returnValue": "html"},
		)}, m{"data": page}, []m{{"t": "", "a": nil, "h": nil}}, ""},
		{"dot notation and a list of documents", m{"dataPropertyName": "body.pages", "extractionValues": values(m{"key": "h", "cssSelector": "h1"})},
			m{"body": m{"pages": []any{"<h1>a</h1>", "<h1>b</h1>"}}}, []m{{"h": "a"}, {"h": "b"}}, ""},
		{"missing property", m{"extractionValues": values(m{"key": "h", "cssSelector": "h1"})}, m{"other": 1.0}, nil,
			`No property named "data" exists!`},
		{"invalid selector", m{"extractionValues": values(m{"key": "h", "cssSelector": "h1["})}, m{"data": page}, nil,
			`Invalid CSS selector "h1["`},
		{"no binary", m{"sourceData": "binary", "extractionValues": values(m{"key": "h", "cssSelector": "h1"})}, m{"data": page}, nil,
			"No item does not contain binary data!"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, htmlextract.Type(), nodetest.Node{Parameters: tc.params}, nodetest.Items(tc.input))
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			got := nodetest.JSONs(out[0])
			require.Len(t, got, len(tc.want))
			for i := range tc.want {
				require.True(t, workflow.DeepEqual(tc.want[i], got[i]), "want %v got %v", tc.want[i], got[i])
			}
		})
	}
}

func TestHTMLExtractBinaryAndOrder(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{
		"data": {Data: base64.StdEncoding.EncodeToString([]byte("<p class=z>é</p><h1>h</h1>")), MimeType: "text/html"}}}}
	params := m{"sourceData": "binary", "extractionValues": values(
		m{"key": "z", "cssSelector": "p", "returnValue": "attribute", "attribute": "class"}, m{"key": "a", "cssSelector": "p"})}
	out, err := nodetest.Run(t, htmlextract.Type(), nodetest.Node{Parameters: params}, in)
	require.NoError(t, err)
	require.Equal(t, [][]string{{"z", "a"}}, nodetest.Keys(out[0]))
	require.Equal(t, []map[string]any{{"z": "z", "a": "é"}}, nodetest.JSONs(out[0]))

	out, err = nodetest.Run(t, htmlextract.Type(), nodetest.Node{Parameters: m{"extractionValues": values(m{"key": "h", "cssSelector": "h1"})},
		ContinueOnFail: true}, nodetest.Items(m{"x": 1.0}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": `No property named "data" exists!`}}, nodetest.JSONs(out[0]))
}
