package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const twoNodes = `{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "position": [200, 0],
  "parameters": {"values": {"string": [{"name": "hello", "value": "={{ $json.name || 'world' }}"}]}}}],
 "connections": {"Start": {"main": [[{"node": "Set", "type": "main", "index": 0}]]}}}`

type output struct {
	Finished           bool     `json:"finished"`
	NodeExecutionOrder []string `json:"nodeExecutionOrder"`
	Data               struct {
		ResultData struct {
			RunData          map[string][]json.RawMessage `json:"runData"`
			LastNodeExecuted string                       `json:"lastNodeExecuted"`
			Error            *struct{ Message string }    `json:"error"`
		} `json:"resultData"`
	} `json:"data"`
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

// TestMain gives the command a temporary data folder (it creates the files folder in it) unless
// one is set.
func TestMain(m *testing.M) {
	code := func() int {
		if os.Getenv("FLOWMILL_DATA_DIR") == "" {
			dir, err := os.MkdirTemp("", "flowmill-worker-test")
			if err != nil {
				panic(err)
			}
			defer os.RemoveAll(dir)
			os.Setenv("FLOWMILL_DATA_DIR", dir)
		}
		return m.Run()
	}()
	os.Exit(code)
}

func execute(t *testing.T, args ...string) (int, output, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runExecute(args, &stdout, &stderr)
	var out output
	if stdout.Len() > 0 {
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), stdout.String())
		require.Equal(t, 1, bytes.Count(bytes.TrimSpace(stdout.Bytes()), []byte("\n"))+1, "one JSON object on one line")
	}
	return code, out, stderr.String()
}

func TestExecuteManual(t *testing.T) {
	code, out, _ := execute(t, "--file", write(t, "wf.json", twoNodes))
	require.Equal(t, 0, code)
	require.True(t, out.Finished)
	require.Equal(t, []string{"Start", "Set"}, out.NodeExecutionOrder)
	require.Equal(t, "Set", out.Data.ResultData.LastNodeExecuted)
	var run struct {
		Data struct {
			Main [][]struct{ JSON map[string]any } `json:"main"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(out.Data.ResultData.RunData["Set"][0], &run))
	require.Equal(t, map[string]any{"hello": "world"}, run.Data.Main[0][0].JSON)
}

func TestExecuteWithInput(t *testing.T) {
	input := write(t, "in.json", `[{"json": {"name": "Ada"}}, {"name": "Bob"}]`)
	code, out, _ := execute(t, "--file", write(t, "wf.json", twoNodes), "--mode", "trigger", "--input", input)
	require.Equal(t, 0, code)
	var run struct {
		Data struct {
			Main [][]struct{ JSON map[string]any } `json:"main"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(out.Data.ResultData.RunData["Set"][0], &run))
	require.Len(t, run.Data.Main[0], 2)
	require.Equal(t, "Ada", run.Data.Main[0][0].JSON["hello"])
	require.Equal(t, "Bob", run.Data.Main[0][1].JSON["hello"])
}

func TestExecuteFailedRun(t *testing.T) {
	wf := `{"nodes": [
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Switch", "type": "n8n-nodes-base.switch", "typeVersion": 1, "parameters": {"mode": "expression", "output": 7}}],
	 "connections": {"Start": {"main": [[{"node": "Switch", "type": "main", "index": 0}]]}}}`
	code, out, _ := execute(t, "--file", write(t, "wf.json", wf))
	require.Equal(t, 1, code)
	require.False(t, out.Finished)
	require.Contains(t, out.Data.ResultData.Error.Message, "The ouput 7 is not allowed")

	unknown := `{"nodes": [{"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1},
	 {"name": "X", "type": "n8n-nodes-base.nope", "typeVersion": 1}],
	 "connections": {"Start": {"main": [[{"node": "X", "type": "main", "index": 0}]]}}}`
	code, out, _ = execute(t, "--file", write(t, "wf.json", unknown))
	require.Equal(t, 1, code)
	require.Contains(t, out.Data.ResultData.Error.Message, `"n8n-nodes-base.nope"`)
}

func TestExecuteBadInput(t *testing.T) {
	good := write(t, "wf.json", twoNodes)
	tests := map[string][]string{
		"no file flag":    {},
		"missing file":    {"--file", filepath.Join(t.TempDir(), "nope.json")},
		"malformed JSON":  {"--file", write(t, "bad.json", `{"nodes": [`)},
		"invalid nodes":   {"--file", write(t, "dup.json", `{"nodes": [{"name": "A", "type": "x"}, {"name": "A", "type": "y"}]}`)},
		"bad input items": {"--file", good, "--input", write(t, "in.json", `{"json": 5`)},
		"unknown mode":    {"--file", good, "--mode", "later"},
		"unknown flag":    {"--nope"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := execute(t, args...)
			require.Equal(t, 2, code, stderr)
			require.NotEmpty(t, stderr)
		})
	}
}

// TestExecuteEnvHidesFlowmillSettings: $env shows the process environment without Flowmill's own
// settings, which hold the encryption key and database passwords.
func TestExecuteEnvHidesFlowmillSettings(t *testing.T) {
	t.Setenv("FLOWMILL_ENCRYPTION_KEY", "secret-key-0123456789")
	t.Setenv("WORKER_TEST_GREETING", "hi")
	wf := `{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "position": [200, 0],
  "parameters": {"values": {"string": [{"name": "key", "value": "={{ $env.FLOWMILL_ENCRYPTION_KEY || 'hidden' }}"},
   {"name": "greeting", "value": "={{ $env.WORKER_TEST_GREETING }}"}]}}}],
 "connections": {"Start": {"main": [[{"node": "Set", "type": "main", "index": 0}]]}}}`
	code, out, stderr := execute(t, "--file", write(t, "wf.json", wf))
	require.Equal(t, 0, code, stderr)
	var run struct {
		Data struct {
			Main [][]struct{ JSON map[string]any } `json:"main"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(out.Data.ResultData.RunData["Set"][0], &run))
	require.Equal(t, map[string]any{"key": "hidden", "greeting": "hi"}, run.Data.Main[0][0].JSON)
}

// A workflow file over the workflow limits is unreadable input: exit 2, nothing runs.
func TestExecuteRefusesWorkflowsOverTheLimits(t *testing.T) {
	t.Setenv("FLOWMILL_WORKFLOW_MAX_NODES", "1")
	code, out, stderr := execute(t, "--file", write(t, "wf.json", twoNodes))
	require.Equal(t, 2, code)
	require.Empty(t, out.NodeExecutionOrder)
	require.Contains(t, stderr, "more than the limit of 1 nodes per workflow (FLOWMILL_WORKFLOW_MAX_NODES)")

	t.Setenv("FLOWMILL_WORKFLOW_MAX_NODES", "2")
	t.Setenv("FLOWMILL_WORKFLOW_MAX_SIZE", "1")
	big := strings.Replace(twoNodes, `"parameters": {}`, `"parameters": {"note": "`+strings.Repeat("x", 1<<20)+`"}`, 1)
	code, _, stderr = execute(t, "--file", write(t, "big.json", big))
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "FLOWMILL_WORKFLOW_MAX_SIZE")

	code, out, _ = execute(t, "--file", write(t, "wf.json", twoNodes))
	require.Equal(t, 0, code)
	require.True(t, out.Finished)
}
