package expr

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestResolve(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := &Context{Items: []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"id": 7.0})}}}
	params := map[string]any{
		"url":     "=https://example.com/{{ $json.id }}",
		"count":   "={{ $json.id * 2 }}",
		"literal": "no expression",
		"n":       3.0,
		"options": map[string]any{
			"headers": []any{
				map[string]any{"name": "a", "value": "={{ $json.id > 5 }}"},
				"={{ [1, 2] }}",
			},
		},
	}
	got, err := e.Resolve(params, c)
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"url":     "https://example.com/7",
		"count":   int64(14),
		"literal": "no expression",
		"n":       3.0,
		"options": map[string]any{
			"headers": []any{
				map[string]any{"name": "a", "value": true},
				[]any{int64(1), int64(2)},
			},
		},
	}, got)
	require.Equal(t, "={{ $json.id > 5 }}", params["options"].(map[string]any)["headers"].([]any)[0].(map[string]any)["value"], "the input is not changed")

	got, err = e.Resolve("={{ 1 }}", c)
	require.NoError(t, err)
	require.Equal(t, int64(1), got)
}

func TestResolveNamesParameter(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	_, err := e.Resolve(map[string]any{"options": map[string]any{"headers": []any{"ok", "={{ nope }}"}}}, &Context{})
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "options.headers[1]", ee.Parameter)
	require.Equal(t, "={{ nope }}", ee.Expression)
	require.Equal(t, `ReferenceError: nope is not defined (parameter "options.headers[1]", expression "={{ nope }}")`, err.Error())
}

func TestIsExpression(t *testing.T) {
	t.Parallel()
	require.True(t, IsExpression("={{ 1 }}"))
	require.True(t, IsExpression("=text"))
	require.False(t, IsExpression("{{ 1 }}"))
	require.False(t, IsExpression(""))
	require.False(t, IsExpression(1))
	require.False(t, IsExpression(nil))
}
