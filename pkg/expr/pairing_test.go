package expr

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// pairingContext is node "Current" fed by "Merge", which combined items of "A" (input 0) and
// "B" (input 1); A and B both come from "Start".
func pairingContext(mergePaired *workflow.PairedItems) *Context {
	start := []*workflow.SourceData{{PreviousNode: "Start"}}
	return &Context{
		NodeName: "Current",
		Items:    []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"merged": true}), PairedItem: paired(0)}},
		Source:   []*workflow.SourceData{{PreviousNode: "Merge"}},
		RunData: workflow.RunData{
			"Start": {run(nil, []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"s": 0.0})}, {JSON: workflow.ObjectFromMap(map[string]any{"s": 1.0})}})},
			"A":     {run(start, []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"a": 0.0}), PairedItem: paired(0)}, {JSON: workflow.ObjectFromMap(map[string]any{"a": 1.0}), PairedItem: paired(1)}})},
			"B":     {run(start, []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"b": 0.0}), PairedItem: paired(1)}})},
			"Merge": {run([]*workflow.SourceData{{PreviousNode: "A"}, {PreviousNode: "B"}},
				[]workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"merged": true}), PairedItem: mergePaired}})},
		},
	}
}

func TestPairedItemThroughMerge(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	both := &workflow.PairedItems{{Item: 1, Input: 0}, {Item: 0, Input: 1}}

	// A's item 1 and B's item 0 both come from Start's item 1: one match.
	got, err := e.Evaluate(`={{ $("Start").item.json.s }}`, pairingContext(both))
	require.NoError(t, err)
	require.Equal(t, int64(1), got)

	// Only one of the two paired items leads to A.
	got, err = e.Evaluate(`={{ $("A").item.json.a }}`, pairingContext(both))
	require.NoError(t, err)
	require.Equal(t, int64(1), got)

	// A's item 0 comes from Start's item 0, B's item 0 from Start's item 1: ambiguous.
	ambiguous := &workflow.PairedItems{{Item: 0, Input: 0}, {Item: 0, Input: 1}}
	_, err = e.Evaluate(`={{ $("Start").item.json.s }}`, pairingContext(ambiguous))
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "Invalid expression", ee.Message)
	require.Contains(t, ee.Description, "more than one matching item")
}

func TestPairedItemErrors(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)

	c := pairingContext(paired(0))
	c.Items[0].PairedItem = nil
	_, err := e.Evaluate(`={{ $("A").item }}`, c)
	require.ErrorContains(t, err, "Can’t get data for expression")

	c = pairingContext(paired(0))
	c.RunData["A"][0].Data.Main[0][0].PairedItem = nil
	_, err = e.Evaluate(`={{ $("Start").item }}`, c)
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "Can’t get data for expression", ee.Message)
	require.Contains(t, ee.Description, "more information is needed from the node ‘A’")

	c = pairingContext(paired(0))
	c.RunData["Other"] = []workflow.TaskData{run(nil, []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{})}})}
	_, err = e.Evaluate(`={{ $("Other").item }}`, c) // Start is reached without passing Other
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "Invalid expression", ee.Message)
	require.Contains(t, ee.Description, "no path back")

	c = pairingContext(paired(5))
	c.RunData["Merge"][0].Data.Main[0][0].PairedItem = paired(5)
	_, err = e.Evaluate(`={{ $("Start").item }}`, c)
	require.ErrorAs(t, err, &ee)
	require.Contains(t, ee.Description, "doesn’t exist")
}
