package workflowtrigger_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/workflowtrigger"
)

type m = map[string]any

func TestWorkflowTrigger(t *testing.T) {
	t.Parallel()
	at := time.Date(2024, 5, 2, 9, 14, 11, 201e6, time.FixedZone("CEST", 7200))
	for _, tc := range []struct {
		event string
		want  m
	}{
		{workflowtrigger.EventActivate, m{"event": "Workflow activated", "timestamp": "2024-05-02T07:14:11.201Z", "workflow_id": "w1"}},
		{workflowtrigger.EventUpdate, m{"event": "Workflow updated", "timestamp": "2024-05-02T07:14:11.201Z", "workflow_id": "w1"}},
	} {
		o := workflowtrigger.Output(tc.event, at, "w1")
		require.Equal(t, tc.want, o.ToMap())
		require.Equal(t, []string{"event", "timestamp", "workflow_id"}, o.Keys())
	}
	require.True(t, workflowtrigger.Listens(m{"events": []any{"update", "activate"}}, "activate"))
	require.False(t, workflowtrigger.Listens(m{"events": []any{"update"}}, "activate"))
	require.False(t, workflowtrigger.Listens(m{}, "update"))

	out, err := nodetest.Run(t, workflowtrigger.Type(), nodetest.Node{Parameters: m{"events": []any{"activate"}},
		Flow: nodes.FlowConfig{Now: func() time.Time { return at }}})
	require.NoError(t, err)
	require.Equal(t, []m{{"event": "Manual execution", "timestamp": "2024-05-02T07:14:11.201Z", "workflow_id": ""}}, nodetest.JSONs(out[0]))
	require.Equal(t, nodes.KindTrigger, workflowtrigger.Type().Kind)
}
