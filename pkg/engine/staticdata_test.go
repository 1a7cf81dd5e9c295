package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
)

// Code nodes share the workflow's global static data: what one stores the next one reads,
// and the run reports the change so it is saved with the workflow.
func TestGlobalStaticData(t *testing.T) {
	t.Parallel()
	nodes := `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Write", "type": "n8n-nodes-base.code", "typeVersion": 1, "parameters": {"jsCode":
	  "const g = $getWorkflowStaticData('global'); g.runs = (g.runs || 0) + 1; return [{runs: g.runs}]"}},
	 {"name": "Read", "type": "n8n-nodes-base.function", "typeVersion": 1, "parameters": {"functionCode":
	  "return [{seen: getWorkflowStaticData('global').runs}]"}}]`
	w := wf(t, nodes, conn{"Start", 0, "Write", 0}, conn{"Write", 0, "Read", 0})
	w.StaticData = m{"global": m{"runs": 2.0}}
	res := run(t, newEngine(t), engine.Request{Workflow: w})
	require.True(t, res.StaticDataChanged)
	require.Equal(t, m{"runs": int64(3)}, res.StaticData["global"])
	require.Equal(t, m{"runs": 2.0}, w.StaticData["global"], "the workflow given is not changed")
	require.Equal(t, int64(3), res.State.ResultData.RunData["Read"][0].Data.Main[0][0].JSON.Get("seen"))

	// Reading without changing saves nothing.
	w = wf(t, `[{"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Read", "type": "n8n-nodes-base.code", "typeVersion": 1, "parameters": {"jsCode":
	  "return [{n: Object.keys($getWorkflowStaticData('global')).length}]"}}]`, conn{"Start", 0, "Read", 0})
	res = run(t, newEngine(t), engine.Request{Workflow: w})
	require.False(t, res.StaticDataChanged)
}
