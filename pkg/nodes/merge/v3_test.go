package merge_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/merge"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestMergeV3(t *testing.T) {
	t.Parallel()
	orders := nodetest.Items(m{"id": 1.0, "item": "pen"}, m{"id": 2.0, "item": "ink"}, m{"id": 9.0, "item": "cap"})
	people := nodetest.Items(m{"id": 1.0, "name": "Ann"}, m{"id": 2.0, "name": "Bo"}, m{"id": 3.0, "name": "Cy"})
	run(t, merge.TypeV3(), []mergeCase{
		{name: "append is the default", params: m{}, in1: orders[:1], in2: people[:1],
			want: []m{{"id": 1.0, "item": "pen"}, {"id": 1.0, "name": "Ann"}}},
		{name: "combine by a shared field name", params: m{"mode": "combine", "fieldsToMatchString": "id"},
			in1: orders, in2: people,
			want: []m{{"id": 1.0, "item": "pen", "name": "Ann"}, {"id": 2.0, "item": "ink", "name": "Bo"}}},
		{name: "combine by several fields", params: m{"mode": "combine", "fieldsToMatchString": "id, name"},
			in1: nodetest.Items(m{"id": 1.0, "name": "Ann", "a": 1.0}, m{"id": 1.0, "name": "Al"}), in2: people,
			want: []m{{"id": 1.0, "name": "Ann", "a": 1.0}}},
		{name: "combine by differently named fields, enrich input 1", params: m{"mode": "combine", "advanced": true,
			"mergeByFields": m{"values": []any{m{"field1": "person", "field2": "id"}}}, "joinMode": "enrichInput1"},
			in1: nodetest.Items(m{"person": 2.0}, m{"person": 7.0}), in2: people,
			want: []m{{"person": 2.0, "id": 2.0, "name": "Bo"}, {"person": 7.0}}},
		{name: "keep non-matches from both", params: m{"mode": "combine", "fieldsToMatchString": "id", "joinMode": "keepNonMatches"},
			in1: orders, in2: people,
			want: []m{{"id": 9.0, "item": "cap", "_source": "input1"}, {"id": 3.0, "name": "Cy", "_source": "input2"}}},
		{name: "no field to match", params: m{"mode": "combine", "fieldsToMatchString": ""}, in1: orders, in2: people,
			wantErr: `You need to define at least one pair of fields in "Fields to Match" to match on`},
		{name: "combine by position, last input wins", params: m{"mode": "combine", "combineBy": "combineByPosition"},
			in1: nodetest.Items(m{"a": 1.0, "k": "x"}, m{"a": 2.0}), in2: nodetest.Items(m{"k": "y"}),
			want: []m{{"a": 1.0, "k": "y"}}},
		{name: "combine by position, prefer input 1, unpaired included", params: m{"mode": "combine", "combineBy": "combineByPosition",
			"options": m{"includeUnpaired": true, "clashHandling": m{"values": m{"resolveClash": "preferInput1"}}}},
			in1: nodetest.Items(m{"a": 1.0, "k": "x"}, m{"a": 2.0}), in2: nodetest.Items(m{"k": "y"}),
			want: []m{{"a": 1.0, "k": "x"}, {"a": 2.0}}},
		{name: "combine by position with suffixes", params: m{"mode": "combine", "combineBy": "combineByPosition",
			"options": m{"clashHandling": m{"values": m{"resolveClash": "addSuffix"}}}},
			in1: nodetest.Items(m{"k": "x"}), in2: nodetest.Items(m{"k": "y"}),
			want: []m{{"k_1": "x", "k_2": "y"}}},
		{name: "all combinations", params: m{"mode": "combine", "combineBy": "combineAll"},
			in1: nodetest.Items(m{"a": 1.0}, m{"a": 2.0}), in2: nodetest.Items(m{"b": 1.0}, m{"b": 2.0}),
			want: []m{{"a": 1.0, "b": 1.0}, {"a": 1.0, "b": 2.0}, {"a": 2.0, "b": 1.0}, {"a": 2.0, "b": 2.0}}},
		{name: "choose input 1 by default", params: m{"mode": "chooseBranch"}, in1: orders[:1], in2: people,
			want: []m{{"id": 1.0, "item": "pen"}}},
		{name: "choose input 2", params: m{"mode": "chooseBranch", "useDataOfInput": 2.0}, in1: orders, in2: people[:1],
			want: []m{{"id": 1.0, "name": "Ann"}}},
		{name: "choose a missing input", params: m{"mode": "chooseBranch", "useDataOfInput": 3.0}, in1: orders, in2: people,
			wantErr: "Input 3 doesn't exist"},
		{name: "choose an empty item", params: m{"mode": "chooseBranch", "output": "empty"}, in1: orders, in2: people,
			want: []m{{}}},
		{name: "SQL mode is refused", params: m{"mode": "combineBySql"}, in1: orders, in2: people,
			wantErr: "The SQL Query mode is not supported"},
	})
}

