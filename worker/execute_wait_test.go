package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A long Wait puts the run into the waiting state: the CLI prints it with waitTill and does not
// count it as failed.
func TestExecuteLongWait(t *testing.T) {
	doc := `{"nodes": [
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
	 {"name": "Wait", "type": "n8n-nodes-base.wait", "typeVersion": 1, "position": [200, 0], "parameters": {"amount": 3, "unit": "days"}},
	 {"name": "After", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [400, 0], "parameters": {}}],
	 "connections": {"Start": {"main": [[{"node": "Wait", "type": "main", "index": 0}]]},
	  "Wait": {"main": [[{"node": "After", "type": "main", "index": 0}]]}}}`
	var stdout, stderr bytes.Buffer
	before := time.Now()
	code := runExecute([]string{"--file", write(t, "wf.json", doc)}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	var out struct {
		Finished           bool      `json:"finished"`
		Status             string    `json:"status"`
		WaitTill           time.Time `json:"waitTill"`
		NodeExecutionOrder []string  `json:"nodeExecutionOrder"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &out))
	require.False(t, out.Finished)
	require.Equal(t, "waiting", out.Status)
	require.Equal(t, []string{"Start", "Wait"}, out.NodeExecutionOrder)
	require.WithinDuration(t, before.Add(72*time.Hour), out.WaitTill, time.Minute)
}
