package set_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/set"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func values(kind string, entries ...m) m {
	list := make([]any, len(entries))
	for i, e := range entries {
		list[i] = e
	}
	return m{kind: list}
}

func TestSet(t *testing.T) {
	t.Parallel()
	input := func() []workflow.Item {
		return nodetest.Items(m{"nested": m{"foo": "bar"}, "list": []any{"foo"}})
	}
	all := m{
		"string":  []any{m{"name": "string", "value": "foo"}},
		"boolean": []any{m{"name": "boolean", "value": true}},
		"number":  []any{m{"name": "number", "value": 1.0}},
	}
	tests := []struct {
		name    string
		version float64
		params  m
		input   []workflow.Item
		want    []m
	}{
		{"adds values", 1, m{"values": all}, input(),
			[]m{{"nested": m{"foo": "bar"}, "list": []any{"foo"}, "string": "foo", "boolean": true, "number": 1.0}}},
		{"keep only set", 1, m{"keepOnlySet": true, "values": all}, input(),
			[]m{{"string": "foo", "boolean": true, "number": 1.0}}},
		{"dot notation writes nested", 1, m{"values": values("string", m{"name": "nested.string", "value": "foo"})}, input(),
			[]m{{"nested": m{"foo": "bar", "string": "foo"}, "list": []any{"foo"}}}},
		{"dot notation off writes the key", 1, m{"values": values("string", m{"name": "nested.string", "value": "foo"}), "options": m{"dotNotation": false}}, input(),
			[]m{{"nested": m{"foo": "bar"}, "list": []any{"foo"}, "nested.string": "foo"}}},
		{"array indexes", 1, m{"values": m{
			"string":  []any{m{"name": "list[1]", "value": "bar"}},
			"boolean": []any{m{"name": "list[2]", "value": true}},
			"number":  []any{m{"name": "list[3]", "value": 1.0}},
		}}, input(), []m{{"nested": m{"foo": "bar"}, "list": []any{"foo", "bar", true, 1.0}}}},
		{"new array from index", 1, m{"values": values("number", m{"name": "data[1]", "value": 1.0})}, nodetest.Items(m{}),
			[]m{{"data": []any{nil, 1.0}}}},
		{"missing values take defaults", 1, m{"values": m{
			"number":  []any{m{"name": "n"}},
			"boolean": []any{m{"name": "b"}},
			"string":  []any{m{"name": "s"}},
		}}, nodetest.Items(m{}), []m{{"n": 0.0, "b": false, "s": ""}}},
		{"missing name is propertyName", 1, m{"values": values("string", m{"value": "x"})}, nodetest.Items(m{}),
			[]m{{"propertyName": "x"}}},
		{"boolean coerced from truthiness", 1, m{"values": values("boolean", m{"name": "b", "value": "={{ 'yes' }}"})}, nodetest.Items(m{}),
			[]m{{"b": true}}},
		{"v1 keeps numeric strings", 1, m{"values": values("number", m{"name": "n", "value": "={{ '12' }}"})}, nodetest.Items(m{}),
			[]m{{"n": "12"}}},
		{"v2 turns numeric strings into numbers", 2, m{"values": values("number", m{"name": "n", "value": "={{ '12.5' }}"})}, nodetest.Items(m{}),
			[]m{{"n": 12.5}}},
		{"v2 keeps other strings", 2, m{"values": values("number", m{"name": "n", "value": "={{ 'abc' }}"})}, nodetest.Items(m{}),
			[]m{{"n": "abc"}}},
		{"expressions per item", 1, m{"values": values("number", m{"name": "double", "value": "={{ $json.a * 2 }}"})},
			nodetest.Items(m{"a": 1.0}, m{"a": 2.0}), []m{{"a": 1.0, "double": 2.0}, {"a": 2.0, "double": 4.0}}},
		{"empty input gives one item", 1, m{"values": values("string", m{"name": "s", "value": "x"})}, []workflow.Item{},
			[]m{{"s": "x"}}},
		{"no values copies items", 1, m{}, nodetest.Items(m{"a": 1.0}), []m{{"a": 1.0}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, set.Type(), nodetest.Node{Version: tc.version, Parameters: tc.params}, tc.input)
			require.NoError(t, err)
			require.Len(t, out, 1)
			nodetest.RequireJSONs(t, tc.want, out[0])
		})
	}
}

func TestSetDoesNotChangeInputAndPairsItems(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{
		JSON:   workflow.ObjectFromMap(m{"nested": m{"a": 1.0}}),
		Binary: map[string]workflow.BinaryData{"data": {Data: "aGk=", MimeType: "text/plain"}},
	}, {JSON: workflow.ObjectFromMap(m{})}}
	params := m{"values": values("string", m{"name": "nested.b", "value": "x"})}
	out, err := nodetest.Run(t, set.Type(), nodetest.Node{Version: 1, Parameters: params}, in)
	require.NoError(t, err)
	require.Equal(t, m{"a": 1.0}, workflow.ToMaps(in[0].JSON.Get("nested")), "input changed")
	require.Equal(t, "aGk=", out[0][0].Binary["data"].Data)
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)

	out, err = nodetest.Run(t, set.Type(), nodetest.Node{Version: 1, Parameters: m{"keepOnlySet": true}}, in)
	require.NoError(t, err)
	require.Nil(t, out[0][0].Binary, "keepOnlySet drops binary data")
}

func TestSetExpressionError(t *testing.T) {
	t.Parallel()
	params := m{"values": values("string", m{"name": "s", "value": "={{ $json.a.b.c }}"})}
	_, err := nodetest.Run(t, set.Type(), nodetest.Node{Version: 1, Parameters: params}, nodetest.Items(m{}))
	require.Error(t, err)
}
