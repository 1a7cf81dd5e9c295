package removeduplicates_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/removeduplicates"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestRemoveDuplicatesV2WithinInput(t *testing.T) {
	t.Parallel()
	in := []m{{"name": "a", "age": 1.0}, {"name": "a", "age": 2.0}, {"name": "a", "age": 1.0}}
	got, err := nodetest.RunOne(t, removeduplicates.TypeV2(), 2, m{}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"name": "a", "age": 1.0}, {"name": "a", "age": 2.0}}, got)
	got, err = nodetest.RunOne(t, removeduplicates.TypeV2(), 2, m{"operation": "removeDuplicateInputItems", "compare": "selectedFields", "fieldsToCompare": "name"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"name": "a", "age": 1.0}}, got)
}

// step is one execution of the node: its input and the items it keeps (by "id"), or an error.
type step struct {
	ids     []any
	kept    []any
	wantErr string
}

func TestRemoveDuplicatesV2PreviousExecutions(t *testing.T) {
	t.Parallel()
	seen := func(extra m) m {
		p := m{"operation": "removeItemsSeenInPreviousExecutions", "dedupeValue": "={{ $json.id }}"}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	higher := m{"operation": "removeItemsSeenInPreviousExecutions", "logic": "removeItemsUpToStoredIncrementalKey",
		"incrementalDedupeValue": "={{ $json.id }}"}
	later := m{"operation": "removeItemsSeenInPreviousExecutions", "logic": "removeItemsUpToStoredDate",
		"dateDedupeValue": "={{ $json.id }}"}
	tests := []struct {
		name   string
		params m
		steps  []step
	}{
		{"value is new", seen(nil), []step{
			{ids: []any{1.0, 2.0, 2.0}, kept: []any{1.0, 2.0, 2.0}},
			{ids: []any{2.0, 3.0, 1.0, 4.0}, kept: []any{3.0, 4.0}},
			{ids: []any{"3", 5.0}, kept: []any{5.0}},
		}},
		{"history size keeps the latest values", seen(m{"options": m{"historySize": 3.0}}), []step{
			{ids: []any{1.0, 2.0}, kept: []any{1.0, 2.0}},
			{ids: []any{3.0}, kept: []any{3.0}},
			{ids: []any{4.0}, wantErr: "The number of items to be processed exceeds the maximum history size. Please increase the history size or reduce the number of items to be processed."},
		}},
		{"history size above the limit", seen(m{"options": m{"historySize": 200000.0}}), []step{
			{ids: []any{1.0}, wantErr: "The history size 200000 is above the limit of 100000 values"},
		}},
		{"value is higher", higher, []step{
			{ids: []any{5.0, 3.0}, kept: []any{3.0, 5.0}},
			{ids: []any{6.0, 4.0, 5.0, 9.0, 7.0}, kept: []any{6.0, 7.0, 9.0}},
			{ids: []any{8.0}, kept: []any{}},
			{ids: []any{"x"}, wantErr: "The value 'x' is not a number. Please provide a number."},
		}},
		{"date is later", later, []step{
			{ids: []any{"2024-01-02T00:00:00Z"}, kept: []any{"2024-01-02T00:00:00Z"}},
			{ids: []any{"2024-01-01", "2024-02-01T10:00:00Z", "2024-01-02T00:00:00Z"}, kept: []any{"2024-02-01T10:00:00Z"}},
			{ids: []any{"soon"}, wantErr: "The value 'soon' is not a valid date. Please provide a valid date."},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			static := m{}
			for i, s := range tc.steps {
				out, err := runV2(t, tc.params, static, nil, s.ids)
				if s.wantErr != "" {
					require.Equal(t, s.wantErr, nodetest.NodeError(t, err).Message, "step %d", i)
					continue
				}
				require.NoError(t, err, "step %d", i)
				require.Equal(t, s.kept, ids(out), "step %d", i)
			}
		})
	}
}

func TestRemoveDuplicatesV2Scopes(t *testing.T) {
	t.Parallel()
	node, global := m{}, m{}
	wf := m{"operation": "removeItemsSeenInPreviousExecutions", "dedupeValue": "={{ $json.id }}", "options": m{"scope": "workflow"}}
	out, err := runV2(t, wf, node, global, []any{1.0})
	require.NoError(t, err)
	require.Equal(t, []any{1.0}, ids(out))
	require.Empty(t, node, "scope workflow keeps the history in the workflow's static data")
	require.Contains(t, global, "deduplication")

	// Another node with scope workflow shares it; scope node does not.
	out, err = runV2(t, wf, m{}, global, []any{1.0, 2.0})
	require.NoError(t, err)
	require.Equal(t, []any{2.0}, ids(out))
	nodeScope := m{"operation": "removeItemsSeenInPreviousExecutions", "dedupeValue": "={{ $json.id }}"}
	out, err = runV2(t, nodeScope, node, global, []any{1.0})
	require.NoError(t, err)
	require.Equal(t, []any{1.0}, ids(out))

	// Another logic over the same history is n8n's error, until the history is cleared.
	higher := m{"operation": "removeItemsSeenInPreviousExecutions", "logic": "removeItemsUpToStoredIncrementalKey",
		"incrementalDedupeValue": "={{ $json.id }}"}
	_, err = runV2(t, higher, node, nil, []any{1.0})
	require.Contains(t, nodetest.NodeError(t, err).Message, "incompatible setting of the ‘Keep Items Where’ parameter")
	out, err = runV2(t, m{"operation": "clearDeduplicationHistory"}, node, nil, []any{7.0})
	require.NoError(t, err)
	require.Equal(t, []any{7.0}, ids(out), "clearing passes the items on")
	require.Empty(t, node)
	out, err = runV2(t, higher, node, nil, []any{1.0})
	require.NoError(t, err)
	require.Equal(t, []any{1.0}, ids(out))
}

func runV2(t *testing.T, params, static, global m, idList []any) ([][]workflow.Item, error) {
	t.Helper()
	in := make([]m, len(idList))
	for i, id := range idList {
		in[i] = m{"id": id}
	}
	return nodetest.Run(t, removeduplicates.TypeV2(), nodetest.Node{Parameters: params, StaticData: static, GlobalStaticData: global},
		nodetest.Items(in...))
}

func ids(out [][]workflow.Item) []any {
	got := []any{}
	for _, it := range out[0] {
		got = append(got, it.JSON.Get("id"))
	}
	return got
}
