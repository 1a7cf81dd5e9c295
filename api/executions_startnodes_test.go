package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Execute Node on Set of a workflow that never ran: the editor sends Set as start node, Set as
// destination and no run data. The run starts at Start, so Set gets its input and output.
func TestRunToANodeWithoutRunDataRunsItsParentsFirst(t *testing.T) {
	e := startWithWorker(t, map[string]string{"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS": "true"})
	res, b := e.do(t, "POST", "rest/workflows/run", `{"workflowData":`+startSetWorkflow+`,"startNodes":["Set"],"destinationNode":"Set"}`,
		"Content-Type", "application/json", "sessionid", "ed-start")
	require.Equal(t, 200, res.StatusCode, string(b))
	var out runResponse
	decodeData(t, b, &out)
	require.NotEmpty(t, out.ExecutionID)

	var d struct {
		Finished bool `json:"finished"`
		Data     struct {
			ResultData struct {
				RunData runDataJSON `json:"runData"`
			} `json:"resultData"`
		} `json:"data"`
	}
	require.Eventually(t, func() bool {
		res, b := e.do(t, "GET", "rest/executions/"+out.ExecutionID, "")
		if res.StatusCode != 200 {
			return false
		}
		decodeData(t, b, &d)
		return d.Finished
	}, 20*time.Second, 50*time.Millisecond, "the run to finish")
	runData := d.Data.ResultData.RunData
	require.Len(t, runData["Start"], 1, "the parent without data ran first")
	require.Len(t, runData["Set"], 1)
	require.Equal(t, "x", runData["Set"][0].Data.Main[0][0].JSON["s"])
}
