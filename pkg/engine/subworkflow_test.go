package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/filefence"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// childJSON doubles n and records the mode it ran in.
const childJSON = `{"name": "child", "nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
 {"name": "Double", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "n", "value": "={{ $json.n * 2 }}"}],
   "string": [{"name": "mode", "value": "={{ $mode }}"}]}}}],
 "connections": {"Start": {"main": [[{"node": "Double", "type": "main", "index": 0}]]}}}`

const failingChildJSON = `{"name": "child", "nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
 {"name": "Boom", "type": "test.flaky", "typeVersion": 1, "parameters": {"failTimes": 9}}],
 "connections": {"Start": {"main": [[{"node": "Boom", "type": "main", "index": 0}]]}}}`

type memoryWorkflows map[string]string

func (s memoryWorkflows) LoadWorkflow(_ context.Context, id string) (*workflow.Workflow, error) {
	doc, ok := s[id]
	if !ok {
		return nil, errors.New("workflow " + id + " not found")
	}
	return workflow.Parse([]byte(doc))
}

func parentWorkflow(t testing.TB, params map[string]any, continueOnFail bool) *workflow.Workflow {
	p, err := json.Marshal(params)
	require.NoError(t, err)
	c, _ := json.Marshal(continueOnFail)
	return wf(t, `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Items", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "n", "value": 21}]}}},
	 {"name": "Run", "type": "n8n-nodes-base.executeWorkflow", "typeVersion": 1, "continueOnFail": `+string(c)+`, "parameters": `+string(p)+`}]`,
		conn{"Start", 0, "Items", 0}, conn{"Items", 0, "Run", 0})
}

func TestExecuteWorkflow(t *testing.T) {
	t.Parallel()
	// Each case gets its own engine: the flaky test node counts calls per registry.
	withStore := func() *engine.Engine {
		r, _ := registry()
		e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t),
			Workflows: memoryWorkflows{"7": childJSON, "8": failingChildJSON}})
		require.NoError(t, err)
		return e
	}
	plainEngine := func() *engine.Engine { return newEngine(t) }
	files, err := filefence.New(filefence.Options{Root: t.TempDir()})
	require.NoError(t, err)
	withFiles := func() *engine.Engine {
		r, _ := registry()
		e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t), Host: nodes.Host{Files: files}})
		require.NoError(t, err)
		return e
	}
	tests := []struct {
		name           string
		engine         func() *engine.Engine
		params         map[string]any
		continueOnFail bool
		want           []map[string]any
		err            string
	}{
		{"from a parameter", plainEngine, map[string]any{"source": "parameter", "workflowJson": childJSON}, false,
			[]map[string]any{{"n": 42.0, "mode": "integrated"}}, ""},
		{"from the store", withStore, map[string]any{"workflowId": "7"}, false,
			[]map[string]any{{"n": 42.0, "mode": "integrated"}}, ""},
		{"no store in this process", plainEngine, map[string]any{"workflowId": "7"}, false, nil, "no workflow store available"},
		{"unknown id", withStore, map[string]any{"workflowId": "99"}, false, nil, "workflow 99 not found"},
		{"failing child", withStore, map[string]any{"workflowId": "8"}, false, nil, "failure 1"},
		{"failing child, continue on fail", withStore, map[string]any{"workflowId": "8"}, true,
			[]map[string]any{{"error": "failure 1"}}, ""},
		{"invalid JSON", plainEngine, map[string]any{"source": "parameter", "workflowJson": "{"}, false, nil, "not valid"},
		{"missing file", withFiles, map[string]any{"source": "localFile", "workflowPath": "wf.json"}, false,
			nil, `The file "wf.json" could not be found.`},
		{"file outside the files folder", withFiles, map[string]any{"source": "localFile", "workflowPath": "/nonexistent/wf.json"}, false,
			nil, `The path "/nonexistent/wf.json" is outside the files folder; file nodes may only use paths under ` + files.Root() + ` (FLOWMILL_FILES_DIR).`},
		{"no file access in this process", plainEngine, map[string]any{"source": "localFile", "workflowPath": "wf.json"}, false,
			nil, "no files folder is set up (FLOWMILL_FILES_DIR)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, tc.engine(), engine.Request{Workflow: parentWorkflow(t, tc.params, tc.continueOnFail)})
			if tc.err != "" {
				require.Equal(t, workflow.StatusError, res.Status)
				require.Contains(t, res.State.ResultData.Error.Message, tc.err)
				return
			}
			require.Equal(t, workflow.StatusSuccess, res.Status, "%+v", res.State.ResultData.Error)
			require.Equal(t, [][]map[string]any{tc.want}, plain(t, outputs(t, res, "Run")))
		})
	}
}

func TestExecuteWorkflowChildRunsWithoutParentHooks(t *testing.T) {
	t.Parallel()
	r, _ := registry()
	var seen []string
	hook := engine.HookFuncs{Before: func(_ context.Context, ev engine.NodeEvent) { seen = append(seen, ev.Node) }}
	e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t), Hooks: []engine.Hook{hook}})
	require.NoError(t, err)
	res := run(t, e, engine.Request{Workflow: parentWorkflow(t, map[string]any{"source": "parameter", "workflowJson": childJSON}, false)})
	require.Equal(t, workflow.StatusSuccess, res.Status)
	require.Equal(t, []string{"Start", "Items", "Run"}, seen)
}

func TestLoadWorkflowWithoutStore(t *testing.T) {
	t.Parallel()
	ex := nodes.NewExecution(nodes.ExecutionConfig{Node: &workflow.Node{Name: "x"}})
	_, err := ex.LoadWorkflow(context.Background(), "1")
	require.ErrorIs(t, err, nodes.ErrNoWorkflowStore)
}
