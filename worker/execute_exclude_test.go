package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

const command = `{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Run", "type": "n8n-nodes-base.executeCommand", "typeVersion": 1, "position": [200, 0],
  "parameters": {"command": "echo hi"}}],
 "connections": {"Start": {"main": [[{"node": "Run", "type": "main", "index": 0}]]}}}`

// FLOWMILL_NODES_EXCLUDE removes node types: a workflow using one fails as with an unknown type.
func TestExecuteNodesExclude(t *testing.T) {
	file := write(t, "wf.json", command)
	code, out, _ := execute(t, "--file", file)
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
	require.False(t, out.Finished)
	require.Contains(t, out.Data.ResultData.Error.Message, "n8n-nodes-base.executeCommand")
}
