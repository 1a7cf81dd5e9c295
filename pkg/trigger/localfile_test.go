package trigger_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestLocalFileTriggerWithTwoSchedulers runs an active Local File Trigger workflow with two
// schedulers firing the same ticks and a worker: the first scan only lists the folder, each
// file added afterwards starts exactly one execution of its own, and a scan finding nothing
// new starts none.
func TestLocalFileTriggerWithTwoSchedulers(t *testing.T) {
	files := t.TempDir()
	in := infratest.Open(t, map[string]string{"FLOWMILL_ENCRYPTION_KEY": "trigger-test-key-0123",
		"FLOWMILL_FILES_DIR": files, "FLOWMILL_NODES_ENABLE": "n8n-nodes-base.localFileTrigger"})
	w, err := worker.NewWithOptions(in, worker.Options{})
	require.NoError(t, err)
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(w.Stop)
	start := time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC)
	s1, c1 := startFirer(t, in, nil, start)
	s2, c2 := startFirer(t, in, nil, start)
	inbox := filepath.Join(files, "inbox")
	require.NoError(t, os.Mkdir(inbox, 0o755))
	doc := `{"name":"watch","nodes":[{"name":"Watch","type":"n8n-nodes-base.localFileTrigger","typeVersion":1,"position":[0,0],
	  "parameters":{"triggerOn":"folder","path":"inbox","events":["add"]}}],"connections":{},"settings":{"timezone":"UTC"}}`
	wf := saveActive(t, in, s1, doc)
	require.Eventually(t, func() bool { return s2.Loaded(wf.ID, wf.VersionID) }, 10*time.Second, 5*time.Millisecond)

	// tick fires the next tick on both schedulers and waits for its one task to finish.
	tick := func() {
		t.Helper()
		next := s1.NextTick()
		require.Equal(t, next, s2.NextTick(), "both schedulers fire the same ticks")
		c1.Set(next)
		c2.Set(next)
		s1.Wake()
		s2.Wake()
		require.Eventually(t, func() bool { return s1.NextTick().After(next) && s2.NextTick().After(next) }, 10*time.Second, time.Millisecond)
		fire := queue.TriggerFire{WorkflowID: wf.ID, Node: "Watch", FireTime: next.Unix()}
		require.Eventually(t, func() bool { return taskState(t, in, fire) == "completed" }, 10*time.Second, 5*time.Millisecond)
	}

	require.NoError(t, os.WriteFile(filepath.Join(inbox, "before.txt"), []byte("x"), 0o644))
	tick()
	require.Empty(t, watchRuns(t, in, wf.ID, 0), "the first scan only lists what is there")

	require.NoError(t, os.WriteFile(filepath.Join(inbox, "a.txt"), []byte("a"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(inbox, "b.txt"), []byte("b"), 0o644))
	tick()
	require.Equal(t, []string{"add " + filepath.Join("inbox", "a.txt"), "add " + filepath.Join("inbox", "b.txt")},
		watchRuns(t, in, wf.ID, 2), "one execution per file")

	tick()
	require.Len(t, watchRuns(t, in, wf.ID, 2), 2, "nothing new, no execution")
}

// watchRuns waits for want successful executions of workflow id and returns each one's single
// item as "event path", sorted.
func watchRuns(t *testing.T, in *infra.Infra, id string, want int) []string {
	t.Helper()
	ctx := context.Background()
	var list []store.Execution
	require.Eventually(t, func() bool {
		var err error
		list, err = in.Store.ListExecutions(ctx, store.ExecutionFilter{WorkflowID: id}, 100)
		require.NoError(t, err)
		if len(list) != want {
			return false
		}
		for _, e := range list {
			if e.Status != workflow.StatusSuccess {
				return false
			}
		}
		return true
	}, 10*time.Second, 10*time.Millisecond, "executions did not finish")
	out := []string{}
	for _, e := range list {
		d, err := in.Store.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		var state struct {
			ResultData struct {
				RunData workflow.RunData `json:"runData"`
			} `json:"resultData"`
		}
		require.NoError(t, json.Unmarshal(d.Data, &state))
		runs := state.ResultData.RunData["Watch"]
		require.Len(t, runs, 1)
		items := runs[0].Data.Main[0]
		require.Len(t, items, 1)
		out = append(out, items[0].JSON.Get("event").(string)+" "+items[0].JSON.Get("path").(string))
	}
	slices.Sort(out)
	return out
}
