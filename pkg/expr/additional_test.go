package expr_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/expr"
)

func TestAdditionalGlobals(t *testing.T) {
	t.Parallel()
	e, err := expr.New(expr.Options{})
	require.NoError(t, err)
	c := &expr.Context{Additional: map[string]any{
		"$response":  map[string]any{"body": map[string]any{"next": "http://x/2"}, "statusCode": 200.0},
		"$pageCount": 2,
	}}
	tests := []struct {
		expression string
		want       any
	}{
		{"={{ $response.body.next }}", "http://x/2"},
		{"={{ $pageCount + 1 }}", int64(3)},
		{"={{ typeof $request }}", "undefined"},
	}
	for _, tc := range tests {
		got, err := e.Evaluate(tc.expression, c)
		require.NoError(t, err, tc.expression)
		require.Equal(t, tc.want, got, tc.expression)
	}

	// Unset in an ordinary evaluation.
	got, err := e.Evaluate("={{ typeof $response }}", &expr.Context{})
	require.NoError(t, err)
	require.Equal(t, "undefined", got)

	// A TypeError fails unless the context is lenient, when the segment is undefined.
	_, err = e.Evaluate("={{ $request.body.x }}", c)
	require.Error(t, err)
	c.Lenient = true
	got, err = e.Evaluate("={{ $request.body.x }}", c)
	require.NoError(t, err)
	require.Nil(t, got)
	got, err = e.Evaluate("=a{{ $request.body.x }}b", c)
	require.NoError(t, err)
	require.Equal(t, "ab", got)
}
