package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

const command = `{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Run", "type": "n8n-nodes-base.executeCommand", "typeVersion": 1, "position": [200, 0],
  "parameters": {"command": "echo hi"}}],
 "connections": {"Start": {"main": [[{"node": "Run", "type": "main", "index": 0}]]}}}`

// Execute Command is off unless FLOWMILL_NODES_ENABLE names it; FLOWMILL_NODES_EXCLUDE wins.
func TestExecuteOffByDefaultNodes(t *testing.T) {
	file := write(t, "wf.json", command)
	code, out, _ := execute(t, "--file", file)
	require.Equal(t, 1, code)
	require.False(t, out.Finished)
	require.Contains(t, out.Data.ResultData.Error.Message,
		`The node type "n8n-nodes-base.executeCommand" is disabled on this instance; an admin can turn it on with FLOWMILL_NODES_ENABLE.`)

	t.Setenv("FLOWMILL_NODES_ENABLE", "n8n-nodes-base.executeCommand")
	code, out, _ = execute(t, "--file", file)
	require.Equal(t, 0, code)
	var run struct {
		Data struct {
			Main [][]struct{ JSON map[string]any } `json:"main"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(out.Data.ResultData.RunData["Run"][0], &run))
	require.Equal(t, "hi", run.Data.Main[0][0].JSON["stdout"])

	t.Setenv("FLOWMILL_NODES_EXCLUDE", "n8n-nodes-base.executeCommand")
	code, out, _ = execute(t, "--file", file)
	require.Equal(t, 1, code)
	require.Contains(t, out.Data.ResultData.Error.Message,
		`The node type "n8n-nodes-base.executeCommand" is disabled on this instance; an admin can turn it on by removing it from FLOWMILL_NODES_EXCLUDE.`)

	t.Setenv("FLOWMILL_NODES_EXCLUDE", "")
	t.Setenv("FLOWMILL_NODES_ENABLE", "n8n-nodes-base.set")
	code, _, stderr := execute(t, "--file", file)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `FLOWMILL_NODES_ENABLE: "n8n-nodes-base.set" is not an off-by-default node type`)
}

func readFile(path string) string {
	return `{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Read", "type": "n8n-nodes-base.readBinaryFile", "typeVersion": 1, "position": [200, 0],
  "parameters": {"filePath": "` + path + `"}}],
 "connections": {"Start": {"main": [[{"node": "Read", "type": "main", "index": 0}]]}}}`
}

// The command line fences file nodes as the processes do: FLOWMILL_FILES_DIR, default files/ in
// the data folder, which it creates.
func TestExecuteFilesFolder(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FLOWMILL_DATA_DIR", data)
	code, out, _ := execute(t, "--file", write(t, "wf.json", readFile("a.txt")))
	require.Equal(t, 1, code)
	require.Contains(t, out.Data.ResultData.Error.Message, `The file "a.txt" could not be found.`)
	require.DirExists(t, filepath.Join(data, "files"))

	require.NoError(t, os.WriteFile(filepath.Join(data, "files", "a.txt"), []byte("a"), 0o600))
	code, out, _ = execute(t, "--file", write(t, "wf.json", readFile("a.txt")))
	require.Equal(t, 0, code, "%+v", out.Data.ResultData.Error)

	for _, p := range []string{"/proc/self/environ", filepath.Join(data, "config"), "../config"} {
		code, out, _ = execute(t, "--file", write(t, "wf.json", readFile(p)))
		require.Equal(t, 1, code)
		require.Contains(t, out.Data.ResultData.Error.Message, `(FLOWMILL_FILES_DIR)`, p)
	}

	other := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(other, "b.txt"), []byte("b"), 0o600))
	t.Setenv("FLOWMILL_FILES_DIR", other)
	code, out, _ = execute(t, "--file", write(t, "wf.json", readFile("b.txt")))
	require.Equal(t, 0, code, "%+v", out.Data.ResultData.Error)
}

// FLOWMILL_UNPACK_MAX_SIZE reaches the Compression node: 2 MiB of zeros gzipped unpack
// under the default cap and fail under a cap of 1 MiB.
func TestExecuteDecompressCap(t *testing.T) {
	data := t.TempDir()
	t.Setenv("FLOWMILL_DATA_DIR", data)
	require.NoError(t, os.MkdirAll(filepath.Join(data, "files"), 0o700))
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(make([]byte, 2<<20))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(filepath.Join(data, "files", "zeros.gz"), buf.Bytes(), 0o600))
	wf := `{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Read", "type": "n8n-nodes-base.readBinaryFile", "typeVersion": 1, "position": [200, 0],
  "parameters": {"filePath": "zeros.gz"}},
 {"name": "Unpack", "type": "n8n-nodes-base.compression", "typeVersion": 1.1, "position": [400, 0], "parameters": {}}],
 "connections": {"Start": {"main": [[{"node": "Read", "type": "main", "index": 0}]]},
  "Read": {"main": [[{"node": "Unpack", "type": "main", "index": 0}]]}}}`
	file := write(t, "wf.json", wf)
	code, out, _ := execute(t, "--file", file)
	require.Equal(t, 0, code, "%+v", out.Data.ResultData.Error)

	t.Setenv("FLOWMILL_UNPACK_MAX_SIZE", "1")
	code, out, _ = execute(t, "--file", file)
	require.Equal(t, 1, code)
	require.Equal(t, "The decompressed output exceeds the maximum allowed size of 1 MB", out.Data.ResultData.Error.Message)
}
