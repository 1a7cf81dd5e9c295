package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

const startSetWorkflow = `{"name":"two","nodes":[
 {"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
 {"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"string":[{"name":"s","value":"x"}]}}}],
 "connections":{"Start":{"main":[[{"node":"Set","type":"main","index":0}]]}}}`

func TestRunRejectsBadInputAndStoresNothing(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_MAX_BODY_SIZE": "1"})
	cases := []struct {
		body   string
		status int
		want   string
	}{
		{`{not json`, 400, "The body must be JSON"},
		{`{}`, 400, "workflowData is missing"},
		{`{"workflowData":{"nodes":[{"name":"A","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}}],
		  "connections":{"A":{"main":[[{"node":"Ghost","type":"main","index":0}]]}}}}`, 422, "Ghost"},
		{`{"workflowData":{"nodes":[{"name":"A","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
		  {"name":"Odd","type":"n8n-nodes-base.nope","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{}}}`, 422, `The node "Odd": The node type "n8n-nodes-base.nope" is not known`},
		// A version the type does not implement is refused, never run with another version's code.
		{`{"workflowData":{"nodes":[{"name":"A","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
		  {"name":"Edit Fields","type":"n8n-nodes-base.set","typeVersion":99,"position":[0,0],"parameters":{}}],"connections":{}}}`, 422,
			`The node "Edit Fields": The node type "n8n-nodes-base.set" has no version 99 here (known versions: 1, 2, 3, 3.1, 3.2, 3.3, 3.4)`},
		{`{"workflowData":` + startSetWorkflow + `,"destinationNode":"Nowhere"}`, 422, `The node "Nowhere" does not exist`},
		{`{"workflowData":{"nodes":[{"name":"A","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
		  {"name":"Fetch","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{}}}`, 422,
			`The node "Fetch" has issues: Parameter "URL" is required.`},
		{`{"workflowData":{"nodes":"many","connections":{}}}`, 422, ""},
	}
	for _, tc := range cases {
		res, b := e.do(t, "POST", "rest/workflows/run", tc.body, "Content-Type", "application/json")
		require.Equal(t, tc.status, res.StatusCode, "%s → %s", tc.body, b)
		var eb errorBody
		require.NoError(t, json.Unmarshal(b, &eb))
		require.Equal(t, tc.status, eb.Code)
		require.Contains(t, eb.Message, tc.want)
	}
	code, _ := e.postOversized(t, "rest/workflows/run", 2<<20)
	require.Equal(t, 413, code)

	count, _, err := e.in.Store.CountExecutions(context.Background(), store.ExecutionFilter{})
	require.NoError(t, err)
	require.Zero(t, count, "a rejected run stores nothing")
}

func TestRunAnswersAtOnceWithTheExecutionID(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS": "true"})
	res, b := e.do(t, "POST", "rest/workflows/run", `{"workflowData":`+startSetWorkflow+`}`, "Content-Type", "application/json", "sessionid", "ed-1")
	require.Equal(t, 200, res.StatusCode, string(b))
	var out runResponse
	decodeData(t, b, &out)
	require.NotEmpty(t, out.ExecutionID)
	res, b = e.do(t, "GET", "rest/executions/"+out.ExecutionID, "")
	require.Equal(t, 200, res.StatusCode, string(b))
	var d map[string]any
	decodeData(t, b, &d)
	require.Equal(t, "manual", d["mode"])
	require.Contains(t, []any{"queued", "new"}, d["status"], "no worker runs in this test: it waits in the queue")
	require.Equal(t, "two", d["workflowName"])
	require.Equal(t, "two", d["workflowData"].(map[string]any)["name"])

	res, b = e.do(t, "GET", "rest/executions-current", "")
	require.Equal(t, 200, res.StatusCode)
	var current []executionSummary
	decodeData(t, b, &current)
	require.Len(t, current, 1)
	require.Equal(t, out.ExecutionID, current[0].ID)

	// Stopping it before any worker took it cancels it at once.
	res, b = e.do(t, "POST", "rest/executions-current/"+out.ExecutionID+"/stop", "")
	require.Equal(t, 200, res.StatusCode, string(b))
	var stopped map[string]any
	decodeData(t, b, &stopped)
	require.Equal(t, "canceled", stopped["status"])
	require.Equal(t, false, stopped["finished"])
}

