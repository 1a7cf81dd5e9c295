package expr

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// orderedItem is {id, name, score, tags, nested: {z, a}}: not alphabetical, so a sorted copy
// anywhere shows.
func orderedItem(t *testing.T) workflow.Item {
	t.Helper()
	var it workflow.Item
	require.NoError(t, json.Unmarshal([]byte(`{"json":{"id":1,"name":"Ann","score":9.5,"tags":["x"],"nested":{"z":1,"a":2}}}`), &it))
	return it
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestScriptsSeeAndKeepKeyOrder(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := &Context{Items: []workflow.Item{orderedItem(t)}}

	// Scripts enumerate item data in its order, nested objects too.
	got, err := e.RunScript(t.Context(), `return [Object.keys($json), Object.keys($json.nested), JSON.stringify($input.first().json)]`, c, nil, nil)
	require.NoError(t, err)
	require.Equal(t, `[["id","name","score","tags","nested"],["z","a"],"{\"id\":1,\"name\":\"Ann\",\"score\":9.5,\"tags\":[\"x\"],\"nested\":{\"z\":1,\"a\":2}}"]`, marshal(t, got))

	// What a script returns keeps the order it was built in: spread first, new keys last.
	got, err = e.RunScript(t.Context(), `return {...$json, added: true, nested: {...$json.nested, b: 3}}`, c, nil, nil)
	require.NoError(t, err)
	require.Equal(t, `{"id":1,"name":"Ann","score":9.5,"tags":["x"],"nested":{"z":1,"a":2,"b":3},"added":true}`, marshal(t, got))

	// A script writing into the item's own data appends, as JavaScript does.
	got, err = e.RunScript(t.Context(), `const j = $input.first().json; j.last = 1; j.nested.c = 4; delete j.name; j.name = "again"; return j`, c, nil, nil)
	require.NoError(t, err)
	require.Equal(t, `{"id":1,"score":9.5,"tags":["x"],"nested":{"z":1,"a":2,"c":4},"last":1,"name":"again"}`, marshal(t, got))
	require.Equal(t, []string{"id", "name", "score", "tags", "nested"}, c.Items[0].JSON.Keys(), "scripts work on copies")
}

func TestExpressionsKeepKeyOrder(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := &Context{Items: []workflow.Item{orderedItem(t)}}
	for _, tc := range []struct{ expr, want string }{
		{"={{ $json }}", `{"id":1,"name":"Ann","score":9.5,"tags":["x"],"nested":{"z":1,"a":2}}`},
		{"={{ $json.nested }}", `{"z":1,"a":2}`},
		{"={{ {b: 1, a: {d: 1, c: 2}} }}", `{"b":1,"a":{"d":1,"c":2}}`},
		{"={{ Object.assign({}, $json.nested, {y: 0}) }}", `{"z":1,"a":2,"y":0}`},
		{"=x {{ $json.nested }}", `"x {\"z\":1,\"a\":2}"`},
	} {
		got, err := e.Evaluate(tc.expr, c)
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, marshal(t, got), tc.expr)
	}
}
