package functionitem_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/functionitem"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestFunctionItem(t *testing.T) {
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
		{"returns new json", `return {double: item.a * 2, index: $itemIndex}`, two(),
			[]m{{"double": int64(2), "index": int64(0)}, {"double": int64(4), "index": int64(1)}}, ""},
		{"$json and $item", `return {same: $json.a === item.a, other: $item(1).$json.a}`, two(),
			[]m{{"same": true, "other": 2.0}, {"same": true, "other": 2.0}}, ""},
		{"item can be declared again", `const item = {x: 1}; return item`, two(), []m{{"x": int64(1)}, {"x": int64(1)}}, ""},
		{"await", `item.v = await Promise.resolve(item.a); return item`, two(),
			[]m{{"a": 1.0, "v": 1.0}, {"a": 2.0, "v": 2.0}}, ""},
		{"nothing returned fails", `item.x = 1`, two(), nil, "No data got returned. Always an object has to be returned!"},
		{"null fails", `return null`, two(), nil, "No data got returned. Always an object has to be returned!"},
		{"a number fails", `return 1`, two(), nil, "The json-property has to be an object!"},
		{"errors carry line and item", "if (item.a === 2) {\n  throw new Error('two')\n}\nreturn item", two(), nil,
			"two [Line 2 | Item Index: 1]"},
		{"empty input", `return item`, []workflow.Item{}, []m{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := m{}
			if tc.code != nil {
				p["functionCode"] = tc.code
			}
			out, err := nodetest.Run(t, functionitem.Type(), nodetest.Node{Parameters: p}, tc.input)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			nodetest.RequireJSONs(t, tc.want, out[0])
		})
	}
}

func TestFunctionItemBinaryAndPairing(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{
		{JSON: workflow.ObjectFromMap(m{"nested": m{"a": 1.0}}), Binary: map[string]workflow.BinaryData{"data": {Data: "aGk=", MimeType: "text/plain", FileName: "a.txt"}}},
		{JSON: workflow.ObjectFromMap(m{})},
	}
	code := `const b = getBinaryData();
if (b) { b.data.fileName = "b.txt"; }
else { setBinaryData({file: {data: "eA==", mimeType: "text/plain"}}); }
item.nested = {a: 2};
return item;`
	out, err := nodetest.Run(t, functionitem.Type(), nodetest.Node{Parameters: m{"functionCode": code}}, in)
	require.NoError(t, err)
	require.Equal(t, m{"a": 1.0}, workflow.ToMaps(in[0].JSON.Get("nested")), "the input is not changed")
	require.Equal(t, "a.txt", in[0].Binary["data"].FileName)
	require.Equal(t, "b.txt", out[0][0].Binary["data"].FileName)
	require.Equal(t, "aGk=", out[0][0].Binary["data"].Data)
	require.Equal(t, "eA==", out[0][1].Binary["file"].Data)
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)
}

func TestFunctionItemContinueOnFail(t *testing.T) {
	t.Parallel()
	code := "if (item.a === 1) throw new Error('one');\nreturn item"
	out, err := nodetest.Run(t, functionitem.Type(), nodetest.Node{Parameters: m{"functionCode": code}, ContinueOnFail: true},
		nodetest.Items(m{"a": 1.0}, m{"a": 2.0}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "one"}, {"a": 2.0}}, nodetest.JSONs(out[0]))
}
