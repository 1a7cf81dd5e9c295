package set_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/set"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// orderedInput is one item {id, name, score, tags, nested: {z, a}}, not in alphabetical order.
func orderedInput(t *testing.T) []workflow.Item {
	t.Helper()
	var it workflow.Item
	require.NoError(t, json.Unmarshal([]byte(`{"json":{"id":1,"name":"Ann","score":9,"tags":["x"],"nested":{"z":1,"a":2}}}`), &it))
	return []workflow.Item{it}
}

func jsonOf(t *testing.T, it workflow.Item) string {
	t.Helper()
	b, err := json.Marshal(it.JSON)
	require.NoError(t, err)
	return string(b)
}

func TestSetKeepsKeyOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		typ     func() nodes.Type
		version float64
		params  m
		want    string
	}{
		{"v1 appends new fields, dot notation nests at the end", set.Type, 1,
			m{"values": m{"string": []any{m{"name": "added", "value": "x"}, m{"name": "nested.b", "value": "y"}, m{"name": "deep.one", "value": "z"}}}},
			`{"id":1,"name":"Ann","score":9,"tags":["x"],"nested":{"z":1,"a":2,"b":"y"},"added":"x","deep":{"one":"z"}}`},
		{"v1 replaces a field in place", set.Type, 2,
			m{"values": m{"number": []any{m{"name": "name", "value": 5.0}}}},
			`{"id":1,"name":5,"score":9,"tags":["x"],"nested":{"z":1,"a":2}}`},
		{"v3 manual fields", set.TypeV3, 3.2,
			m{"fields": fields(m{"name": "added", "stringValue": "x"}, m{"name": "nested.b", "stringValue": "y"}), "include": "all"},
			`{"id":1,"name":"Ann","score":9,"tags":["x"],"nested":{"z":1,"a":2,"b":"y"},"added":"x"}`},
		{"v3 selected fields keep the listed order", set.TypeV3, 3.2,
			m{"fields": fields(m{"name": "added", "stringValue": "x"}), "include": "selected", "includeFields": "score, id"},
			`{"score":9,"id":1,"added":"x"}`},
		{"v3 JSON output keeps the document order", set.TypeV3, 3.2,
			m{"mode": "raw", "jsonOutput": `{"zeta": 1, "alpha": {"y": 1, "b": 2}}`, "include": "all"},
			`{"id":1,"name":"Ann","score":9,"tags":["x"],"nested":{"z":1,"a":2},"zeta":1,"alpha":{"y":1,"b":2}}`},
		{"v3.4 assignments", set.TypeV3, 3.4,
			m{"assignments": assignments(m{"name": "later", "type": "string", "value": "x"}, m{"name": "earlier", "type": "number", "value": 2.0}), "includeOtherFields": true},
			`{"id":1,"name":"Ann","score":9,"tags":["x"],"nested":{"z":1,"a":2},"later":"x","earlier":2}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, tc.typ(), nodetest.Node{Version: tc.version, Parameters: tc.params}, orderedInput(t))
			require.NoError(t, err)
			require.Len(t, out[0], 1)
			require.Equal(t, tc.want, jsonOf(t, out[0][0]))
		})
	}
}
