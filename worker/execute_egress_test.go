package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"
)

// `worker execute` hands nodes a client built from FLOWMILL_EGRESS_ALLOW/DENY.
func TestExecuteEgressSettings(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	file := write(t, "wf.json", fmt.Sprintf(`{"nodes": [
 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [0, 0], "parameters": {}},
 {"name": "Fetch", "type": "n8n-nodes-base.httpRequest", "typeVersion": 1, "position": [200, 0], "parameters": {"url": %q}}],
 "connections": {"Start": {"main": [[{"node": "Fetch", "type": "main", "index": 0}]]}}}`, srv.URL))

	code, out, stderr := execute(t, "--file", file)
	require.Equal(t, 0, code, stderr)
	require.True(t, out.Finished)

	t.Setenv("FLOWMILL_EGRESS_DENY", "127.0.0.1")
	code, out, _ = execute(t, "--file", file)
	require.Equal(t, 1, code)
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", out.Data.ResultData.Error.Message)

	t.Setenv("FLOWMILL_EGRESS_DENY", "127.0.0.1/40")
	code, _, stderr = execute(t, "--file", file)
	require.Equal(t, 1, code)
	require.Contains(t, stderr, `FLOWMILL_EGRESS_DENY: "127.0.0.1/40" is not an IP address or CIDR network`)
}
