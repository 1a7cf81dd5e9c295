package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
)

// Loop Over Items (Split In Batches 3) hands out batches on "loop" until its input is used up,
// then sends every item that came back to it on "done", in both execution orders.
func TestLoopOverItemsV3(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	nodes := []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("Items", "n8n-nodes-base.code", 2, 200, 0,
			`{"jsCode": "return [1, 2, 3, 4, 5].map((i) => ({ json: { i } }));"}`),
		node("Loop", "n8n-nodes-base.splitInBatches", 3, 400, 0, `{"batchSize": 2, "options": {}}`),
		node("Mark", "n8n-nodes-base.set", 1, 600, 100,
			`{"values": {"string": [{"name": "seen", "value": "={{ $json.i * 10 }}"}]}}`),
		noOp("Done", 600, -100),
	}
	conns := []conn{
		{"Start", 0, "Items", 0}, {"Items", 0, "Loop", 0},
		{"Loop", 0, "Done", 0}, {"Loop", 1, "Mark", 0}, {"Mark", 0, "Loop", 0},
	}
	for _, order := range []string{"v1", "v0"} {
		t.Run(order, func(t *testing.T) {
			t.Parallel()
			res := run(t, e, engine.Request{Workflow: ordered(t, order, nodes, conns...)})
			require.True(t, res.Finished, "%+v", res.State.ResultData.Error)
			require.Equal(t, []string{"Start", "Items", "Loop", "Mark", "Loop", "Mark", "Loop", "Mark", "Loop", "Done"},
				res.State.NodeExecutionOrder)
			requireOutputs(t, `[[
				{"i": 1, "seen": 10}, {"i": 2, "seen": 20}, {"i": 3, "seen": 30},
				{"i": 4, "seen": 40}, {"i": 5, "seen": 50}
			]]`, res, "Done")
			// "done" stays empty while batches go out on "loop".
			requireOutputs(t, `[[], [], [], [
				{"i": 1, "seen": 10}, {"i": 2, "seen": 20}, {"i": 3, "seen": 30},
				{"i": 4, "seen": 40}, {"i": 5, "seen": 50}
			]]`, res, "Loop")
			requireOutputs(t, `[[{"i": 1, "seen": 10}, {"i": 2, "seen": 20}], [{"i": 3, "seen": 30}, {"i": 4, "seen": 40}],
				[{"i": 5, "seen": 50}]]`, res, "Mark")
		})
	}
}
