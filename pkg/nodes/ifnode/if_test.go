package ifnode_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/ifnode"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func cond(kind string, c m) m { return m{kind: []any{c}} }

func TestIfOperations(t *testing.T) {
	t.Parallel()
	names := nodetest.Items(m{"name": "Elon Musk"}, m{"name": "Arnold Schwarzenegger"})
	nums := nodetest.Items(m{"value": 1.0}, m{"value": 2.0})
	str := func(op, v2 string) m {
		return cond("string", m{"value1": "={{ $json.name }}", "operation": op, "value2": v2})
	}
	num := func(op string, v2 any) m {
		c := m{"value1": "={{ $json.value }}", "value2": v2}
		if op != "" {
			c["operation"] = op
		}
		return cond("number", c)
	}
	tests := []struct {
		name      string
		params    m
		input     []workflow.Item
		wantTrue  []int
		wantFalse []int
	}{
		{"string equal (default)", m{"conditions": cond("string", m{"value1": "={{ $json.name }}", "value2": "Elon Musk"})}, names, []int{0}, []int{1}},
		{"string notEqual", m{"conditions": str("notEqual", "Elon Musk")}, names, []int{1}, []int{0}},
		{"contains", m{"conditions": str("contains", "Elon")}, names, []int{0}, []int{1}},
		{"notContains", m{"conditions": str("notContains", "Elon")}, names, []int{1}, []int{0}},
		{"startsWith", m{"conditions": str("startsWith", "Elon")}, names, []int{0}, []int{1}},
		{"notStartsWith", m{"conditions": str("notStartsWith", "Elon")}, names, []int{1}, []int{0}},
		{"endsWith", m{"conditions": str("endsWith", "Musk")}, names, []int{0}, []int{1}},
		{"notEndsWith", m{"conditions": str("notEndsWith", "Musk")}, names, []int{1}, []int{0}},
		{"regex", m{"conditions": str("regex", "([E])")}, names, []int{0}, []int{1}},
		{"regex literal with flags", m{"conditions": str("regex", "/^arnold/i")}, names, []int{1}, []int{0}},
		{"notRegex", m{"conditions": str("notRegex", "([E])")}, names, []int{1}, []int{0}},
		{"string isEmpty", m{"conditions": str("isEmpty", "")}, names, nil, []int{0, 1}},
		{"string isNotEmpty", m{"conditions": str("isNotEmpty", "")}, names, []int{0, 1}, nil},
		{"smaller (default)", m{"conditions": num("", 2.0)}, nums, []int{0}, []int{1}},
		{"smallerEqual", m{"conditions": num("smallerEqual", 2.0)}, nums, []int{0, 1}, nil},
		{"number equal", m{"conditions": num("equal", 1.0)}, nums, []int{0}, []int{1}},
		{"number notEqual", m{"conditions": num("notEqual", 1.0)}, nums, []int{1}, []int{0}},
		{"larger", m{"conditions": num("larger", 1.0)}, nums, []int{1}, []int{0}},
		{"largerEqual", m{"conditions": num("largerEqual", 1.0)}, nums, []int{0, 1}, nil},
		{"number isEmpty", m{"conditions": num("isEmpty", nil)}, nums, nil, []int{0, 1}},
		{"number isNotEmpty", m{"conditions": num("isNotEmpty", nil)}, nums, []int{0, 1}, nil},
		{"numeric string coerced in comparison", m{"conditions": cond("number", m{"value1": "={{ '10' }}", "operation": "larger", "value2": 9.0})},
			nodetest.Items(m{}), []int{0}, nil},
		{"string comparison of strings is lexicographic", m{"conditions": cond("number", m{"value1": "={{ '10' }}", "operation": "larger", "value2": "={{ '9' }}"})},
			nodetest.Items(m{}), nil, []int{0}},
		{"missing value compares as 0", m{"conditions": cond("number", m{"value1": "={{ $json.nope }}", "operation": "smaller", "value2": 1.0})},
			nodetest.Items(m{}), []int{0}, nil},
		{"strict equality keeps types", m{"conditions": cond("number", m{"value1": "={{ '1' }}", "operation": "equal", "value2": 1.0})},
			nodetest.Items(m{}), nil, []int{0}},
		{"boolean equal", m{"conditions": cond("boolean", m{"value1": "={{ $json.v }}", "value2": true})},
			nodetest.Items(m{"v": true}, m{"v": false}), []int{0}, []int{1}},
		{"boolean notEqual", m{"conditions": cond("boolean", m{"value1": "={{ $json.v }}", "operation": "notEqual", "value2": true})},
			nodetest.Items(m{"v": true}, m{"v": false}), []int{1}, []int{0}},
		{"dateTime after", m{"conditions": cond("dateTime", m{"value1": "={{ $json.d }}", "operation": "after", "value2": "2020-01-01T00:00:00Z"})},
			nodetest.Items(m{"d": "2021-06-01"}, m{"d": "2019-06-01"}), []int{0}, []int{1}},
		{"dateTime before", m{"conditions": cond("dateTime", m{"value1": "={{ $json.d }}", "operation": "before", "value2": "2020-01-01"})},
			nodetest.Items(m{"d": "2021-06-01"}, m{"d": "2019-06-01"}), []int{1}, []int{0}},
		{"all conditions", m{"conditions": m{
			"boolean": []any{m{"value1": "={{ $json.v }}", "value2": true}},
			"number":  []any{m{"value1": "={{ $json.n }}", "operation": "larger", "value2": 1.0}},
		}}, nodetest.Items(m{"v": true, "n": 2.0}, m{"v": true, "n": 0.0}), []int{0}, []int{1}},
		{"any condition", m{"combineOperation": "any", "conditions": m{
			"boolean": []any{m{"value1": "={{ $json.v }}", "value2": true}, m{"value1": "={{ $json.w }}", "value2": true}},
		}}, nodetest.Items(m{"v": true, "w": false}, m{"v": false, "w": true}, m{}), []int{0, 1}, []int{2}},
		{"no conditions all is true", m{}, nodetest.Items(m{}), []int{0}, nil},
		{"no conditions any is false", m{"combineOperation": "any"}, nodetest.Items(m{}), nil, []int{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, ifnode.Type(), nodetest.Node{Parameters: tc.params}, tc.input)
			require.NoError(t, err)
			require.Len(t, out, 2)
			require.Equal(t, pick(tc.input, tc.wantTrue), nodetest.JSONs(out[0]), "true output")
			require.Equal(t, pick(tc.input, tc.wantFalse), nodetest.JSONs(out[1]), "false output")
		})
	}
}

func pick(items []workflow.Item, idx []int) []map[string]any {
	out := []map[string]any{}
	for _, i := range idx {
		out = append(out, items[i].JSON.ToMap())
	}
	return out
}

func TestIfErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params m
	}{
		{"invalid date", m{"conditions": cond("dateTime", m{"value1": "not a date", "value2": "2020-01-01"})}},
		{"invalid regex", m{"conditions": cond("string", m{"value1": "x", "operation": "regex", "value2": "(["})}},
		{"endsWith on a number", m{"conditions": cond("string", m{"value1": "={{ 5 }}", "operation": "endsWith", "value2": "5"})}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := nodetest.Run(t, ifnode.Type(), nodetest.Node{Parameters: tc.params}, nodetest.Items(m{}))
			require.Error(t, err)
		})
	}
}

func TestIfEmptyInput(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, ifnode.Type(), nodetest.Node{}, []workflow.Item{})
	require.NoError(t, err)
	require.Equal(t, [][]map[string]any{{}, {}}, nodetest.Outputs(out))
}
