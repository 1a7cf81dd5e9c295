package summarize_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/summarize"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, summarize.Type(), version, params, input...)
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	in := []m{{"c": "x", "v": 1.0}, {"c": "y", "v": 2.0}, {"c": "x", "v": 4.0}}

	_, err := run(t, 1, m{}, in...)
	require.ErrorContains(t, err, "You need to add at least one aggregation to 'Fields to Summarize' with non empty 'Field'")

	got, err := run(t, 1, m{"fieldsToSummarize": m{"values": l{m{"aggregation": "sum", "field": "v"}, m{"aggregation": "max", "field": "v"}}},
		"fieldsToSplitBy": "c"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"c": "x", "sum_v": 5.0, "max_v": 4.0}, {"c": "y", "sum_v": 2.0, "max_v": 2.0}}, got)

	got, err = run(t, 1, m{"fieldsToSummarize": m{"values": l{m{"aggregation": "average", "field": "v"}}},
		"fieldsToSplitBy": "c", "options": m{"outputFormat": "singleItem"}}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"x": m{"average_v": 2.5}, "y": m{"average_v": 2.0}}}, got)
}
