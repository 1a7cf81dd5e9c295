package aggregate_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/aggregate"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, aggregate.Type(), version, params, input...)
}

func TestAggregate(t *testing.T) {
	t.Parallel()
	in := []m{{"id": 1.0, "tags": l{"a", nil}}, {"id": 2.0, "tags": l{"b"}}, {"other": true}}

	got, err := run(t, 1, m{"fieldsToAggregate": m{"fieldToAggregate": l{m{"fieldToAggregate": "id", "renameField": true, "outputFieldName": "ids"}}}}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"ids": l{1.0, 2.0}}}, got, "individual fields is the default; missing values are left out")

	got, err = run(t, 1, m{"fieldsToAggregate": m{"fieldToAggregate": l{m{"fieldToAggregate": "tags"}}},
		"options": m{"mergeLists": true, "keepMissing": true}}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"tags": l{"a", nil, "b", nil}}}, got)

	got, err = run(t, 1, m{"aggregate": "aggregateAllItemData", "include": "specifiedFields", "fieldsToInclude": "id"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"data": l{m{"id": 1.0}, m{"id": 2.0}}}}, got, "items left empty are dropped")

	_, err = run(t, 1, m{"fieldsToAggregate": m{"fieldToAggregate": l{m{"fieldToAggregate": "id"}, m{"fieldToAggregate": "tags", "renameField": true, "outputFieldName": "id"}}}}, in...)
	require.ErrorContains(t, err, "The 'id' output field is used more than once")
}
