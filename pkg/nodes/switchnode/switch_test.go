package switchnode_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/switchnode"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func rules(rs ...m) m {
	list := make([]any, len(rs))
	for i, r := range rs {
		list[i] = r
	}
	return m{"rules": list}
}

func TestSwitch(t *testing.T) {
	t.Parallel()
	data := nodetest.Items(m{"data": 0.0}, m{"data": 1.0}, m{"data": 2.0}, m{"data": 3.0})
	tests := []struct {
		name   string
		params m
		input  []workflow.Item
		want   [][]int
	}{
		{"expression", m{"mode": "expression", "output": "={{ $json.data }}"}, data, [][]int{{0}, {1}, {2}, {3}}},
		{"expression numeric string", m{"mode": "expression", "output": "={{ String($json.data) }}"}, data, [][]int{{0}, {1}, {2}, {3}}},
		{"number rules first match wins", m{"value1": "={{ $json.data }}", "rules": rules(
			m{"operation": "larger", "value2": 1.0, "output": 3.0},
			m{"operation": "equal", "value2": 2.0, "output": 1.0},
		)}, data, [][]int{{}, {}, {}, {2, 3}}},
		{"fallback output", m{"value1": "={{ $json.data }}", "fallbackOutput": 2.0, "rules": rules(
			m{"operation": "equal", "value2": 0.0, "output": 0.0},
		)}, data, [][]int{{0}, {}, {1, 2, 3}, {}}},
		{"no fallback drops items", m{"value1": "={{ $json.data }}", "rules": rules(
			m{"operation": "smallerEqual", "value2": 1.0, "output": 1.0},
		)}, data, [][]int{{}, {0, 1}, {}, {}}},
		{"string rules", m{"dataType": "string", "value1": "={{ $json.s }}", "rules": rules(
			m{"operation": "startsWith", "value2": "a", "output": 0.0},
			m{"operation": "regex", "value2": "/B$/i", "output": 1.0},
			m{"operation": "contains", "value2": "z", "output": 2.0},
		)}, nodetest.Items(m{"s": "abc"}, m{"s": "cab"}, m{"s": "xyz"}), [][]int{{0}, {1}, {2}, {}}},
		{"boolean rules", m{"dataType": "boolean", "value1": "={{ $json.b }}", "rules": rules(
			m{"value2": true, "output": 1.0},
			m{"operation": "notEqual", "value2": true, "output": 2.0},
		)}, nodetest.Items(m{"b": true}, m{"b": false}), [][]int{{}, {0}, {1}, {}}},
		{"dateTime rules", m{"dataType": "dateTime", "value1": "={{ $json.d }}", "rules": rules(
			m{"operation": "before", "value2": "2020-01-01", "output": 0.0},
			m{"operation": "after", "value2": "2020-01-01", "output": 1.0},
		)}, nodetest.Items(m{"d": "2019-01-01"}, m{"d": "2021-01-01"}), [][]int{{0}, {1}, {}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, switchnode.Type(), nodetest.Node{Parameters: tc.params}, tc.input)
			require.NoError(t, err)
			require.Len(t, out, 4)
			for o := range out {
				want := []map[string]any{}
				for _, i := range tc.want[o] {
					want = append(want, tc.input[i].JSON.ToMap())
				}
				require.Equal(t, want, nodetest.JSONs(out[o]), "output %d", o)
			}
		})
	}
}

func TestSwitchOutOfRange(t *testing.T) {
	t.Parallel()
	params := m{"mode": "expression", "output": "={{ 7 }}"}
	_, err := nodetest.Run(t, switchnode.Type(), nodetest.Node{Parameters: params}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "The ouput 7 is not allowed")

	out, err := nodetest.Run(t, switchnode.Type(), nodetest.Node{Parameters: params, ContinueOnFail: true}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "The ouput 7 is not allowed. It has to be between 0 and 3!"}}, nodetest.JSONs(out[0]))
}
