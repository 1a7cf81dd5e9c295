package workflow_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestIsAncestor(t *testing.T) {
	t.Parallel()
	wf, err := workflow.Parse([]byte(`{"nodes": [
	  {"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	  {"name": "B", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	  {"name": "C", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	  {"name": "D", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}}
	], "connections": {
	  "A": {"main": [[{"node": "B", "type": "main", "index": 0}]]},
	  "B": {"main": [[{"node": "C", "type": "main", "index": 0}]]},
	  "C": {"main": [[{"node": "B", "type": "main", "index": 0}]]}
	}}`))
	require.NoError(t, err)
	for _, tc := range []struct {
		node, destination string
		want              bool
	}{
		{"A", "B", true},
		{"A", "C", true},
		{"C", "B", true},
		{"B", "B", false},
		{"C", "A", false},
		{"D", "C", false},
		{"A", "D", false},
	} {
		require.Equal(t, tc.want, wf.IsAncestor(tc.node, tc.destination), "%s → %s", tc.node, tc.destination)
	}
}

func TestSettingsTimeout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		settings workflow.Settings
		def, max time.Duration
		want     time.Duration
	}{
		{"unset, no default", nil, -time.Second, time.Hour, 0},
		{"unset, default", nil, 5 * time.Minute, time.Hour, 5 * time.Minute},
		{"off falls back to default", workflow.Settings{"executionTimeout": -1.0}, time.Minute, time.Hour, time.Minute},
		{"own setting", workflow.Settings{"executionTimeout": 30.0}, time.Minute, time.Hour, 30 * time.Second},
		{"capped", workflow.Settings{"executionTimeout": 7200.0}, 0, time.Hour, time.Hour},
		{"no cap", workflow.Settings{"executionTimeout": 7200.0}, 0, 0, 2 * time.Hour},
		{"fractions", workflow.Settings{"executionTimeout": 0.02}, 0, 0, 20 * time.Millisecond},
	} {
		require.Equal(t, tc.want, tc.settings.Timeout(tc.def, tc.max), tc.name)
	}
}
