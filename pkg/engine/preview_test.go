package engine_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestPreviewTellsValuesErrorsAndUndefinedApart(t *testing.T) {
	e := newEngine(t)
	w := wf(t, `[{"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	  {"name": "Count", "type": "test.counter", "typeVersion": 1, "position": [200, 0], "parameters": {}}]`,
		conn{"Start", 0, "Count", 0})
	runData := workflow.RunData{"Start": {{Data: &workflow.TaskDataConnections{Main: [][]workflow.Item{{{JSON: workflow.ObjectFromMap(map[string]any{"n": float64(2)})}}}}}}}
	req := engine.PreviewRequest{Workflow: w, RunData: runData, Node: "Count"}

	for _, tc := range []struct {
		expression string
		want       engine.PreviewResult
	}{
		{`={{ $json.n * 3 }}`, engine.PreviewResult{OK: true, Value: int64(6)}},
		{`={{ null }}`, engine.PreviewResult{OK: true}},
		{`={{ 1 / 0 }}`, engine.PreviewResult{OK: true, Value: "Infinity"}},
		{`={{ $json.missing }}`, engine.PreviewResult{Kind: engine.PreviewNotFound, Message: "The expression gives undefined"}},
		{`={{ }}`, engine.PreviewResult{Kind: engine.PreviewNotFound, Message: "The expression gives undefined"}},
	} {
		got, err := e.Preview(req, tc.expression)
		require.NoError(t, err, tc.expression)
		require.Equal(t, tc.want, got, tc.expression)
	}
	got, err := e.Preview(req, `={{ nosuch.x }}`)
	require.NoError(t, err)
	require.Equal(t, engine.PreviewInvalid, got.Kind)
	require.NotEmpty(t, got.Message)

	req.Node = "Ghost"
	_, err = e.Preview(req, `={{ 1 }}`)
	var se *engine.StartError
	require.True(t, errors.As(err, &se))
	require.Equal(t, `The node "Ghost" does not exist in the workflow`, se.Error())
}
