package expr

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Script-mode item lists copy an item when it is first read; items never read are copied when
// the list is returned, so the execution's data never changes either way.
func TestScriptItemListCopiesLazily(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	items := make([]workflow.Item, 1000)
	for i := range items {
		items[i] = workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"i": float64(i), "nested": map[string]any{"a": 1.0}})}
	}
	c := &Context{Items: items, ItemIndex: 500}
	got, err := e.RunScript(t.Context(), `
		$input.item.json.nested.a = 2;
		const all = $input.all();
		const same = all[500] === $input.item && $json.nested.a === 2;
		all.push({json: {added: true}});
		all[1] = {json: {replaced: true}};
		return [all.length, same, all[500].json.nested.a, all[0].json.i];
	`, c, nil, nil)
	require.NoError(t, err)
	require.Equal(t, []any{int64(1001), true, int64(2), int64(0)}, got)
	require.Equal(t, 1.0, items[500].JSON.Get("nested").(*workflow.Object).Get("a"), "the execution's item is not changed")

	got, err = e.RunScript(t.Context(), `const all = $input.all(); all.length = 2; return all`, c, nil, nil)
	require.NoError(t, err)
	out := got.([]any)
	require.Len(t, out, 2)
	j := out[1].(*workflow.Object).Get("json").(*workflow.Object)
	j.Get("nested").(*workflow.Object).Set("a", 3.0)
	require.Equal(t, 1.0, items[1].JSON.Get("nested").(*workflow.Object).Get("a"), "returned items never read are copies")
	require.Len(t, items, 1000)

	// A list given as a global is copied the same way.
	got, err = e.RunScript(t.Context(), `items[3].json.i = -1; return [items[3].json.i, items.length]`, nil,
		map[string]any{"items": items}, nil)
	require.NoError(t, err)
	require.Equal(t, []any{int64(-1), int64(1000)}, got)
	require.Equal(t, 3.0, items[3].JSON.Get("i"))
}
