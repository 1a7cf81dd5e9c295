package localfiletrigger_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/nodes/localfiletrigger"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// watcher runs the node as the scheduler does: one poll per call, the same static data each
// time, the file fence around root.
type watcher struct {
	params m
	host   nodes.Host
	static map[string]any
	now    time.Time
}

func newWatcher(t *testing.T, root string, params m) *watcher {
	t.Helper()
	return &watcher{params: params, host: nodetest.FilesHost(t, root), static: map[string]any{}}
}

type event struct{ Event, Path string }

func (w *watcher) poll(t *testing.T) ([]event, error) {
	t.Helper()
	typ := localfiletrigger.Type()
	params, err := workflow.ResolveParameters(typ.Description.Properties, w.params, 1)
	require.NoError(t, err)
	node := &workflow.Node{Name: "Local File Trigger", Type: typ.Description.Name, TypeVersion: 1, Parameters: params}
	var flow nodes.FlowConfig
	if !w.now.IsZero() {
		flow.Now = func() time.Time { return w.now }
	}
	ex := nodes.NewExecution(nodes.ExecutionConfig{Node: node, Type: &typ, Mode: workflow.ModeTrigger,
		Evaluator: nodetest.Evaluator(t), StaticData: w.static, Host: w.host, Flow: flow,
		Expr: expr.Context{Execution: expr.ExecutionInfo{Mode: workflow.ModeTrigger}}})
	out, err := typ.Node.Execute(context.Background(), ex)
	if err != nil {
		return nil, err
	}
	var evs []event
	if len(out) > 0 {
		for _, it := range out[0] {
			require.Equal(t, []string{"event", "path"}, it.JSON.Keys())
			evs = append(evs, event{it.JSON.Get("event").(string), it.JSON.Get("path").(string)})
		}
	}
	return evs, nil
}

func (w *watcher) mustPoll(t *testing.T) []event {
	t.Helper()
	evs, err := w.poll(t)
	require.NoError(t, err)
	return evs
}

func write(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	require.NoError(t, os.Chtimes(path, mtime, mtime))
}

var past = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

var allEvents = []any{"add", "change", "unlink", "addDir", "unlinkDir"}

