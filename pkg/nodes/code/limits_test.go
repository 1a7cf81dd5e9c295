package code_test

import (
	"context"
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// limitedEngine is an engine whose scripts have the time limit given and a 32 MiB budget.
func limitedEngine(t *testing.T, scriptTimeout time.Duration) *engine.Engine {
	t.Helper()
	ev, err := expr.New(expr.Options{ScriptTimeout: scriptTimeout, MemoryLimit: 32 << 20, Timeout: 15 * time.Second})
	require.NoError(t, err)
	e, err := engine.New(engine.Options{Registry: core.Registry(), Evaluator: ev})
	require.NoError(t, err)
	return e
}

// scriptWorkflow is Start followed by one node of type typ with the given parameters.
func scriptWorkflow(t *testing.T, typ string, params map[string]any) *workflow.Workflow {
	t.Helper()
	p, err := json.Marshal(params)
	require.NoError(t, err)
	doc := `{"name": "limits", "nodes": [
	  {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	  {"name": "Script", "type": "` + typ + `", "typeVersion": 1, "parameters": ` + string(p) + `}],
	  "connections": {"Start": {"main": [[{"node": "Script", "type": "main", "index": 0}]]}}}`
	w, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	return w
}

func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A script that runs away in time or memory fails its node with a message naming the limit;
// the process goes on and the memory is given back. Not parallel: the memory budget is
// measured on the process's heap.
func TestScriptLimitsFailTheNode(t *testing.T) {
	short, long := limitedEngine(t, 200*time.Millisecond), limitedEngine(t, 15*time.Second)
	tests := []struct {
		name, typ string
		params    map[string]any
		wantErr   string
	}{
		{"code endless loop", "n8n-nodes-base.code", map[string]any{"jsCode": "while (true) {}"},
			"Script ran longer than 200ms"},
		{"code endless loop for each item", "n8n-nodes-base.code", map[string]any{"mode": each, "jsCode": "while (true) {}"},
			"Script ran longer than 200ms"},
		{"function endless loop", "n8n-nodes-base.function", map[string]any{"functionCode": "while (true) {}"},
			"Script ran longer than 200ms"},
		{"function item endless loop", "n8n-nodes-base.functionItem", map[string]any{"functionCode": "for (;;) {}"},
			"Script ran longer than 200ms"},
		{"code growing an array", "n8n-nodes-base.code",
			map[string]any{"jsCode": "let a = []; while (true) a.push(new Array(1e6).fill(1))"},
			"Script used more than 32 MiB of memory"},
		{"code with one huge allocation", "n8n-nodes-base.code",
			map[string]any{"jsCode": "return [{n: new Array(5e7).fill(1).length}]"},
			"Script used more than 32 MiB of memory: an Array of 50000000 elements needs about 763 MiB"},
		{"function with one huge string", "n8n-nodes-base.function",
			map[string]any{"functionCode": "return [{json: {n: 'x'.repeat(2 ** 28).length}}]"},
			"Script used more than 32 MiB of memory: repeat to 268435456 characters needs about 512 MiB"},
	}
	before := liveHeap()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := long
			if strings.HasPrefix(tt.wantErr, "Script ran longer") {
				e = short
			}
			res, err := e.Run(context.Background(), engine.Request{Workflow: scriptWorkflow(t, tt.typ, tt.params)})
			require.NoError(t, err)
			require.Equal(t, workflow.StatusError, res.Status)
			require.NotNil(t, res.State.ResultData.Error)
			require.Contains(t, res.State.ResultData.Error.Message, tt.wantErr)
			require.Equal(t, "Script", res.State.ResultData.LastNodeExecuted)
		})
	}
	require.Less(t, liveHeap(), before+32<<20, "the memory the scripts took is given back")

	// The engine still runs scripts afterwards.
	res, err := long.Run(context.Background(), engine.Request{Workflow: scriptWorkflow(t, "n8n-nodes-base.code",
		map[string]any{"jsCode": "return [{ok: [1, 2].join('+')}]"})})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, res.Status)
	require.Equal(t, "1+2", res.State.ResultData.RunData["Script"][0].Data.Main[0][0].JSON.Get("ok"))
}

// The expression preview (POST /rest/expressions/evaluate) fails cleanly on an expression
// that would allocate beyond the budget.
func TestPreviewMemoryLimit(t *testing.T) {
	e := limitedEngine(t, 0)
	w := scriptWorkflow(t, "n8n-nodes-base.code", map[string]any{"jsCode": "return []"})
	before := liveHeap()
	for expression, want := range map[string]string{
		"={{ new Array(5e7).fill(1).length }}":                                               "Expression used more than 32 MiB of memory: an Array of 50000000 elements needs about 763 MiB",
		"={{ 'x'.repeat(2**28).length }}":                                                    "Expression used more than 32 MiB of memory: repeat to 268435456 characters needs about 512 MiB",
		"={{ (() => { const a = []; while (true) a.push('y'.repeat(1e5) + a.length) })() }}": "Expression used more than 32 MiB of memory",
	} {
		got, err := e.Preview(engine.PreviewRequest{Workflow: w, Node: "Script"}, expression)
		require.NoError(t, err)
		require.False(t, got.OK, expression)
		require.Equal(t, engine.PreviewInvalid, got.Kind)
		require.Equal(t, want, got.Message)
	}
	require.Less(t, liveHeap(), before+32<<20, "the memory the expressions took is given back")
}
