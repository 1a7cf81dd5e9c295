package executeworkflow_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/executeworkflow"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

const child = `{"name": "Child", "nodes": [{"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}}], "connections": {}}`

type store map[string]string

func (s store) LoadWorkflow(_ context.Context, id string) (*workflow.Workflow, error) {
	if doc, ok := s[id]; ok {
		return workflow.Parse([]byte(doc))
	}
	return nil, errors.New("workflow " + id + " not found")
}

// echo stands in for the engine: it returns the sub-workflow's name on every input item.
func echo(ran *[]string) func(context.Context, *workflow.Workflow, []workflow.Item) ([][]workflow.Item, error) {
	return func(_ context.Context, wf *workflow.Workflow, items []workflow.Item) ([][]workflow.Item, error) {
		*ran = append(*ran, wf.Name)
		out := make([]workflow.Item, len(items))
		for i, it := range items {
			j := it.JSON.Clone()
			j.Set("ranIn", wf.Name)
			out[i] = workflow.Item{JSON: j}
		}
		return [][]workflow.Item{out}, nil
	}
}

func TestExecuteWorkflow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "child.json")
	require.NoError(t, os.WriteFile(file, []byte(child), 0o600))
	host := nodetest.FilesHost(t, dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/child.json" {
			http.Error(w, "nope", http.StatusNotFound)
			return
		}
		_, _ = w.Write([]byte(child))
	}))
	t.Cleanup(srv.Close)

	tests := []struct {
		name           string
		params         m
		workflows      nodes.WorkflowLoader
		continueOnFail bool
		want           []m
		err            string
	}{
		{"database", m{"workflowId": "5"}, store{"5": child}, false, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, ""},
		{"database id from an expression", m{"workflowId": "={{ '5' }}"}, store{"5": child}, false, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, ""},
		{"database without a store", m{"workflowId": "5"}, nil, false, nil, "no workflow store available"},
		{"database, unknown id", m{"workflowId": "6"}, store{}, false, nil, "workflow 6 not found"},
		{"local file", m{"source": "localFile", "workflowPath": file}, nil, false, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, ""},
		{"missing local file", m{"source": "localFile", "workflowPath": filepath.Join(dir, "nope.json")}, nil, false, nil, "could not be found"},
		{"local file relative to the files folder", m{"source": "localFile", "workflowPath": "child.json"}, nil, false, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, ""},
		{"local file outside the files folder", m{"source": "localFile", "workflowPath": "/etc/hostname"}, nil, false, nil,
			`The path "/etc/hostname" is outside the files folder; file nodes may only use paths under ` + dir + ` (FLOWMILL_FILES_DIR).`},
		{"parameter", m{"source": "parameter", "workflowJson": child}, nil, false, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, ""},
		{"invalid parameter", m{"source": "parameter", "workflowJson": "not json"}, nil, false, nil, "not valid"},
		{"url", m{"source": "url", "workflowUrl": srv.URL + "/child.json"}, nil, false, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, ""},
		{"url not found", m{"source": "url", "workflowUrl": srv.URL + "/other.json"}, nil, false, nil, "404"},
		{"error with continue on fail", m{"workflowId": "5"}, nil, true, []m{{"error": "no workflow store available"}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ran []string
			out, err := nodetest.Run(t, executeworkflow.Type(), nodetest.Node{Parameters: tc.params, ContinueOnFail: tc.continueOnFail,
				Flow: nodes.FlowConfig{Workflows: tc.workflows, RunWorkflow: echo(&ran)}, Host: host}, nodetest.Items(m{"a": 1.0}, m{"a": 2.0}))
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				require.Empty(t, ran)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, nodetest.JSONs(out[0]))
		})
	}
}

func TestURLSourceAppliesEgressPolicy(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(child)) }))
	t.Cleanup(srv.Close)
	deny, err := egress.ParseNetworks("127.0.0.0/8")
	require.NoError(t, err)
	for _, tc := range []struct {
		url  string
		host nodes.Host
		want string
	}{
		{"http://169.254.169.254/latest/user-data", nodes.Host{}, "The address 169.254.169.254 is not allowed (built-in refusal of link-local, " +
			"cloud metadata and unspecified addresses; FLOWMILL_EGRESS_ALLOW can open it)."},
		{srv.URL + "/child.json", nodes.Host{HTTP: egress.New(nil, deny).Client(egress.Options{})}, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY)."},
	} {
		var ran []string
		_, err := nodetest.Run(t, executeworkflow.Type(), nodetest.Node{Host: tc.host,
			Parameters: m{"source": "url", "workflowUrl": tc.url}, Flow: nodes.FlowConfig{RunWorkflow: echo(&ran)}}, nodetest.Items(m{}))
		require.Equal(t, tc.want, nodetest.NodeError(t, err).Message)
		require.Empty(t, ran)
	}
}

