package workflow_test

import (
	"testing"

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
