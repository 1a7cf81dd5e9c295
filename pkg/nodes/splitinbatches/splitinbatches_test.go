package splitinbatches_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/splitinbatches"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// roundTrip gives the context as a saved and resumed execution state would.
func roundTrip(t *testing.T, ctx m) m {
	t.Helper()
	b, err := json.Marshal(ctx)
	require.NoError(t, err)
	var out m
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

type step struct {
	input []workflow.Item
	want  [][]m // per output; nil output means the branch ends
}

func TestSplitInBatches(t *testing.T) {
	t.Parallel()
	five := nodetest.Items(m{"i": 1.0}, m{"i": 2.0}, m{"i": 3.0}, m{"i": 4.0}, m{"i": 5.0})
	back := nodetest.Items(m{"done": true})
	tests := []struct {
		name   string
		typ    nodes.Type
		params m
		steps  []step
		ctx    m // context after the last step (subset)
	}{
		{"v1 batches then ends", splitinbatches.TypeV1(), m{"batchSize": 2.0}, []step{
			{five, [][]m{{{"i": 1.0}, {"i": 2.0}}}},
			{back, [][]m{{{"i": 3.0}, {"i": 4.0}}}},
			{back, [][]m{{{"i": 5.0}}}},
			{back, nil},
		}, m{"currentRunIndex": 3.0, "maxRunIndex": 3.0, "noItemsLeft": true}},
		{"v1 default batch size", splitinbatches.TypeV1(), m{}, []step{
			{five, [][]m{nodetest.JSONs(five)}},
		}, m{"currentRunIndex": 0.0, "maxRunIndex": 1.0, "noItemsLeft": true}},
		{"v1 reset starts again with the new input", splitinbatches.TypeV1(), m{"batchSize": 1.0, "options": m{"reset": true}}, []step{
			{five, [][]m{{{"i": 1.0}}}},
			{back, [][]m{{{"done": true}}}},
		}, m{"currentRunIndex": 0.0, "maxRunIndex": 1.0, "noItemsLeft": true}},
		{"v2 loop, then done with what came back", splitinbatches.TypeV2(), m{"batchSize": 3.0}, []step{
			{five, [][]m{{{"i": 1.0}, {"i": 2.0}, {"i": 3.0}}, {}}},
			{nodetest.Items(m{"r": 1.0}), [][]m{{{"i": 4.0}, {"i": 5.0}}, {}}},
			{nodetest.Items(m{"r": 2.0}), [][]m{{}, {{"r": 1.0}, {"r": 2.0}}}},
		}, m{"currentRunIndex": 2.0, "maxRunIndex": 2.0, "noItemsLeft": true, "done": true}},
		{"v3 done first, then loop", splitinbatches.TypeV3(), m{"batchSize": 3.0}, []step{
			{five, [][]m{{}, {{"i": 1.0}, {"i": 2.0}, {"i": 3.0}}}},
			{nodetest.Items(m{"r": 1.0}), [][]m{{}, {{"i": 4.0}, {"i": 5.0}}}},
			{nodetest.Items(m{"r": 2.0}), [][]m{{{"r": 1.0}, {"r": 2.0}}, {}}},
		}, m{"currentRunIndex": 2.0, "maxRunIndex": 2.0, "noItemsLeft": true, "done": true}},
		{"v3 default batch size is one", splitinbatches.TypeV3(), m{}, []step{
			{five[:2], [][]m{{}, {{"i": 1.0}}}},
			{nodetest.Items(m{"r": 1.0}), [][]m{{}, {{"i": 2.0}}}},
			{nodetest.Items(m{"r": 2.0}), [][]m{{{"r": 1.0}, {"r": 2.0}}, {}}},
		}, m{"currentRunIndex": 2.0, "maxRunIndex": 2.0, "noItemsLeft": true, "done": true}},
		{"v3 reset takes the new input as a new set", splitinbatches.TypeV3(), m{"batchSize": 2.0, "options": m{"reset": true}}, []step{
			{five, [][]m{{}, {{"i": 1.0}, {"i": 2.0}}}},
			{back, [][]m{{}, {{"done": true}}}},
		}, m{"currentRunIndex": 0.0, "maxRunIndex": 1.0, "noItemsLeft": true, "done": false}},
		{"v3 with no input is done at once", splitinbatches.TypeV3(), m{}, []step{
			{nodetest.Items(), [][]m{{}, {}}},
		}, m{"done": true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := m{}
			for i, s := range tc.steps {
				out, err := nodetest.Run(t, tc.typ, nodetest.Node{Parameters: tc.params, NodeContext: ctx}, s.input)
				require.NoError(t, err)
				if s.want == nil {
					require.Nil(t, out, "step %d", i)
				} else {
					got := make([][]m, len(out))
					for o := range out {
						got[o] = nodetest.JSONs(out[o])
					}
					require.Equal(t, s.want, got, "step %d", i)
				}
				ctx = roundTrip(t, ctx)
			}
			for k, v := range tc.ctx {
				require.Equal(t, v, ctx[k], k)
			}
		})
	}
}
