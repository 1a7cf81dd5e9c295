package removeduplicates_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/removeduplicates"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, removeduplicates.Type(), version, params, input...)
}

func TestRemoveDuplicates(t *testing.T) {
	t.Parallel()
	in := []m{{"name": "a", "age": 1.0}, {"name": "a", "age": 2.0}, {"name": "a", "age": 1.0}, {"name": "b", "age": 1.0}}

	got, err := run(t, 1, m{}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"name": "a", "age": 1.0}, {"name": "a", "age": 2.0}, {"name": "b", "age": 1.0}}, got)

	got, err = run(t, 1, m{"compare": "selectedFields", "fieldsToCompare": "name"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"name": "a", "age": 1.0}, {"name": "b", "age": 1.0}}, got)

	got, err = run(t, 1, m{"compare": "allFieldsExcept", "fieldsToExclude": "name", "options": m{"removeOtherFields": true}}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"age": 1.0}, {"age": 2.0}}, got)

	_, err = run(t, 1, m{"compare": "selectedFields", "fieldsToCompare": "missing"}, in...)
	require.ErrorContains(t, err, "'missing' field is missing from some input items")

	mixed := []m{{"v": 1.0}, {"v": "1"}}
	_, err = run(t, 1, m{}, mixed...)
	require.ErrorContains(t, err, "'v' isn't always the same type")
	got, err = run(t, 1.1, m{}, mixed...)
	require.NoError(t, err)
	require.Equal(t, mixed, got, "1.1 compares values of different types as different")
}
