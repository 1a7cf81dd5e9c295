package nodetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// RequireJSONs requires the items' JSON objects to be want, item by item, compared as
// workflow.DeepEqual does: numbers by value whatever their Go type, as scripts give int64 where
// JSON gives float64.
func RequireJSONs(t testing.TB, want []map[string]any, items []workflow.Item) {
	t.Helper()
	got := JSONs(items)
	require.Len(t, got, len(want), "got %v", got)
	for i := range want {
		require.True(t, workflow.DeepEqual(want[i], got[i]), "item %d: want %v got %v", i, want[i], got[i])
	}
}

// NodeError requires err to be, or to wrap, a *nodes.Error and returns it.
func NodeError(t testing.TB, err error) *nodes.Error {
	t.Helper()
	var ne *nodes.Error
	require.ErrorAs(t, err, &ne)
	return ne
}
