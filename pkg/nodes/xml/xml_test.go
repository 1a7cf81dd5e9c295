package xml_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/xml"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestXMLToJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		doc     string
		options m
		want    m
		keys    []string // key order of the root element's object, when set
	}{
		{"text elements", `<a><b>1</b><c>x</c></a>`, nil, m{"a": m{"b": "1", "c": "x"}}, []string{"b", "c"}},
		{"attributes merged before children", `<a id="7"><b>1</b></a>`, nil, m{"a": m{"id": "7", "b": "1"}}, []string{"id", "b"}},
		{"repeated children become a list", `<a><b>1</b><b>2</b></a>`, nil, m{"a": m{"b": []any{"1", "2"}}}, nil},
		{"text with attributes under the character key first", `<a id="1">hi</a>`, nil, m{"a": m{"_": "hi", "id": "1"}}, []string{"_", "id"}},
		{"empty element", `<a><b/></a>`, nil, m{"a": m{"b": ""}}, nil},
		{"blank text is dropped", "<a>\n  <b>1</b>\n</a>", nil, m{"a": m{"b": "1"}}, nil},
		{"entities and CDATA", `<a><b>x &amp; y</b><c><![CDATA[<p>]]></c></a>`, nil, m{"a": m{"b": "x & y", "c": "<p>"}}, nil},
		{"namespaces keep their prefix", `<x:a xmlns:x="urn:x"><x:b>1</x:b></x:a>`, nil, m{"x:a": m{"xmlns:x": "urn:x", "x:b": "1"}}, nil},
		{"attributes apart", `<a id="1"><b>2</b></a>`, m{"mergeAttrs": false}, m{"a": m{"$": m{"id": "1"}, "b": "2"}}, nil},
		{"attribute and character keys", `<a id="1">t</a>`, m{"mergeAttrs": false, "attrkey": "@", "charkey": "#"}, m{"a": m{"#": "t", "@": m{"id": "1"}}}, nil},
		{"ignore attributes", `<a id="1"><b>2</b></a>`, m{"ignoreAttrs": true}, m{"a": m{"b": "2"}}, nil},
		{"explicit array", `<a id="1"><b>2</b></a>`, m{"explicitArray": true}, m{"a": m{"id": []any{"1"}, "b": []any{"2"}}}, nil},
		{"no explicit root", `<a><b>2</b></a>`, m{"explicitRoot": false}, m{"b": "2"}, nil},
		{"normalize tags", `<A><B>2</B></A>`, m{"normalizeTags": true}, m{"a": m{"b": "2"}}, nil},
		{"trim", `<a><b>  2  </b></a>`, m{"trim": true}, m{"a": m{"b": "2"}}, nil},
		{"normalize", `<a><b> x   y </b></a>`, m{"normalize": true}, m{"a": m{"b": "x y"}}, nil},
		{"untrimmed by default", `<a><b> x </b></a>`, nil, m{"a": m{"b": " x "}}, nil},
		{"mixed text is joined", `<a>x<b>1</b>y</a>`, nil, m{"a": m{"_": "xy", "b": "1"}}, nil},
		{"declaration, comments and BOM", "\uFEFF<?xml version=\"1.0\"?><!-- c --><a>1</a>", nil, m{"a": "1"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"mode": "xmlToJson"}
			if tc.options != nil {
				params["options"] = tc.options
			}
			out, err := nodetest.Run(t, xml.Type(), nodetest.Node{Parameters: params}, nodetest.Items(m{"data": tc.doc}))
			require.NoError(t, err)
			require.Equal(t, tc.want, workflow.ToMaps(out[0][0].JSON))
			if tc.keys != nil {
				for _, root := range out[0][0].JSON.All() {
					obj, ok := workflow.AsObject(root)
					require.True(t, ok)
					require.Equal(t, tc.keys, obj.Keys())
				}
			}
		})
	}
}

