package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/nodes/errortrigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestErrorWorkflowGetsThePayload(t *testing.T) {
	t.Parallel()
	w := wf(t, `[
	 {"name": "On Error", "type": "n8n-nodes-base.errorTrigger", "typeVersion": 1, "parameters": {}},
	 {"name": "Message", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"keepOnlySet": true,
	   "values": {"string": [{"name": "text", "value": "={{ $json.workflow.name + ': ' + $json.execution.error.message }}"}]}}}]`,
		conn{"On Error", 0, "Message", 0})
	payload := errortrigger.Payload{ExecutionID: "12", URL: "http://localhost:5678/workflow/3/executions/12",
		Error: map[string]any{"message": "boom"}, LastNodeExecuted: "HTTP", Mode: "trigger", WorkflowID: "3", WorkflowName: "Orders"}

	res := run(t, newEngine(t), engine.Request{Workflow: w, Mode: "error", Input: []workflow.Item{payload.Item()}})
	require.Equal(t, workflow.StatusSuccess, res.Status)
	require.Equal(t, [][]map[string]any{{{"text": "Orders: boom"}}}, outputs(t, res, "Message"))

	// A manual run without input shows the example payload.
	res = run(t, newEngine(t), engine.Request{Workflow: w})
	require.Equal(t, [][]map[string]any{{{"text": "Example Workflow: Example Error Message"}}}, outputs(t, res, "Message"))
}
