package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// corpusCase is one file of testdata/: a workflow and the expected output of its nodes, written
// by hand from n8n's documented behaviour.
type corpusCase struct {
	Description string          `json:"description"`
	Workflow    json.RawMessage `json:"workflow"`
	Mode        string          `json:"mode"`
	Input       []workflow.Item `json:"input"`
	Expected    struct {
		Finished           bool                          `json:"finished"`
		NodeExecutionOrder []string                      `json:"nodeExecutionOrder"`
		NodeData           map[string][][]map[string]any `json:"nodeData"`
	} `json:"expected"`
}

// TestCorpus runs every testdata file through ExecuteDocument, the path of `worker execute`.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	eng := newEngine(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			var c corpusCase
			require.NoError(t, json.Unmarshal(b, &c))
			rep, err := eng.ExecuteDocument(context.Background(), c.Workflow, workflow.Mode(c.Mode), c.Input)
			require.NoError(t, err)
			require.Equal(t, c.Expected.Finished, rep.Finished, "%s: error %+v", c.Description, rep.Data.ResultData.Error)
			require.Equal(t, c.Expected.NodeExecutionOrder, rep.NodeExecutionOrder, c.Description)
			for name, want := range c.Expected.NodeData {
				runs := rep.Data.ResultData.RunData[name]
				require.Len(t, runs, len(want), "%s: runs of %s", c.Description, name)
				for i, w := range want {
					got := output0(runs[i])
					if w == nil {
						require.Nil(t, got, "%s: %s run %d", c.Description, name, i)
						continue
					}
					require.True(t, workflow.DeepEqual(toAny(w), toAny(got)), "%s: %s run %d\nwant %v\n got %v", c.Description, name, i, w, got)
				}
			}
			// The printed form must be plain JSON.
			_, err = json.Marshal(rep)
			require.NoError(t, err)
		})
	}
}

// output0 returns the json objects of main output 0 of a run, nil when it has no data.
func output0(run workflow.TaskData) []map[string]any {
	if run.Data == nil || len(run.Data.Main) == 0 || run.Data.Main[0] == nil {
		return nil
	}
	out := []map[string]any{}
	for _, it := range run.Data.Main[0] {
		out = append(out, it.JSON.ToMap())
	}
	return out
}

func toAny(v []map[string]any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
