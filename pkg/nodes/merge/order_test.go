package merge_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/merge"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func items(t *testing.T, docs ...string) []workflow.Item {
	t.Helper()
	out := make([]workflow.Item, len(docs))
	for i, d := range docs {
		require.NoError(t, json.Unmarshal([]byte(`{"json":`+d+`}`), &out[i]))
	}
	return out
}

func TestMergeKeepsKeyOrder(t *testing.T) {
	t.Parallel()
	in1 := items(t, `{"id":1,"name":"Ann","nested":{"z":1}}`)
	in2 := items(t, `{"score":9,"id":1,"nested":{"a":2}}`)
	for _, tc := range []struct {
		name    string
		typ     func() nodes.Type
		version float64
		params  m
		want    string
	}{
		{"v1 merge by index", merge.TypeV1, 1, m{"mode": "mergeByIndex"}, `{"id":1,"name":"Ann","nested":{"a":2},"score":9}`},
		{"v1 multiplex", merge.TypeV1, 1, m{"mode": "multiplex"}, `{"id":1,"name":"Ann","nested":{"a":2},"score":9}`},
		{"v2 merge by position, deep merge", merge.TypeV2, 2,
			m{"mode": "combine", "combinationMode": "mergeByPosition", "options": m{"clashHandling": m{"values": m{"resolveClash": "preferInput2", "mergeMode": "deepMerge"}}}},
			`{"id":1,"name":"Ann","nested":{"z":1,"a":2},"score":9}`},
		{"v2 merge by position, input 1 wins", merge.TypeV2, 2,
			m{"mode": "combine", "combinationMode": "mergeByPosition", "options": m{"clashHandling": m{"values": m{"resolveClash": "preferInput1", "mergeMode": "shallowMerge"}}}},
			`{"score":9,"id":1,"nested":{"z":1},"name":"Ann"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, tc.typ(), nodetest.Node{Version: tc.version, Parameters: tc.params}, in1, in2)
			require.NoError(t, err)
			b, err := json.Marshal(out[0][0].JSON)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(b))
		})
	}
}