func TestRunWithWebhookWaitsForIt(t *testing.T) {
	e := startServer(t, nil)
	wf := `{"nodes":[{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"parameters":{"path":"x"},"webhookId":"abc"}],"connections":{}}`
	res, b := e.do(t, "POST", "rest/workflows/run", `{"workflowData":`+wf+`}`, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(b))
	require.JSONEq(t, `{"data":{"waitingForWebhook":true}}`, string(b))
}

func seedExecutions(t *testing.T, e *testEnv, n int, workflowID string, status workflow.Status) []int64 {
	t.Helper()
	var ids []int64
	for range n {
		wf := workflowID
		stopped := time.Now()
		ex := &store.Execution{WorkflowID: &wf, WorkflowName: "w-" + wf, Status: status, Mode: "trigger",
			Finished: status == workflow.StatusSuccess, StoppedAt: &stopped}
		require.NoError(t, e.in.Store.CreateExecution(context.Background(), ex, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
		ids = append(ids, ex.ID)
	}
	return ids
}

func TestExecutionsPagingFiltersAndDelete(t *testing.T) {
	e := startServer(t, nil)
	a := seedExecutions(t, e, 5, "wfA", workflow.StatusSuccess)
	b := seedExecutions(t, e, 3, "wfB", workflow.StatusError)

	list := func(query string) (int, []executionSummary, bool) {
		res, body := e.do(t, "GET", "rest/executions?"+query, "")
		require.Equal(t, 200, res.StatusCode, string(body))
		var out struct {
			Count     int                `json:"count"`
			Results   []executionSummary `json:"results"`
			Estimated bool               `json:"estimated"`
		}
		decodeData(t, body, &out)
		return out.Count, out.Results, out.Estimated
	}
	count, page, estimated := list("limit=3")
	require.Equal(t, 8, count)
	require.False(t, estimated)
	require.Len(t, page, 3)
	require.Equal(t, fmt.Sprint(b[2]), page[0].ID, "newest first")
	_, next, _ := list("limit=3&lastId=" + page[2].ID)
	require.Equal(t, fmt.Sprint(a[4]), next[0].ID)
	_, newer, _ := list("firstId=" + fmt.Sprint(a[4]))
	require.Len(t, newer, 3)

	count, page, _ = list(`filter={"workflowId":"wfA"}`)
	require.Equal(t, 5, count)
	require.Len(t, page, 5)
	count, _, _ = list(`filter={"finished":false}`)
	require.Equal(t, 3, count)

	for _, q := range []string{`filter={bad`, `limit=zero`, `lastId=abc`} {
		res, _ := e.do(t, "GET", "rest/executions?"+q, "")
		require.Equal(t, 400, res.StatusCode, q)
	}
	res, body := e.do(t, "GET", "rest/executions/999999", "")
	require.Equal(t, 404, res.StatusCode)
	require.Contains(t, string(body), "Execution with ID 999999 could not be found")
	res, _ = e.do(t, "GET", "rest/executions/abc", "")
	require.Equal(t, 404, res.StatusCode)

	res, body = e.do(t, "POST", "rest/executions/"+fmt.Sprint(a[0])+"/retry", "")
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, string(body), "succeeded, so it cannot be retried")

	res, body = e.do(t, "POST", "rest/executions/delete", `{}`, "Content-Type", "application/json")
	require.Equal(t, 400, res.StatusCode, string(body))
	res, _ = e.do(t, "POST", "rest/executions/delete", `{"ids":["x"]}`, "Content-Type", "application/json")
	require.Equal(t, 400, res.StatusCode)
	ids, _ := json.Marshal([]string{fmt.Sprint(a[0]), fmt.Sprint(a[1])})
	res, body = e.do(t, "POST", "rest/executions/delete", `{"ids":`+string(ids)+`}`, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(body))
	count, _, _ = list("")
	require.Equal(t, 6, count)
	res, _ = e.do(t, "POST", "rest/executions/delete",
		`{"deleteBefore":"`+time.Now().Add(time.Minute).UTC().Format(time.RFC3339)+`","filters":{"workflowId":"wfB"}}`, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode)
	count, _, _ = list("")
	require.Equal(t, 3, count, "only wfB's executions went")
}

func TestExecutionsListLeavesOutCurrentAndDeleteBeforeIncludesTheNewest(t *testing.T) {
	e := startServer(t, nil)
	ctx := context.Background()
	failed := seedExecutions(t, e, 2, "wfA", workflow.StatusError)
	seedExecutions(t, e, 1, "wfA", workflow.StatusSuccess)
	lease := time.Now().Add(time.Hour)
	wf := "wfA"
	running := &store.Execution{WorkflowID: &wf, WorkflowName: "w-wfA", Status: workflow.StatusRunning, Mode: "trigger",
		LeaseOwner: "elsewhere", LeaseExpiresAt: &lease}
	require.NoError(t, e.in.Store.CreateExecution(ctx, running, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	waitTill := time.Now().Add(time.Hour)
	waiting := &store.Execution{WorkflowID: &wf, WorkflowName: "w-wfA", Status: workflow.StatusWaiting, Mode: "trigger", WaitTill: &waitTill}
	require.NoError(t, e.in.Store.CreateExecution(ctx, waiting, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))

	type page struct {
		Count   int                `json:"count"`
		Results []executionSummary `json:"results"`
	}
	list := func(query string) page {
		res, body := e.do(t, "GET", "rest/executions?"+query, "")
		require.Equal(t, 200, res.StatusCode, string(body))
		var out page
		decodeData(t, body, &out)
		return out
	}
	ids := func(p page) []string {
		out := make([]string, len(p.Results))
		for i, r := range p.Results {
			out[i] = r.ID
		}
		return out
	}

	all := list("")
	require.Equal(t, 4, all.Count, "the running execution is current, not past")
	require.NotContains(t, ids(all), fmt.Sprint(running.ID))
	require.Equal(t, fmt.Sprint(waiting.ID), all.Results[0].ID)
	res, body := e.do(t, "GET", "rest/executions-current", "")
	require.Equal(t, 200, res.StatusCode)
	var current []executionSummary
	decodeData(t, body, &current)
	require.Len(t, current, 1)
	require.Equal(t, fmt.Sprint(running.ID), current[0].ID)
	require.Equal(t, 2, list(`filter={"finished":false}`).Count, "error filter: the failed ones only")
	require.Equal(t, 1, list(`filter={"waitTill":true}`).Count)
	require.Equal(t, 1, list(`filter={"status":["running"]}`).Count, "an explicit status list is kept")

	// Select all under the error filter: deleteBefore is the newest listed start, as sent back.
	errors := list(`filter={"finished":false}`)
	newest := errors.Results[0]
	require.Equal(t, fmt.Sprint(failed[1]), newest.ID)
	startedAt, err := json.Marshal(newest.StartedAt)
	require.NoError(t, err)
	res, body = e.do(t, "POST", "rest/executions/delete", `{"deleteBefore":`+string(startedAt)+`,"filters":{"finished":false}}`,
		"Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(body))
	require.Equal(t, 0, list(`filter={"finished":false}`).Count, "both failed executions went, the newest too")
	require.Equal(t, 2, list("").Count, "the success and the waiting one stay")

	res, body = e.do(t, "POST", "rest/executions/delete", `{"deleteBefore":"`+time.Now().Add(time.Minute).UTC().Format(time.RFC3339Nano)+`","filters":{"waitTill":true}}`,
		"Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(body))
	rest := list("")
	require.Equal(t, 1, rest.Count, "the waiting filter narrowed the deletion to the waiting execution")
	require.Equal(t, "success", rest.Results[0].Status)
	_, err = e.in.Store.GetExecution(ctx, running.ID)
	require.NoError(t, err, "a current execution is never deleted by date")
}
