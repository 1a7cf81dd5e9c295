package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// setPath is Start → Set writing a number under a dotted path.
func setPath(path string) string {
	return `[
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "position": [200, 0],
  "parameters": {"values": {"number": [{"name": "` + path + `", "value": 1}]}}}]`
}

// TestNodeOutputNestedTooDeepFailsTheNode: whatever node builds a field nested deeper than
// nesting.Max (the path's first segment is the field), the node fails with the limit's message instead of handing it on to be stored.
func TestNodeOutputNestedTooDeepFailsTheNode(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	deep := strings.TrimSuffix(strings.Repeat("a.", 1002), ".")
	res := run(t, e, engine.Request{Workflow: wf(t, setPath(deep), conn{"Start", 0, "Set", 0})})
	require.Equal(t, workflow.StatusError, res.Status)
	require.Contains(t, res.State.ResultData.Error.Message, "the nesting is deeper than 1,000 levels")

	ok := strings.TrimSuffix(strings.Repeat("a.", 1001), ".")
	res = run(t, e, engine.Request{Workflow: wf(t, setPath(ok), conn{"Start", 0, "Set", 0})})
	require.Equal(t, workflow.StatusSuccess, res.Status)
}