// A sub-workflow over the workflow limits is refused before it runs, whatever its source.
func TestSubWorkflowLimits(t *testing.T) {
	t.Parallel()
	two := `{"name": "Two", "nodes": [{"name": "A", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
		{"name": "B", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}], "connections": {}}`
	host := nodes.Host{Workflows: workflow.Limits{MaxNodes: 1, MaxBytes: 300}}
	for _, tc := range []struct {
		name   string
		params m
		want   string
	}{
		{"parameter, too many nodes", m{"source": "parameter", "workflowJson": two}, "limit of 1 nodes per workflow (FLOWMILL_WORKFLOW_MAX_NODES)"},
		{"parameter, too large", m{"source": "parameter", "workflowJson": child + strings.Repeat(" ", 300)}, "FLOWMILL_WORKFLOW_MAX_SIZE"},
		{"database, too many nodes", m{"workflowId": "2"}, "FLOWMILL_WORKFLOW_MAX_NODES"},
	} {
		var ran []string
		_, err := nodetest.Run(t, executeworkflow.Type(), nodetest.Node{Host: host, Parameters: tc.params,
			Flow: nodes.FlowConfig{Workflows: store{"2": two}, RunWorkflow: echo(&ran)}}, nodetest.Items(m{}))
		require.ErrorContains(t, err, tc.want, tc.name)
		require.ErrorIs(t, err, workflow.ErrTooLarge, tc.name)
		require.Empty(t, ran, tc.name)
	}
	var ran []string
	_, err := nodetest.Run(t, executeworkflow.Type(), nodetest.Node{Host: host, Parameters: m{"source": "parameter", "workflowJson": child},
		Flow: nodes.FlowConfig{RunWorkflow: echo(&ran)}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []string{"Child"}, ran)
}

// Versions 1.1 and 1.2: the workflow is a resource locator; mode "each" runs once per item with
// every output paired to its item; without waiting the input comes out; 1.2 maps the inputs.
func TestExecuteWorkflowV1x(t *testing.T) {
	t.Parallel()
	rl := m{"__rl": true, "mode": "list", "value": "5", "cachedResultName": "Child"}
	tests := []struct {
		name    string
		version float64
		params  m
		want    []m
		runs    int
		paired  []int
	}{
		{"1.1 resource locator", 1.1, m{"workflowId": rl}, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, 1, nil},
		{"1.1 id mode from an expression", 1.1, m{"workflowId": m{"__rl": true, "mode": "id", "value": "={{ '5' }}"}},
			[]m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, 1, nil},
		{"each item", 1.1, m{"workflowId": rl, "mode": "each"}, []m{{"a": 1.0, "ranIn": "Child"}, {"a": 2.0, "ranIn": "Child"}}, 2, []int{0, 1}},
		{"without waiting", 1.1, m{"workflowId": rl, "options": m{"waitForSubWorkflow": false}}, []m{{"a": 1.0}, {"a": 2.0}}, 1, nil},
		{"each without waiting", 1.1, m{"workflowId": rl, "mode": "each", "options": m{"waitForSubWorkflow": false}}, []m{{"a": 1.0}, {"a": 2.0}}, 2, nil},
		{"1.2 workflow inputs", 1.2, m{"workflowId": rl, "workflowInputs": m{"mappingMode": "defineBelow",
			"value": m{"double": "={{ $json.a * 2 }}", "gone": "x", "label": "fixed"},
			"schema": []any{
				m{"id": "label", "displayName": "label", "type": "string"},
				m{"id": "double", "displayName": "double", "type": "number"},
				m{"id": "gone", "displayName": "gone", "type": "string", "removed": true},
			}}},
			[]m{{"label": "fixed", "double": int64(2), "ranIn": "Child"}, {"label": "fixed", "double": int64(4), "ranIn": "Child"}}, 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var ran []string
			out, err := nodetest.Run(t, executeworkflow.Type(), nodetest.Node{Version: tc.version, Parameters: tc.params,
				Flow: nodes.FlowConfig{Workflows: store{"5": child}, RunWorkflow: echo(&ran)}}, nodetest.Items(m{"a": 1.0}, m{"a": 2.0}))
			require.NoError(t, err)
			require.Equal(t, tc.want, nodetest.JSONs(out[0]))
			require.Len(t, ran, tc.runs)
			for i, p := range tc.paired {
				require.Equal(t, p, (*out[0][i].PairedItem)[0].Item)
			}
			if tc.version == 1.2 {
				require.Equal(t, []string{"label", "double", "ranIn"}, out[0][0].JSON.Keys())
			}
		})
	}
}
