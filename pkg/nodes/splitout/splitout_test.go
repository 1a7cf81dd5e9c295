package splitout_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/splitout"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, splitout.Type(), version, params, input...)
}

func TestSplitOut(t *testing.T) {
	t.Parallel()
	in := m{"id": 1.0, "list": l{m{"a": 1.0}, "x"}, "obj": m{"p": 1.0, "q": 2.0}}

	got, err := run(t, 1, m{"fieldToSplitOut": "list"}, in)
	require.NoError(t, err)
	require.Equal(t, []m{{"a": 1.0}, {"list": "x"}}, got)

	got, err = run(t, 1, m{"fieldToSplitOut": "obj", "include": "allOtherFields", "options": m{"destinationFieldName": "v"}}, in)
	require.NoError(t, err)
	require.Equal(t, []m{{"id": 1.0, "list": l{m{"a": 1.0}, "x"}, "v": 1.0}, {"id": 1.0, "list": l{m{"a": 1.0}, "x"}, "v": 2.0}}, got)

	got, err = run(t, 1, m{"fieldToSplitOut": "id", "include": "selectedOtherFields", "fieldsToInclude": "obj.p"}, in)
	require.NoError(t, err)
	require.Equal(t, []m{{"id": 1.0, "obj.p": 1.0}}, got, "a single value is one item")

	got, err = run(t, 1, m{"fieldToSplitOut": "missing"}, in)
	require.NoError(t, err)
	require.Empty(t, got)
}
