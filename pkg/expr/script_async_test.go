package expr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// An error thrown after an await rejects the script's promise; its line comes from the
// Error's stack.
func TestRunScriptAsyncErrorLine(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	_, err := e.RunScript(t.Context(), "const a = await Promise.resolve(1);\n\nthrow new TypeError('boom')", nil, nil, nil)
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "TypeError: boom", ee.Message)
	require.Equal(t, 3, ee.Line)

	_, err = e.RunScript(t.Context(), "await null; throw 'plain'", nil, nil, nil)
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "plain", ee.Message)
	require.Equal(t, 0, ee.Line)
}
