package rssfeedreadtrigger_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/rssfeedreadtrigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// growingFeed is an RSS feed whose entries the test adds.
type growingFeed struct {
	mu      sync.Mutex
	entries []string
}

func (f *growingFeed) add(title string, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.entries = append([]string{fmt.Sprintf("<item><title>%s</title><pubDate>%s</pubDate></item>", title, at.UTC().Format(time.RFC1123Z))}, f.entries...)
}

func (f *growingFeed) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, _ = fmt.Fprintf(w, `<rss version="2.0"><channel><title>t</title>%s</channel></rss>`, strings.Join(f.entries, ""))
}

func pollOnce(t *testing.T, url string, mode workflow.Mode, static map[string]any, now time.Time) [][]workflow.Item {
	t.Helper()
	typ := rssfeedreadtrigger.Type()
	params, err := workflow.ResolveParameters(typ.Description.Properties, map[string]any{"feedUrl": url}, 1)
	require.NoError(t, err)
	ex := nodes.NewExecution(nodes.ExecutionConfig{
		Node: &workflow.Node{Name: "RSS", Type: typ.Description.Name, TypeVersion: 1, Parameters: params},
		Type: &typ, Mode: mode, Evaluator: nodetest.Evaluator(t), StaticData: static,
		Flow: nodes.FlowConfig{Now: func() time.Time { return now }},
	})
	out, err := typ.Node.Execute(context.Background(), ex)
	require.NoError(t, err)
	return out
}

func titles(out [][]workflow.Item) []any {
	if len(out) == 0 {
		return nil
	}
	var ts []any
	for _, it := range out[0] {
		ts = append(ts, it.JSON.Get("title"))
	}
	return ts
}

func TestPollReturnsEntriesNewerThanTheLastPoll(t *testing.T) {
	t.Parallel()
	feed := &growingFeed{}
	srv := httptest.NewServer(feed)
	t.Cleanup(srv.Close)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	feed.add("old", start.Add(-time.Hour))
	static := map[string]any{}

	// The first poll counts from now: the old entry does not start the workflow.
	require.Nil(t, pollOnce(t, srv.URL, workflow.ModeTrigger, static, start))
	require.Equal(t, "2026-03-01T11:00:00.000Z", static["lastItemDate"])

	feed.add("new 1", start.Add(time.Minute))
	feed.add("new 2", start.Add(2*time.Minute))
	require.Equal(t, []any{"new 2", "new 1"}, titles(pollOnce(t, srv.URL, workflow.ModeTrigger, static, start.Add(5*time.Minute))))
	require.Equal(t, "2026-03-01T12:02:00.000Z", static["lastItemDate"])

	require.Nil(t, pollOnce(t, srv.URL, workflow.ModeTrigger, static, start.Add(10*time.Minute)))

	// A manual run shows the first entry and leaves the static data alone.
	require.Equal(t, []any{"new 2"}, titles(pollOnce(t, srv.URL, workflow.ModeManual, map[string]any{}, start)))
}
