package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWaitingExecutionResumesOnItsStartedVersion starts Webhook → Wait (for a webhook call) →
// Set, edits the Set node and re-saves the workflow while the execution waits, then resumes it
// through /webhook-waiting: the resumed run uses the nodes and parameters it started with (the
// snapshot in its execution data), and the next execution uses the edited ones.
func TestWaitingExecutionResumesOnItsStartedVersion(t *testing.T) {
	e := startWithWorker(t, nil)
	doc := func(value string) string {
		return `{"name":"versioned","nodes":[
	 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"v1","parameters":{"path":"versioned"}},
	 {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[200,0],"webhookId":"v2","parameters":{"resume":"webhook","httpMethod":"POST","responseMode":"lastNode"}},
	 {"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[400,0],"parameters":{"values":{"string":[{"name":"version","value":"` + value + `"}]}}}],
	 "connections":{"Webhook":{"main":[[{"node":"Wait","type":"main","index":0}]]},"Wait":{"main":[[{"node":"Set","type":"main","index":0}]]}}}`
	}
	id := e.saveWorkflow(t, doc("old"))
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))
	res, body := call(t, "GET", e.base+"webhook/versioned", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	execID := e.waitingExecutionID(t)

	// The edit: the Set node writes "new", and a node is added after it.
	edited := strings.Replace(doc("new"), `"connections":{`, `"connections":{"Set":{"main":[[{"node":"Added","type":"main","index":0}]]},`, 1)
	edited = strings.Replace(edited, `}}}],`, `}}},
	 {"name":"Added","type":"n8n-nodes-base.set","typeVersion":1,"position":[600,0],"parameters":{"values":{"boolean":[{"name":"added","value":true}]}}}],`, 1)
	code, b = e.call(t, "PATCH", "rest/workflows/"+id, edited)
	require.Equal(t, 200, code, string(b))
	require.Contains(t, string(e.getWorkflow(t, id).Nodes), `"new"`)

	res, body = call(t, "POST", e.base+"webhook-waiting/"+execID, "application/json", strings.NewReader(`{}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `"old"`, jsonField(t, body, "version"), body)
	require.NotContains(t, body, "added")
	res, stored := call(t, "GET", e.base+"rest/executions/"+execID, "", nil)
	require.Equal(t, 200, res.StatusCode, stored)
	require.Contains(t, stored, `"status":"success"`)
	require.NotContains(t, stored, `"Added"`)

	// A new execution runs the edited version.
	res, body = call(t, "GET", e.base+"webhook/versioned", "", nil)
	require.Equal(t, 200, res.StatusCode, body)
	next := e.waitingExecutionID(t)
	res, body = call(t, "POST", e.base+"webhook-waiting/"+next, "application/json", strings.NewReader(`{}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `"new"`, jsonField(t, body, "version"), body)
	require.Contains(t, body, `"added":true`)
}