func TestFolderEvents(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "in")
	write(t, filepath.Join(dir, "old.txt"), "old", past)
	write(t, filepath.Join(dir, "keep.txt"), "keep", past)
	w := newWatcher(t, root, m{"triggerOn": "folder", "path": dir, "events": allEvents})
	require.Empty(t, w.mustPoll(t), "existing files are ignored by default")

	write(t, filepath.Join(dir, "new.csv"), "a,b", past)
	write(t, filepath.Join(dir, "keep.txt"), "keep more", past.Add(time.Hour))
	require.NoError(t, os.Remove(filepath.Join(dir, "old.txt")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.Equal(t, []event{
		{"unlink", filepath.Join(dir, "old.txt")},
		{"change", filepath.Join(dir, "keep.txt")},
		{"add", filepath.Join(dir, "new.csv")},
		{"addDir", filepath.Join(dir, "sub")},
	}, w.mustPoll(t))
	require.Empty(t, w.mustPoll(t), "each change is reported once")

	write(t, filepath.Join(dir, "sub", "deep.txt"), "x", past)
	require.Equal(t, []event{{"add", filepath.Join(dir, "sub", "deep.txt")}}, w.mustPoll(t))
	require.NoError(t, os.RemoveAll(filepath.Join(dir, "sub")))
	require.Equal(t, []event{
		{"unlink", filepath.Join(dir, "sub", "deep.txt")},
		{"unlinkDir", filepath.Join(dir, "sub")},
	}, w.mustPoll(t))

	// Only the events asked for.
	only := newWatcher(t, root, m{"triggerOn": "folder", "path": dir, "events": []any{"unlink"}})
	only.mustPoll(t)
	write(t, filepath.Join(dir, "other.txt"), "o", past)
	require.NoError(t, os.Remove(filepath.Join(dir, "new.csv")))
	require.Equal(t, []event{{"unlink", filepath.Join(dir, "new.csv")}}, only.mustPoll(t))
}

func TestExistingEntriesWhenNotIgnored(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	write(t, filepath.Join(root, "a", "b.txt"), "b", past)
	w := newWatcher(t, root, m{"triggerOn": "folder", "path": "a", "events": allEvents,
		"options": m{"ignoreInitial": false}})
	require.Equal(t, []event{{"add", filepath.Join("a", "b.txt")}}, w.mustPoll(t),
		"a relative path is relative to the files folder and reported as given")
}

func TestIgnoredAndDepth(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	w := newWatcher(t, root, m{"triggerOn": "folder", "path": root, "events": allEvents,
		"options": m{"ignored": "**/*.tmp"}})
	w.mustPoll(t)
	write(t, filepath.Join(root, "x.tmp"), "t", past)
	write(t, filepath.Join(root, "x.txt"), "t", past)
	require.Equal(t, []event{{"add", filepath.Join(root, "x.txt")}}, w.mustPoll(t))

	folder := newWatcher(t, root, m{"triggerOn": "folder", "path": root, "events": allEvents,
		"options": m{"ignored": filepath.Join(root, "cache")}})
	folder.mustPoll(t)
	write(t, filepath.Join(root, "cache", "c.bin"), "c", past)
	write(t, filepath.Join(root, "y.txt"), "y", past)
	require.Equal(t, []event{{"add", filepath.Join(root, "y.txt")}}, folder.mustPoll(t), "what an ignored folder holds is ignored too")

	top := newWatcher(t, root, m{"triggerOn": "folder", "path": root, "events": allEvents, "options": m{"depth": 0.0}})
	one := newWatcher(t, root, m{"triggerOn": "folder", "path": root, "events": allEvents, "options": m{"depth": 1.0}})
	top.mustPoll(t)
	one.mustPoll(t)
	write(t, filepath.Join(root, "l1", "f1.txt"), "1", past)
	write(t, filepath.Join(root, "l1", "l2", "f2.txt"), "2", past)
	require.Equal(t, []event{{"addDir", filepath.Join(root, "l1")}}, top.mustPoll(t))
	require.Equal(t, []event{
		{"addDir", filepath.Join(root, "l1")},
		{"add", filepath.Join(root, "l1", "f1.txt")},
		{"addDir", filepath.Join(root, "l1", "l2")},
	}, one.mustPoll(t))
}

func TestFileChanges(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	file := filepath.Join(root, "report.pdf")
	w := newWatcher(t, root, m{"triggerOn": "file", "path": file})
	require.Empty(t, w.mustPoll(t))
	write(t, file, "v1", past)
	require.Empty(t, w.mustPoll(t), "a specific file reports changes only")
	write(t, file, "v2 longer", past.Add(time.Minute))
	require.Equal(t, []event{{"change", file}}, w.mustPoll(t))
	require.Empty(t, w.mustPoll(t))
}

func TestAwaitWriteFinish(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	w := newWatcher(t, root, m{"triggerOn": "folder", "path": root, "events": allEvents, "options": m{"awaitWriteFinish": true}})
	w.now = past
	w.mustPoll(t)
	write(t, filepath.Join(root, "big.bin"), "partial", past.Add(-time.Second))
	require.Empty(t, w.mustPoll(t), "still being written")
	w.now = past.Add(time.Minute)
	require.Equal(t, []event{{"add", filepath.Join(root, "big.bin")}}, w.mustPoll(t))
}

func TestFence(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	outside := t.TempDir()
	w := newWatcher(t, root, m{"triggerOn": "folder", "path": outside, "events": allEvents})
	_, err := w.poll(t)
	require.Error(t, err)
	nodetest.NodeError(t, err)

	// A link inside the fence to a folder outside it is not followed.
	write(t, filepath.Join(outside, "secret.txt"), "s", past)
	in := filepath.Join(root, "in")
	require.NoError(t, os.Mkdir(in, 0o755))
	l := newWatcher(t, root, m{"triggerOn": "folder", "path": in, "events": allEvents, "options": m{"ignoreInitial": false}})
	require.NoError(t, os.Symlink(outside, filepath.Join(in, "link")))
	require.Empty(t, l.mustPoll(t))

	none := &watcher{params: m{"triggerOn": "folder", "path": root, "events": allEvents}, static: map[string]any{}}
	_, err = none.poll(t)
	require.ErrorContains(t, err, "FLOWMILL_FILES_DIR")
}

func TestOffUnlessEnabled(t *testing.T) {
	t.Parallel()
	const name = "n8n-nodes-base.localFileTrigger"
	_, ok := core.ForInstance(&config.Config{}).Get(name, 1)
	require.False(t, ok)
	typ, ok := core.ForInstance(&config.Config{NodesEnable: name}).Get(name, 1)
	require.True(t, ok)
	require.Equal(t, nodes.KindPoll, typ.Kind)
	require.True(t, typ.PollEach)
}