func TestJSONToXML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		json    *workflow.Object
		options m
		want    string
	}{
		{"one key is the root", workflow.ObjectOf("data", workflow.ObjectOf("id", 1.0, "name", "Adam")), m{"headless": true},
			"<data>\n  <id>1</id>\n  <name>Adam</name>\n</data>"},
		{"several keys under root", workflow.ObjectOf("a", 1.0, "b", true), nil,
			"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<root>\n  <a>1</a>\n  <b>true</b>\n</root>"},
		{"root name", workflow.ObjectOf("a", "x"), m{"headless": true, "rootName": "doc"}, "<doc>\n  <a>x</a>\n</doc>"},
		{"lists repeat the element", workflow.ObjectOf("r", workflow.ObjectOf("i", []any{"a", 2.0, workflow.ObjectOf("k", "v")})), m{"headless": true},
			"<r>\n  <i>a</i>\n  <i>2</i>\n  <i>\n    <k>v</k>\n  </i>\n</r>"},
		{"attributes and text", workflow.ObjectOf("r", workflow.ObjectOf("$", workflow.ObjectOf("id", 1.0, "q", `a"b`), "_", "t")), m{"headless": true},
			`<r id="1" q="a&quot;b">t</r>`},
		{"empty and null", workflow.ObjectOf("r", workflow.ObjectOf("e", "", "n", nil, "o", workflow.NewObject(0))), m{"headless": true},
			"<r>\n  <e/>\n  <n/>\n  <o/>\n</r>"},
		{"escaping", workflow.ObjectOf("r", workflow.ObjectOf("t", "a < b & c > d")), m{"headless": true},
			"<r>\n  <t>a &lt; b &amp; c &gt; d</t>\n</r>"},
		{"CDATA when needed", workflow.ObjectOf("r", workflow.ObjectOf("t", "<p>]]>", "u", "plain")), m{"headless": true, "cdata": true},
			"<r>\n  <t><![CDATA[<p>]]]]><![CDATA[>]]></t>\n  <u>plain</u>\n</r>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"mode": "jsonToxml", "dataPropertyName": "xml"}
			if tc.options != nil {
				params["options"] = tc.options
			}
			out, err := nodetest.Run(t, xml.Type(), nodetest.Node{Parameters: params}, []workflow.Item{{JSON: tc.json}})
			require.NoError(t, err)
			require.Equal(t, m{"xml": tc.want}, workflow.ToMaps(out[0][0].JSON))
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params m
		item   m
		want   string
	}{
		{"missing property", m{"mode": "xmlToJson"}, m{"other": "<a/>"}, `Item has no JSON property called "data"`},
		{"mismatched tag", m{"mode": "xmlToJson"}, m{"data": "<a><b></a>"}, "Unexpected close tag\nLine: 0"},
		{"unclosed", m{"mode": "xmlToJson"}, m{"data": "<a><b>"}, "Unclosed root tag"},
		{"text before the root", m{"mode": "xmlToJson"}, m{"data": "hello <a/>"}, "Non-whitespace before first tag."},
		{"second root", m{"mode": "xmlToJson"}, m{"data": "<a/><b/>"}, "Text data outside of root node."},
		{"invalid element name", m{"mode": "jsonToxml"}, m{"first name": "x", "b": 1.0}, "Invalid character in name: first name"},
	}
	for _, tc := range tests {
		_, err := nodetest.RunOne(t, xml.Type(), 1, tc.params, tc.item)
		require.Equal(t, tc.want, nodetest.NodeError(t, err).Message, tc.name)
	}
	// With Continue On Fail n8n's node leaves a failed item out.
	out, err := nodetest.Run(t, xml.Type(), nodetest.Node{Parameters: m{"mode": "xmlToJson"}, ContinueOnFail: true},
		nodetest.Items(m{"data": "<a>"}, m{"data": "<b>1</b>"}))
	require.NoError(t, err)
	require.Equal(t, []m{{"b": "1"}}, nodetest.JSONs(out[0]))
}
