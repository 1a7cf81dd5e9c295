package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestN8n1xExports imports workflows written as n8n 1.x exports them (current node versions,
// v1 execution order) with import:workflow, checks that every node resolves at its version
// without parameter issues, runs each with execute and compares every node's output with
// n8n's, item by item and key by key.
func TestN8n1xExports(t *testing.T) {
	dir := filepath.Join("testdata", "n8n1x")
	in := sqliteInstance(t, "n8n1x-exports-key-0123456789")
	in.must(t, "import:workflow", "--separate", "--input", filepath.Join(dir, "workflows"))

	reg := core.Registry()
	files, err := filepath.Glob(filepath.Join(dir, "workflows", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		raw, err := os.ReadFile(file)
		require.NoError(t, err)
		wf, err := workflow.Parse(raw)
		require.NoError(t, err, file)
		require.Equal(t, "v1", wf.Settings["executionOrder"], file)
		for _, n := range wf.Nodes {
			typ, ok := reg.Get(n.Type, n.TypeVersion)
			require.True(t, ok, "%s: node %q: %s version %v is unknown", file, n.Name, n.Type, n.TypeVersion)
			issues, err := workflow.ParameterIssues(typ.Description.Properties, n.Parameters, n.TypeVersion)
			require.NoError(t, err, "%s: node %q", file, n.Name)
			require.Empty(t, issues, "%s: node %q", file, n.Name)
		}

		name := strings.TrimSuffix(filepath.Base(file), ".json")
		expected, err := os.ReadFile(filepath.Join(dir, "expected", name+".json"))
		if os.IsNotExist(err) {
			// A sub-workflow, run by its caller, or one whose nodes need the services and
			// credentials the e2e spec gives it (product-cache: workflow-integrations.spec.ts).
			continue
		}
		require.NoError(t, err)
		t.Run(name, func(t *testing.T) {
			out := in.must(t, "execute", "--id", wf.ID)
			got := executedOutputs(t, out)
			if os.Getenv("FLOWMILL_WRITE_EXPECTED") != "" {
				b, err := json.MarshalIndent(got, "", "  ")
				require.NoError(t, err)
				require.NoError(t, os.WriteFile(filepath.Join(dir, "expected", name+".json"), append(b, '\n'), 0o600))
				return
			}
			want, err := workflow.DecodeJSONValue(expected)
			require.NoError(t, err)
			wantJSON, err := json.MarshalIndent(want, "", "  ")
			require.NoError(t, err)
			gotJSON, err := json.MarshalIndent(got, "", "  ")
			require.NoError(t, err)
			require.Equal(t, string(wantJSON), string(gotJSON))
		})
	}
}

// executedOutputs reads an execute result: the status, the last node and, per node in the
// order they first ran, the items of each output of its last run (json only, keys in order).
func executedOutputs(t *testing.T, out string) *workflow.Object {
	t.Helper()
	v, err := workflow.DecodeJSONValue([]byte(out))
	require.NoError(t, err, out)
	res := v.(*workflow.Object)
	data := res.Get("data").(*workflow.Object)
	result := data.Get("resultData").(*workflow.Object)
	runData := result.Get("runData").(*workflow.Object)
	nodes := workflow.NewObject(0)
	for name, runs := range runData.All() {
		list := runs.([]any)
		last := list[len(list)-1].(*workflow.Object)
		main := last.Get("data").(*workflow.Object).Get("main").([]any)
		outputs := make([]any, len(main))
		for i, items := range main {
			var jsons []any
			list, _ := items.([]any)
			for _, it := range list {
				jsons = append(jsons, it.(*workflow.Object).Get("json"))
			}
			if jsons == nil {
				jsons = []any{}
			}
			outputs[i] = jsons
		}
		nodes.Set(name, outputs)
	}
	return workflow.ObjectOf("status", res.Get("status"), "lastNodeExecuted", result.Get("lastNodeExecuted"), "nodes", nodes)
}
