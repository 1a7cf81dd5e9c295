package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Execute Node on B2 of a workflow that never ran: the editor sends B2 as start node and no run
// data. The run starts at the trigger and stops at B2, so B2 gets its input and output.
func TestStartNodeWithoutRunDataRunsParentsFirst(t *testing.T) {
	t.Parallel()
	res := run(t, newEngine(t), engine.Request{Workflow: branchWorkflow(t), StartNodes: []string{"B2"}, DestinationNode: "B2"})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "B", "B2"}, res.State.NodeExecutionOrder)
	require.Equal(t, [][]map[string]any{{{"b": "2"}}}, outputs(t, res, "B2"))
}

// A start node whose parent has no data, while other run data exists: the nearest parent
// without data starts, the data of the others is reused.
func TestStartNodeLiftedToParentWithoutData(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	prev := earlierRunData(t, e, "B", "B2", "Merge", "End")
	res := run(t, e, engine.Request{Workflow: branchWorkflow(t), StartNodes: []string{"B2"}, RunData: prev, DestinationNode: "B2"})
	require.True(t, res.Finished)
	require.Equal(t, []string{"B", "B2"}, res.State.NodeExecutionOrder, "B lacks data and runs first; Start is reused")
	require.Len(t, res.State.ResultData.RunData["Start"], 1)
	require.Equal(t, [][]map[string]any{{{"b": "2"}}}, outputs(t, res, "B2"))
}

// A start node whose parents have data keeps its place.
func TestStartNodeWithParentDataStays(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	prev := earlierRunData(t, e, "B2")
	res := run(t, e, engine.Request{Workflow: branchWorkflow(t), StartNodes: []string{"B2"}, RunData: prev, DestinationNode: "B2"})
	require.Equal(t, []string{"B2"}, res.State.NodeExecutionOrder)
}

// earlierRunData is the run data of a full run of the branch workflow without the given nodes, as
// the editor holds it after those nodes changed.
func earlierRunData(t *testing.T, e *engine.Engine, without ...string) workflow.RunData {
	t.Helper()
	first := run(t, e, engine.Request{Workflow: branchWorkflow(t)})
	prev := copyRunData(t, first.State.ResultData.RunData)
	for _, n := range without {
		delete(prev, n)
	}
	return prev
}
