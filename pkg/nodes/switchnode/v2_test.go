package switchnode_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/switchnode"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// routed checks that out holds, per output, the input items at the given positions.
func routed(t *testing.T, input []workflow.Item, out [][]workflow.Item, want [][]int) {
	t.Helper()
	require.Len(t, out, len(want))
	for o := range out {
		items := []map[string]any{}
		for _, i := range want[o] {
			items = append(items, input[i].JSON.ToMap())
		}
		require.Equal(t, items, nodetest.JSONs(out[o]), "output %d", o)
	}
}

func TestSwitchV2(t *testing.T) {
	t.Parallel()
	words := nodetest.Items(m{"w": "third"}, m{"w": "fourth"}, m{"w": "first"}, m{"w": "second"})
	tests := []struct {
		name   string
		params m
		want   [][]int
	}{
		{"expression uses outputsAmount", m{"mode": "expression", "outputsAmount": 2.0,
			"output": "={{ $json.w === 'first' ? 1 : 0 }}"}, [][]int{{0, 1, 3}, {2}}},
		{"expression default four outputs", m{"mode": "expression", "output": "={{ $itemIndex }}"}, [][]int{{0}, {1}, {2}, {3}}},
		{"each rule has its own output", m{"dataType": "string", "value1": "={{ $json.w }}", "rules": m{"rules": []any{
			m{"value2": "first", "outputKey": "First"},
			m{"value2": "second", "outputKey": "Second"},
			m{"operation": "endsWith", "value2": "th"},
		}}}, [][]int{{2}, {3}, {1}}},
		{"fallback to a rule output", m{"dataType": "string", "value1": "={{ $json.w }}", "fallbackOutput": 0.0,
			"rules": m{"rules": []any{m{"value2": "first"}, m{"value2": "second"}}}}, [][]int{{0, 1, 2}, {3}}},
		{"first matching rule wins", m{"value1": "={{ $json.w.length }}", "rules": m{"rules": []any{
			m{"operation": "smaller", "value2": 6.0},
			m{"operation": "equal", "value2": 5.0},
		}}}, [][]int{{0, 2}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, switchnode.TypeV2(), nodetest.Node{Parameters: tc.params}, words)
			require.NoError(t, err)
			routed(t, words, out, tc.want)
		})
	}
}

func TestSwitchV2Errors(t *testing.T) {
	t.Parallel()
	params := m{"mode": "expression", "outputsAmount": 2.0, "output": "={{ 2 }}"}
	_, err := nodetest.Run(t, switchnode.TypeV2(), nodetest.Node{Parameters: params}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "The ouput 2 is not allowed. It has to be between 0 and 1!")

	out, err := nodetest.Run(t, switchnode.TypeV2(), nodetest.Node{Parameters: params, ContinueOnFail: true}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "The ouput 2 is not allowed. It has to be between 0 and 1!"}}, nodetest.JSONs(out[0]))

	dates := m{"dataType": "dateTime", "value1": "={{ $json.d }}", "rules": m{"rules": []any{m{"value2": "2024-01-01"}, m{"value2": "2025-01-01"}}}}
	out, err = nodetest.Run(t, switchnode.TypeV2(), nodetest.Node{Parameters: dates, ContinueOnFail: true}, nodetest.Items(m{"d": "soon"}, m{"d": "2020-01-01"}))
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, []map[string]any{{"error": `The value "soon" is not a valid DateTime.`}}, nodetest.JSONs(out[0]))
	require.Empty(t, out[1])

	rules := m{"value1": 1.0, "fallbackOutput": 3.0, "rules": m{"rules": []any{m{"operation": "equal", "value2": 2.0}}}}
	_, err = nodetest.Run(t, switchnode.TypeV2(), nodetest.Node{Parameters: rules}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "The ouput 3 is not allowed. It has to be between 0 and 0!")
}

func TestSwitchV2FallbackOptions(t *testing.T) {
	t.Parallel()
	typ := switchnode.TypeV2()
	opts, err := typ.LoadOptions["getFallbackOutputOptions"](context.Background(), nodes.LoadOptionsRequest{
		Parameters: m{"rules": m{"rules": []any{m{"outputKey": "a"}, m{"outputKey": "b"}}}},
	})
	require.NoError(t, err)
	require.Equal(t, []nodes.OptionValue{{Name: "None", Value: -1}, {Name: "0 a", Value: 0}, {Name: "1 b", Value: 1}}, opts)
}
