package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/binaryref"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestLargeBinaryDataIsFetchedApart(t *testing.T) {
	e := startServer(t, nil)
	large := strings.Repeat("QUJD", binaryref.MaxInline/4+1)
	small := "aGVsbG8="
	state := fmt.Sprintf(`{"resultData":{"runData":{
		"Start":[{"startTime":1,"executionTime":0,"source":[],"data":{"main":[[{"json":{}}]]}}],
		"Read: file":[{"startTime":1,"executionTime":2,"source":[{"previousNode":"Start"}],"data":{"main":[null,[
			{"json":{"n":1},"binary":{"data file":{"data":%q,"mimeType":"text/plain","fileName":"big.txt"},"thumb":{"data":%q,"mimeType":"image/png"}}}
		]]}}]},"lastNodeExecuted":"Read: file"},"executionData":{"nodeExecutionStack":[]}}`, large, small)
	wf := "wfBinary"
	ex := &store.Execution{WorkflowID: &wf, WorkflowName: "binary", Status: workflow.StatusSuccess, Mode: "manual", Finished: true}
	require.NoError(t, e.in.Store.CreateExecution(context.Background(), ex, &store.ExecutionData{WorkflowData: store.JSON(`{}`), Data: store.JSON(state)}))

	res, b := e.do(t, "GET", fmt.Sprintf("rest/executions/%d", ex.ID), "")
	require.Equal(t, 200, res.StatusCode, string(b))
	require.Less(t, len(b), binaryref.MaxInline, "the large data stays out of the response")
	var detail struct {
		Data struct {
			ResultData struct {
				RunData map[string][]struct {
					ExecutionTime int `json:"executionTime"`
					Data          struct {
						Main [][]struct {
							JSON   map[string]any               `json:"json"`
							Binary map[string]map[string]string `json:"binary"`
						} `json:"main"`
					} `json:"data"`
				} `json:"runData"`
				LastNodeExecuted string `json:"lastNodeExecuted"`
			} `json:"resultData"`
		} `json:"data"`
	}
	decodeData(t, b, &detail)
	require.Equal(t, "Read: file", detail.Data.ResultData.LastNodeExecuted)
	run := detail.Data.ResultData.RunData["Read: file"][0]
	require.Equal(t, 2, run.ExecutionTime)
	require.Nil(t, run.Data.Main[0])
	item := run.Data.Main[1][0]
	require.Equal(t, map[string]any{"n": float64(1)}, item.JSON)
	id := binaryref.Ref{ExecutionID: ex.ID, Node: "Read: file", Run: 0, Output: 1, Item: 0, Key: "data file"}.String()
	require.Equal(t, map[string]string{"data": "", "id": id, "mimeType": "text/plain", "fileName": "big.txt"}, item.Binary["data file"])
	require.Equal(t, map[string]string{"data": small, "mimeType": "image/png"}, item.Binary["thumb"], "small data stays inline")

	// The id works as it is and percent-encoded as one path segment (encodeURIComponent).
	for _, path := range []string{"rest/data/" + id, "rest/data/" + binaryref.EscapePart(id)} {
		res, b = e.do(t, "GET", path, "")
		require.Equal(t, 200, res.StatusCode, "%s: %s", path, b)
		var data string
		decodeData(t, b, &data)
		require.Equal(t, large, data)
	}

	missing := func(path string, status int, message string) {
		t.Helper()
		res, b := e.do(t, "GET", path, "")
		require.Equal(t, status, res.StatusCode, "%s: %s", path, b)
		var eb errorBody
		require.NoError(t, json.Unmarshal(b, &eb))
		require.Contains(t, eb.Message, message)
	}
	missing("rest/data/"+strings.Replace(id, ":data%20file", ":other", 1), 404, `Binary data "other" could not be found`)
	missing("rest/data/"+strings.Replace(id, ":0:1:0:", ":0:0:0:", 1), 404, "could not be found")
	missing(fmt.Sprintf("rest/data/execution:%d:Start:0:0:0:data", ex.ID+1000), 404, fmt.Sprintf("Execution with ID %d could not be found", ex.ID+1000))
	missing("rest/data/nonsense", 400, "Invalid binary data id")
	missing("rest/data/execution:1:Start:zero:0:0:data", 400, "Invalid binary data id")
}

func TestBinaryDataFollowsExecutionAccess(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	state := `{"resultData":{"runData":{"A":[{"startTime":1,"executionTime":0,"source":[],"data":{"main":[[{"json":{},"binary":{"data":{"data":"aGk=","mimeType":"text/plain"}}}]]}}]}}}`
	ex := &store.Execution{WorkflowName: "private", Status: workflow.StatusSuccess, Mode: "manual", Finished: true}
	wf := "wfPrivate"
	ex.WorkflowID = &wf
	require.NoError(t, e.in.Store.CreateExecution(context.Background(), ex, &store.ExecutionData{WorkflowData: store.JSON(`{}`), Data: store.JSON(state)}))
	path := fmt.Sprintf("rest/data/execution:%d:A:0:0:0:data", ex.ID)
	var data string
	owner.ok(t, "GET", path, "", &data)
	require.Equal(t, "aGk=", data)
	status, b := member.call(t, "GET", path, "")
	require.Equal(t, 404, status, "a member does not see another's execution: %s", b)
	status, _ = e.person().call(t, "GET", path, "")
	require.Equal(t, 401, status)
}
