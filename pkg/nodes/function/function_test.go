package function_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/function"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestFunction(t *testing.T) {
	t.Parallel()
	two := func() []workflow.Item { return nodetest.Items(m{"a": 1.0}, m{"a": 2.0}) }
	tests := []struct {
		name    string
		code    any // nil runs the default code
		input   []workflow.Item
		want    []m
		wantErr string
	}{
		{"default code adds a field", nil, two(), []m{{"a": 1.0, "myNewField": int64(1)}, {"a": 2.0, "myNewField": int64(1)}}, ""},
		{"plain objects are wrapped", `return [{id: 1}, {id: 2}]`, two(), []m{{"id": int64(1)}, {"id": int64(2)}}, ""},
		{"a lone object is one item", `return {success: true}`, two(), []m{{"success": true}}, ""},
		{"items keep json and can grow", "items.push({json: {n: items.length}});\nreturn items", two(),
			[]m{{"a": 1.0}, {"a": 2.0}, {"n": int64(2)}}, ""},
		{"items can be declared again", `let items = [{json: {x: 1}}]; return items`, two(), []m{{"x": int64(1)}}, ""},
		{"empty list", `return []`, two(), []m{}, ""},
		{"$item reads other items", `return [{other: $item(1).$json.a, first: $json.a}]`, two(),
			[]m{{"other": 2.0, "first": 1.0}}, ""},
		{"$node and $parameter", `return [{code: typeof $parameter.functionCode}]`, two(), []m{{"code": "string"}}, ""},
		{"getNodeParameter", `return [{len: getNodeParameter("functionCode", 0).length > 0}]`, two(), []m{{"len": true}}, ""},
		{"nothing returned fails", `items[0].json.x = 1`, two(), nil, "No data got returned. Always return an Array of items!"},
		{"a string fails", `return "x"`, two(), nil, "Always an Array of items has to be returned!"},
		{"json must be an object", `return [{json: 5}]`, two(), nil, "The json-property has to be an object!"},
		{"binary must be an object", `return [{json: {}, binary: 5}]`, two(), nil, "The binary-property has to be an object!"},
		{"mixed shapes fail", `return [{json: {}}, {a: 1}]`, two(), nil, "Inconsistent item format"},
		{"errors carry the line", "const a = 1;\nthrow new Error('boom');", two(), nil, "boom [Line 2]"},
		{"reference errors", "\nreturn foo", two(), nil, "foo is not defined [Line 2]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := m{}
			if tc.code != nil {
				p["functionCode"] = tc.code
			}
			out, err := nodetest.Run(t, function.Type(), nodetest.Node{Parameters: p}, tc.input)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			nodetest.RequireJSONs(t, tc.want, out[0])
		})
	}
}

func TestFunctionContinueOnFailAndInput(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"nested": m{"a": 1.0}}), Binary: map[string]workflow.BinaryData{"data": {Data: "aGk=", MimeType: "text/plain"}}}}
	out, err := nodetest.Run(t, function.Type(), nodetest.Node{Parameters: m{"functionCode": `throw new Error("bad")`}, ContinueOnFail: true}, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "bad"}}, nodetest.JSONs(out[0]))

	out, err = nodetest.Run(t, function.Type(), nodetest.Node{Parameters: m{"functionCode": `items[0].json.nested.a = 2; return items`}}, in)
	require.NoError(t, err)
	require.Equal(t, m{"a": 1.0}, workflow.ToMaps(in[0].JSON.Get("nested")), "the input is not changed")
	require.Equal(t, int64(2), out[0][0].JSON.Get("nested").(*workflow.Object).Get("a"))
	require.Equal(t, "aGk=", out[0][0].Binary["data"].Data, "binary data passes through")
}

func TestFunctionStaticData(t *testing.T) {
	t.Parallel()
	code := `const s = getWorkflowStaticData("node"); s.n = (s.n || 0) + 1; return [{n: s.n}]`
	out, err := nodetest.Run(t, function.Type(), nodetest.Node{Parameters: m{"functionCode": code}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, int64(1), out[0][0].JSON.Get("n"))
}
