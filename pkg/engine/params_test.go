package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func setWorkflow(t *testing.T, value string) *workflow.Workflow {
	return wf(t, `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"string": [{"name": "v", "value": "`+value+`"}]}}}]`,
		conn{"Start", 0, "Set", 0})
}

// TestParamCacheServesItsOwnWorkflowOnly: runs of the cached workflow get its parameters each
// time, with defaults filled in as without the cache; a workflow with the same node names run
// with another workflow's cache resolves its own.
func TestParamCacheServesItsOwnWorkflowOnly(t *testing.T) {
	a, b := setWorkflow(t, "a"), setWorkflow(t, "b")
	r, _ := registry()
	cache := engine.NewParamCache(a)
	e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t), Params: cache,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	require.NoError(t, err)
	plain := outputs(t, run(t, newEngine(t), engine.Request{Workflow: a}), "Set")
	for range 3 {
		require.Equal(t, plain, outputs(t, run(t, e, engine.Request{Workflow: a}), "Set"))
	}
	require.Equal(t, "a", plain[0][0]["v"])
	require.Equal(t, "b", outputs(t, run(t, e, engine.Request{Workflow: b}), "Set")[0][0]["v"])
	require.Equal(t, "a", outputs(t, run(t, e, engine.Request{Workflow: a}), "Set")[0][0]["v"])
}
