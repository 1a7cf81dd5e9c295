package limit_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/limit"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, limit.Type(), version, params, input...)
}

func TestLimit(t *testing.T) {
	t.Parallel()
	in := []m{{"n": 1.0}, {"n": 2.0}, {"n": 3.0}}

	got, err := run(t, 1, m{"maxItems": 2.0}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"n": 1.0}, {"n": 2.0}}, got)

	got, err = run(t, 1, m{"keep": "lastItems"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"n": 3.0}}, got, "one item by default")

	got, err = run(t, 1, m{"maxItems": 10.0}, in...)
	require.NoError(t, err)
	require.Len(t, got, 3)
}
