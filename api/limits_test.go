package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
)

// chainNodes is the "nodes" and "connections" of a chain of n No-Op nodes; pad adds a parameter
// of that many bytes to the first node.
func chainNodes(n, pad int) string {
	var nodes, conns []string
	for i := range n {
		params := "{}"
		if i == 0 && pad > 0 {
			params = `{"note":"` + strings.Repeat("x", pad) + `"}`
		}
		nodes = append(nodes, fmt.Sprintf(`{"name":"N%d","type":"n8n-nodes-base.noOp","typeVersion":1,"position":[%d,0],"parameters":%s}`, i, i*200, params))
		if i > 0 {
			conns = append(conns, fmt.Sprintf(`"N%d":{"main":[[{"node":"N%d","type":"main","index":0}]]}`, i-1, i))
		}
	}
	return `"nodes":[` + strings.Join(nodes, ",") + `],"connections":{` + strings.Join(conns, ",") + `}`
}

// limitVars set a node limit of 3 and a size limit of 1 MiB.
var limitVars = map[string]string{"FLOWMILL_WORKFLOW_MAX_NODES": "3", "FLOWMILL_WORKFLOW_MAX_SIZE": "1"}

func requireLimitError(t *testing.T, status int, b []byte, wantStatus int, limit string) {
	t.Helper()
	require.Equal(t, wantStatus, status, string(b))
	var body struct {
		Message string `json:"message"`
	}
	require.NoError(t, json.Unmarshal(b, &body))
	require.Contains(t, body.Message, limit, string(b))
}

func TestWorkflowLimitsOnTheEditorRoutes(t *testing.T) {
	vars := map[string]string{"FLOWMILL_EGRESS_ALLOW": "127.0.0.1/32"}
	for k, v := range limitVars {
		vars[k] = v
	}
	e := startServer(t, vars)
	tooMany := `{"name":"big",` + chainNodes(4, 0) + `}`
	tooLarge := `{"name":"big",` + chainNodes(2, 1<<20) + `}`

	// Create (the editor's import posts here too): nothing is stored.
	status, b := e.call(t, "POST", "rest/workflows", tooMany)
	requireLimitError(t, status, b, http.StatusBadRequest, "FLOWMILL_WORKFLOW_MAX_NODES")
	status, b = e.call(t, "POST", "rest/workflows", tooLarge)
	requireLimitError(t, status, b, http.StatusRequestEntityTooLarge, "FLOWMILL_WORKFLOW_MAX_SIZE")
	status, b = e.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 200, status)
	var list struct {
		Data []workflowJSON `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	require.Empty(t, list.Data, "a refused workflow is not stored")

	// Update: the stored workflow keeps its nodes.
	var w workflowJSON
	status, b = e.call(t, "POST", "rest/workflows", `{"name":"small",`+chainNodes(3, 0)+`}`)
	require.Equal(t, 200, status, string(b))
	decodeData(t, b, &w)
	status, b = e.call(t, "PATCH", "rest/workflows/"+w.ID, `{`+chainNodes(4, 0)+`}`)
	requireLimitError(t, status, b, http.StatusBadRequest, "limit of 3 nodes")
	status, b = e.call(t, "PATCH", "rest/workflows/"+w.ID, `{`+chainNodes(3, 1<<20)+`}`)
	requireLimitError(t, status, b, http.StatusRequestEntityTooLarge, "FLOWMILL_WORKFLOW_MAX_SIZE")
	stored, err := e.in.Store.GetWorkflow(context.Background(), w.ID)
	require.NoError(t, err)
	var nodes []json.RawMessage
	require.NoError(t, json.Unmarshal(stored.Nodes, &nodes))
	require.Len(t, nodes, 3)

	// Run unsaved: nothing is stored or run.
	for _, tc := range []struct {
		doc    string
		status int
	}{{tooMany, http.StatusBadRequest}, {tooLarge, http.StatusRequestEntityTooLarge}} {
		status, b = e.call(t, "POST", "rest/workflows/run", `{"workflowData":`+tc.doc+`}`)
		require.Equal(t, tc.status, status, string(b))
	}
	count, _, err := e.in.Store.CountExecutions(context.Background(), store.ExecutionFilter{})
	require.NoError(t, err)
	require.Zero(t, count, "a refused run stores nothing")

	// Import from URL.
	files := http.NewServeMux()
	files.HandleFunc("/many.json", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(tooMany)) })
	files.HandleFunc("/ok.json", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"name":"ok",` + chainNodes(3, 0) + `}`))
	})
	remote := httptest.NewServer(files)
	t.Cleanup(remote.Close)
	status, b = e.call(t, "GET", "rest/workflows/from-url?url="+url.QueryEscape(remote.URL+"/many.json"), "")
	requireLimitError(t, status, b, http.StatusBadRequest, "FLOWMILL_WORKFLOW_MAX_NODES")
	status, b = e.call(t, "GET", "rest/workflows/from-url?url="+url.QueryEscape(remote.URL+"/ok.json"), "")
	require.Equal(t, 200, status, string(b))
}

func TestWorkflowLimitsOnThePublicAPI(t *testing.T) {
	e, _ := startAccounts(t, limitVars)
	owner := setUpOwner(t, e)
	api := apiClient{e: e, key: createKey(t, owner)}
	api.fails(t, "POST", "workflows", `{"name":"big",`+chainNodes(4, 0)+`,"settings":{}}`, 400, "FLOWMILL_WORKFLOW_MAX_NODES")
	api.fails(t, "POST", "workflows", `{"name":"big",`+chainNodes(2, 1<<20)+`,"settings":{}}`, 413, "FLOWMILL_WORKFLOW_MAX_SIZE")
	var w workflowJSON
	api.ok(t, "POST", "workflows", `{"name":"small",`+chainNodes(3, 0)+`,"settings":{}}`, &w)
	api.fails(t, "PUT", "workflows/"+w.ID, `{"name":"small",`+chainNodes(4, 0)+`,"settings":{}}`, 400, "limit of 3 nodes")
	api.ok(t, "GET", "workflows/"+w.ID, "", &w)
	var nodes []json.RawMessage
	require.NoError(t, json.Unmarshal(w.Nodes, &nodes))
	require.Len(t, nodes, 3, "a refused update changes nothing")
}
