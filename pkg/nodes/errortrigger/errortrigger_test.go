package errortrigger_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/errortrigger"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestErrorTrigger(t *testing.T) {
	t.Parallel()
	example := m{
		"execution": m{
			"id": 231.0, "url": "http://localhost:5678/execution/workflow/1/231", "retryOf": "34",
			"error":            m{"message": "Example Error Message", "stack": "Stacktrace"},
			"lastNodeExecuted": "Node With Error", "mode": "manual",
		},
		"workflow": m{"id": "1", "name": "Example Workflow"},
	}
	payload := errortrigger.Payload{
		ExecutionID: "17", URL: "https://flowmill.example/workflow/4/executions/17",
		Error: m{"message": "boom", "node": m{"name": "HTTP"}}, LastNodeExecuted: "HTTP", Mode: "trigger",
		WorkflowID: "4", WorkflowName: "Orders",
	}
	wantPayload := m{
		"execution": m{"id": "17", "url": "https://flowmill.example/workflow/4/executions/17",
			"error": m{"message": "boom", "node": m{"name": "HTTP"}}, "lastNodeExecuted": "HTTP", "mode": "trigger"},
		"workflow": m{"id": "4", "name": "Orders"},
	}
	tests := []struct {
		name  string
		mode  string
		input []workflow.Item
		want  []m
	}{
		{"manual run without input gives the example", "manual", nodetest.Items(m{}), []m{example}},
		{"manual run with input passes it on", "manual", []workflow.Item{payload.Item()}, []m{wantPayload}},
		{"error mode passes the payload on", "error", []workflow.Item{payload.Item()}, []m{wantPayload}},
		{"error mode with an empty item is not replaced", "error", nodetest.Items(m{}), []m{{}}},
		{"binary data is not example data", "manual",
			[]workflow.Item{{JSON: workflow.ObjectFromMap(m{}), Binary: map[string]workflow.BinaryData{"data": {}}}}, []m{{}}},
		{"several items pass through", "manual", nodetest.Items(m{}, m{}), []m{{}, {}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, errortrigger.Type(), nodetest.Node{Mode: workflow.Mode(tc.mode)}, tc.input)
			require.NoError(t, err)
			require.Len(t, out, 1)
			require.Equal(t, tc.want, nodetest.JSONs(out[0]))
		})
	}
}

func TestPayloadWithRetry(t *testing.T) {
	t.Parallel()
	p := errortrigger.Payload{ExecutionID: "9", RetryOf: "8"}
	require.Equal(t, "8", p.JSON().Get("execution").(*workflow.Object).Get("retryOf"))
}
