package sort_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/sort"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, sort.Type(), version, params, input...)
}

func TestSort(t *testing.T) {
	t.Parallel()
	in := []m{{"c": "b", "n": 1.0}, {"c": "A", "n": 2.0}, {"c": "a", "n": 3.0}}

	got, err := run(t, 1, m{"sortFieldsUi": m{"sortField": l{m{"fieldName": "c"}, m{"fieldName": "n", "order": "descending"}}}}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"c": "a", "n": 3.0}, {"c": "A", "n": 2.0}, {"c": "b", "n": 1.0}}, got, "strings compare without case")

	got, err = run(t, 1, m{"type": "code", "code": "return b.json.n - a.json.n"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"c": "a", "n": 3.0}, {"c": "A", "n": 2.0}, {"c": "b", "n": 1.0}}, got)

	got, err = run(t, 1, m{"type": "random"}, in...)
	require.NoError(t, err)
	require.ElementsMatch(t, in, got)

	_, err = run(t, 1, m{"sortFieldsUi": m{"sortField": l{m{"fieldName": "nope"}}}}, in...)
	require.ErrorContains(t, err, "Couldn't find the field 'nope' in the input data")
}
