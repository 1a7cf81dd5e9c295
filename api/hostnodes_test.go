package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
)

const (
	shellNodes = `"nodes":[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
	  {"name":"Shell","type":"n8n-nodes-base.executeCommand","typeVersion":1,"position":[200,0],"parameters":{"command":"id"}}],
	  "connections":{"Start":{"main":[[{"node":"Shell","type":"main","index":0}]]}}`
	// shellOnSchedule is a workflow a member could activate: a schedule starting Execute Command.
	shellOnSchedule = `"nodes":[{"name":"Every minute","type":"n8n-nodes-base.interval","typeVersion":1,"position":[0,0],"parameters":{}},
	  {"name":"Shell","type":"n8n-nodes-base.executeCommand","typeVersion":1,"position":[200,0],"parameters":{"command":"id"}}],
	  "connections":{"Every minute":{"main":[[{"node":"Shell","type":"main","index":0}]]}}`
	enableMessage  = `The node type "n8n-nodes-base.executeCommand" is disabled on this instance; an admin can turn it on with FLOWMILL_NODES_ENABLE.`
	excludeMessage = `The node type "n8n-nodes-base.executeCommand" is disabled on this instance; an admin can turn it on by removing it from FLOWMILL_NODES_EXCLUDE.`
)

// nodeTypeNames is what the editor's node creator lists.
func nodeTypeNames(t *testing.T, p *person) map[string]bool {
	t.Helper()
	var list []struct{ Name string }
	p.ok(t, "GET", "rest/node-types?onlyLatest=true", "", &list)
	names := map[string]bool{}
	for _, n := range list {
		names[n.Name] = true
	}
	require.True(t, names["n8n-nodes-base.set"])
	return names
}

// A member cannot run or activate Execute Command, nor see it in the node creator, until an admin
// turns it on; the refusal names the setting, and nothing is stored.
func TestExecuteCommandIsOffByDefault(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "member@example.com", "Mia")
	require.False(t, nodeTypeNames(t, member)["n8n-nodes-base.executeCommand"])
	require.False(t, nodeTypeNames(t, owner)["n8n-nodes-base.executeCommand"])

	status, b := member.call(t, "POST", "rest/workflows/run", `{"workflowData":{`+shellNodes+`}}`)
	require.Equal(t, 422, status, string(b))
	var eb errorBody
	require.NoError(t, json.Unmarshal(b, &eb))
	require.Equal(t, `The node "Shell": `+enableMessage, eb.Message)
	count, _, err := e.in.Store.CountExecutions(context.Background(), store.ExecutionFilter{})
	require.NoError(t, err)
	require.Zero(t, count, "a refused run stores nothing")

	var saved struct{ ID string }
	member.ok(t, "POST", "rest/workflows", `{"name":"Shell",`+shellOnSchedule+`}`, &saved)
	status, b = member.call(t, "PATCH", "rest/workflows/"+saved.ID, `{"active":true}`)
	require.Equal(t, 400, status, string(b))
	require.NoError(t, json.Unmarshal(b, &eb))
	require.Equal(t, `Workflow could not be activated: Node "Shell": `+enableMessage, eb.Message)
}

func TestNodesEnableAndExclude(t *testing.T) {
	e, smtp := startAccounts(t, map[string]string{"FLOWMILL_NODES_ENABLE": "n8n-nodes-base.executeCommand"})
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "member@example.com", "Mia")
	require.True(t, nodeTypeNames(t, member)["n8n-nodes-base.executeCommand"])
	var run runResponse
	member.ok(t, "POST", "rest/workflows/run", `{"workflowData":{`+shellNodes+`}}`, &run)
	require.NotEmpty(t, run.ExecutionID)

	// FLOWMILL_NODES_EXCLUDE wins over FLOWMILL_NODES_ENABLE.
	e = startServer(t, map[string]string{"FLOWMILL_NODES_ENABLE": "n8n-nodes-base.executeCommand",
		"FLOWMILL_NODES_EXCLUDE": "n8n-nodes-base.executeCommand,n8n-nodes-base.readBinaryFile"})
	res, b := e.do(t, "GET", "rest/node-types", "")
	require.Equal(t, 200, res.StatusCode)
	require.NotContains(t, string(b), `"n8n-nodes-base.executeCommand"`)
	require.NotContains(t, string(b), `"n8n-nodes-base.readBinaryFile"`)
	res, b = e.do(t, "POST", "rest/workflows/run", `{"workflowData":{`+shellNodes+`}}`, "Content-Type", "application/json")
	require.Equal(t, 422, res.StatusCode, string(b))
	var eb errorBody
	require.NoError(t, json.Unmarshal(b, &eb))
	require.Equal(t, fmt.Sprintf(`The node "Shell": %s`, excludeMessage), eb.Message)
}