func TestMergeV3ManyInputs(t *testing.T) {
	t.Parallel()
	in := [][]workflow.Item{nodetest.Items(m{"a": 1.0, "k": 1.0}), nodetest.Items(m{"b": 2.0, "k": 2.0}), nodetest.Items(m{"c": 3.0, "k": 3.0})}
	out, err := nodetest.Run(t, merge.TypeV3(), nodetest.Node{Parameters: m{"mode": "append", "numberInputs": 3.0}}, in...)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"a": 1.0, "k": 1.0}, {"b": 2.0, "k": 2.0}, {"c": 3.0, "k": 3.0}}, out[0])

	out, err = nodetest.Run(t, merge.TypeV3(), nodetest.Node{Parameters: m{"mode": "combine", "combineBy": "combineByPosition", "numberInputs": 3.0}}, in...)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"a": 1.0, "b": 2.0, "c": 3.0, "k": 3.0}}, out[0])
	require.Equal(t, &workflow.PairedItems{{Item: 0}, {Item: 0, Input: 1}, {Item: 0, Input: 2}, {Item: 0, Input: 2}}, out[0][0].PairedItem)

	out, err = nodetest.Run(t, merge.TypeV3(), nodetest.Node{Parameters: m{"mode": "chooseBranch", "numberInputs": 3.0, "useDataOfInput": 3.0}}, in...)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"c": 3.0, "k": 3.0}}, out[0])
}

func TestMergeV3LoadOptions(t *testing.T) {
	t.Parallel()
	typ := merge.TypeV3()
	clash, err := typ.LoadOptions["getResolveClashOptions"](context.Background(), nodes.LoadOptionsRequest{Parameters: m{}})
	require.NoError(t, err)
	require.Equal(t, []any{"addSuffix", "preferInput1", "preferLast"}, values(clash))
	clash, err = typ.LoadOptions["getResolveClashOptions"](context.Background(), nodes.LoadOptionsRequest{Parameters: m{"numberInputs": 4.0}})
	require.NoError(t, err)
	require.Equal(t, []any{"addSuffix", "preferInput1"}, values(clash))
	inputs, err := typ.LoadOptions["getInputs"](context.Background(), nodes.LoadOptionsRequest{Parameters: m{"numberInputs": 3.0}})
	require.NoError(t, err)
	require.Equal(t, []any{1, 2, 3}, values(inputs))
}

func values(opts []nodes.OptionValue) []any {
	out := make([]any, len(opts))
	for i, o := range opts {
		out[i] = o.Value
	}
	return out
}

func TestMergeV3Versions(t *testing.T) {
	t.Parallel()
	in1, in2 := nodetest.Items(m{"a": 1.0}), nodetest.Items(m{"b": 2.0})
	sql := m{"mode": "combineBySql", "query": "SELECT * FROM input1", "options": m{"emptyQueryResult": "success"}}
	for _, version := range []float64{3, 3.1, 3.2} {
		out, err := nodetest.Run(t, merge.TypeV3(), nodetest.Node{Version: version, Parameters: m{"mode": "append"}}, in1, in2)
		require.NoError(t, err, "version %g", version)
		nodetest.RequireJSONs(t, []m{{"a": 1.0}, {"b": 2.0}}, out[0])

		_, err = nodetest.Run(t, merge.TypeV3(), nodetest.Node{Version: version, Parameters: sql}, in1, in2)
		e := nodetest.NodeError(t, err)
		require.Equal(t, "The SQL Query mode is not supported", e.Message, "version %g", version)
		require.Contains(t, e.Description, "Combine mode")
	}
}

// The SQL mode's parameters survive an import, so an export gives them back unchanged; its
// options exist from 3.2 only.
func TestMergeV3KeepsSQLParameters(t *testing.T) {
	t.Parallel()
	props := merge.TypeV3().Description.Properties
	stored := m{"mode": "combineBySql", "query": "SELECT * FROM input2", "numberInputs": 3.0, "options": m{"emptyQueryResult": "success"}}
	got, err := workflow.ResolveParameters(props, stored, 3.2)
	require.NoError(t, err)
	require.Equal(t, "SELECT * FROM input2", got["query"])
	require.Equal(t, 3.0, got["numberInputs"])
	require.Equal(t, map[string]any{"emptyQueryResult": "success"}, got["options"])

	got, err = workflow.ResolveParameters(props, stored, 3.1)
	require.NoError(t, err)
	require.Equal(t, "SELECT * FROM input2", got["query"])
	require.NotContains(t, got, "options")
}
