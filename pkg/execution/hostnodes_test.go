package execution_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func runError(t *testing.T, e *env, id int64) string {
	t.Helper()
	errObj, _ := e.state(t, id)["resultData"].(map[string]any)["error"].(map[string]any)
	msg, _ := errObj["message"].(string)
	return msg
}

var shell = node{name: "Shell", typ: "n8n-nodes-base.executeCommand", params: `{"command":"echo hi"}`}

// A worker refuses an off-by-default node type with the setting that turns it on.
func TestWorkerRefusesDisabledNodeTypes(t *testing.T) {
	t.Parallel()
	e := setup(t)
	ex := e.run(t, build(t, "shell", "", start, shell), "trigger", "")
	ex = e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusError, ex.Status)
	require.Contains(t, runError(t, e, ex.ID),
		`The node type "n8n-nodes-base.executeCommand" is disabled on this instance; an admin can turn it on with FLOWMILL_NODES_ENABLE.`)

	e = setup(t, "FLOWMILL_NODES_ENABLE", "n8n-nodes-base.executeCommand")
	ex = e.run(t, build(t, "shell", "", start, shell), "trigger", "")
	ex = e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusSuccess, ex.Status, runError(t, e, ex.ID))
	require.Equal(t, "hi", nodeOutput(t, e.state(t, ex.ID), "Shell")[0].(map[string]any)["json"].(map[string]any)["stdout"])
}

// A worker's file nodes use the files folder and nothing else.
func TestWorkerFencesFileNodes(t *testing.T) {
	t.Parallel()
	e := setup(t)
	files := e.in.Config.FilesDir
	require.Equal(t, filepath.Join(e.in.Config.DataDir, "files"), files)
	require.NoError(t, os.WriteFile(filepath.Join(files, "a.txt"), []byte("a"), 0o600))
	read := func(path string) node {
		return node{name: "Read", typ: "n8n-nodes-base.readBinaryFile", params: `{"filePath":"` + path + `"}`}
	}
	ex := e.wait(t, e.run(t, build(t, "read", "", start, read("a.txt")), "trigger", "").ID)
	require.Equal(t, workflow.StatusSuccess, ex.Status, runError(t, e, ex.ID))

	for _, p := range []string{"/proc/self/environ", filepath.Join(e.in.Config.DataDir, "config"), "/etc/passwd"} {
		ex := e.wait(t, e.run(t, build(t, "read", "", start, read(p)), "trigger", "").ID)
		require.Equal(t, workflow.StatusError, ex.Status, p)
		require.Contains(t, runError(t, e, ex.ID), `The path "`+p+`"`)
		require.Contains(t, runError(t, e, ex.ID), "file nodes may only use paths under "+files+" (FLOWMILL_FILES_DIR).")
	}
}
