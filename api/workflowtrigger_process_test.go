package main

import (
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestWorkflowTriggerOncePerEvent activates a workflow through one api process and saves it
// through the other: its Workflow Trigger starts exactly one run per event, with n8n's item.
func TestWorkflowTriggerOncePerEvent(t *testing.T) {
	a, b, _, _ := scaledStack(t, 2)
	id := createVia(t, a, `{"name":"lifecycle","nodes":[
	 {"name":"Workflow Trigger","type":"n8n-nodes-base.workflowTrigger","typeVersion":1,"position":[0,0],
	  "parameters":{"events":["activate","update"]}}],"connections":{}}`)
	code, body := patchJSON(t, a+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)
	code, body = patchJSON(t, b+"rest/workflows/"+id, `{"name":"lifecycle 2"}`)
	require.Equal(t, 200, code, body)

	list := func() []executionSummary {
		var out struct {
			Results []executionSummary `json:"results"`
		}
		require.Equal(t, 200, getJSON(t, a+"rest/executions?limit=250", &out))
		return out.Results
	}
	require.Eventually(t, func() bool { return len(list()) >= 2 }, 15*time.Second, 100*time.Millisecond)
	// A duplicate could only show up later.
	<-time.After(1500 * time.Millisecond)
	runs := list()
	require.Len(t, runs, 2)
	var events []string
	for _, r := range runs {
		require.Equal(t, "trigger", r.Mode)
		var d struct {
			Data struct {
				ResultData struct {
					RunData runDataJSON `json:"runData"`
				} `json:"resultData"`
			} `json:"data"`
		}
		require.Equal(t, 200, getJSON(t, a+"rest/executions/"+r.ID, &d))
		item := d.Data.ResultData.RunData["Workflow Trigger"][0].Data.Main[0][0].JSON
		require.Equal(t, id, item["workflow_id"])
		_, err := time.Parse("2006-01-02T15:04:05.000Z", item["timestamp"].(string))
		require.NoError(t, err)
		events = append(events, item["event"].(string))
	}
	sort.Strings(events)
	require.Equal(t, []string{"Workflow activated", "Workflow updated"}, events)
}
