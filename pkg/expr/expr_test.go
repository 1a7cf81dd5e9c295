package expr

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func newTestEvaluator(t testing.TB) *Evaluator {
	t.Helper()
	e, err := New(Options{})
	require.NoError(t, err)
	return e
}

func TestEvaluateTypes(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := &Context{Items: []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"a": 1.0, "o": map[string]any{"x": "y"}})}}}
	for _, tc := range []struct {
		expr string
		want any
	}{
		{"={{ $json.a + 1 }}", int64(2)},
		{"={{ $json.a + 0.5 }}", 1.5},
		{"={{ $json.o }}", map[string]any{"x": "y"}},
		{"={{ [1, 'a', true, null] }}", []any{int64(1), "a", true, nil}},
		{"={{ true }}", true},
		{"={{ null }}", nil},
		{"={{ undefined }}", nil},
		{"=  {{ 5 }}  ", int64(5)},
		{"=a {{ $json.o }} b", `a {"x":"y"} b`},
		{"=n={{ 1 + 1 }}, {{ null }}|{{ [1,2] }}", "n=2, |[1,2]"},
		{"=plain text", "plain text"},
		{`={{ "it's".replace(/'/g, "") }}`, "its"},
		{"=items: {{ $input.all() }}", `items: [{"json":{"a":1,"o":{"x":"y"}}}]`},
		{"not an expression {{ 1 }}", "not an expression {{ 1 }}"},
	} {
		got, err := e.Evaluate(tc.expr, c)
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, workflow.ToMaps(got), tc.expr)
	}
	got, err := e.Evaluate(42, c)
	require.NoError(t, err)
	require.Equal(t, 42, got)
}

func TestEvaluateErrorNamesExpression(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	_, err := e.Evaluate("={{ foo }}", &Context{})
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "ReferenceError: foo is not defined", ee.Message)
	require.Equal(t, "={{ foo }}", ee.Expression)
	require.Contains(t, err.Error(), "={{ foo }}")
}

func TestEvaluateFunctionResult(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	_, err := e.Evaluate(`={{ "abc".toUpperCase }}`, nil)
	require.ErrorContains(t, err, `Expression resolved to a function. Please add "()"`)
}

// LenientErrors gives n8n 0.x's behaviour: JavaScript errors make their segment undefined.
func TestLenientErrors(t *testing.T) {
	t.Parallel()
	e, err := New(Options{LenientErrors: true})
	require.NoError(t, err)
	for _, tc := range []struct {
		expr string
		want any
	}{
		{`={{ $json.missing.deeper }}`, nil},
		{`=a{{ nope }}b`, "ab"},
		{`={{ $node["Orphan"].json.x }}`, nil},
		{`={{ $json.name }}`, "b"},
	} {
		got, err := e.Evaluate(tc.expr, fixtureContext())
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, got, tc.expr)
	}
	for _, expr := range []string{`={{ $("Orphan").item }}`, `={{ 1 + }}`} {
		_, err := e.Evaluate(expr, fixtureContext())
		require.Error(t, err, expr)
	}
	c := fixtureContext()
	c.EnvBlocked = true
	_, err = e.Evaluate(`={{ $env.HOME }}`, c)
	require.ErrorContains(t, err, "Environment variable access got disabled")
}

func TestEvaluateResultIsDetached(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := fixtureContext()
	got, err := e.Evaluate("={{ $json }}", c)
	require.NoError(t, err)
	got.(*workflow.Object).Set("name", "changed")
	got.(*workflow.Object).Get("tags").([]any)[0] = "changed"
	require.Equal(t, "b", c.Items[0].JSON.Get("name"))
	require.Equal(t, "t1", c.Items[0].JSON.Get("tags").([]any)[0])

	got, err = e.Evaluate("={{ $input.all() }}", c)
	require.NoError(t, err)
	got.([]any)[0].(*workflow.Object).Get("json").(*workflow.Object).Set("name", "changed")
	require.Equal(t, "b", c.Items[0].JSON.Get("name"))
}
