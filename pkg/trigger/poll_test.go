package trigger_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/recurrence"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// feed is what the test poll node polls: a list that only grows.
type feed struct {
	mu    sync.Mutex
	items []string
}

func (f *feed) add(items ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.items = append(f.items, items...)
}

func (f *feed) since(cursor int) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.items[min(cursor, len(f.items)):]...)
}

const counterPollDescription = `{"displayName":"Counter Poll","name":"flowmill-test.counterPoll","group":["trigger"],"version":1,
 "polling":true,"defaults":{"name":"Counter Poll"},"inputs":[],"outputs":["main"],"properties":[]}`

// counterPoll is a poll node as n8n's poll nodes are written: it keeps a cursor in its static
// data, returns the feed's items past the cursor, and nothing (no execution) when there are
// none. Each poll sends the cursor it found to polls.
func counterPoll(f *feed, polls chan<- float64) nodes.Type {
	return nodes.Define([]byte(counterPollDescription), nodes.KindPoll,
		func(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
			static := ex.StaticData()
			cursor, _ := static["cursor"].(float64)
			polls <- cursor
			fresh := f.since(int(cursor))
			if len(fresh) == 0 {
				return nil, nil
			}
			static["cursor"] = cursor + float64(len(fresh))
			items := make([]workflow.Item, len(fresh))
			for i, s := range fresh {
				items[i] = workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"entry": s})}
			}
			return [][]workflow.Item{items}, nil
		})
}

// TestPollTriggerPollsOnItsPollTimes runs an active workflow whose poll node polls every minute
// through the trigger firer (fake clock) and a worker, both given a registry with the test
// poll node: it polls at its poll times; a poll with something new starts an execution with the
// new items, one with nothing new starts none; the cursor kept in static data reaches the next
// poll; once deactivated it polls no more, even for a tick queued before the change.
func TestPollTriggerPollsOnItsPollTimes(t *testing.T) {
	f := &feed{}
	polls := make(chan float64, 16)
	reg := core.Registry()
	reg.MustRegister(counterPoll(f, polls))
	in := openInfra(t)
	w, err := worker.NewWithOptions(in, worker.Options{Nodes: reg})
	require.NoError(t, err)
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(w.Stop)
	s, clock := startFirer(t, in, reg, time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC))
	doc := `{"name":"poll","nodes":[{"name":"Poll","type":"flowmill-test.counterPoll","typeVersion":1,"position":[0,0],
	  "parameters":{"pollTimes":{"item":[{"mode":"everyMinute"}]}}}],"connections":{},"settings":{"timezone":"UTC"}}`
	wf := saveActive(t, in, s, doc)
	parsed, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	rules, err := recurrence.PollRules(&parsed.Nodes[0])
	require.NoError(t, err)
	require.Len(t, rules, 1)

	// poll moves the clock to the next tick, which must be the next poll time, and waits for
	// the poll it queues to finish; it returns the cursor that poll found.
	pollTime := clock.Now()
	poll := func() float64 {
		t.Helper()
		want := rules[0].Next(pollTime, time.UTC)
		pollTime = advance(t, s, clock)
		require.Equal(t, want, pollTime, "polls on its poll times")
		var cursor float64
		select {
		case cursor = <-polls:
		case <-time.After(10 * time.Second):
			t.Fatalf("no poll for the tick at %v", pollTime)
		}
		tick := queue.TriggerFire{WorkflowID: wf.ID, Node: "Poll", FireTime: pollTime.Unix()}
		require.Eventually(t, func() bool { return taskState(t, in, tick) == "completed" }, 10*time.Second, 5*time.Millisecond)
		return cursor
	}

	f.add("a", "b")
	require.Equal(t, 0.0, poll())
	require.Equal(t, [][]string{{"a", "b"}}, polledRuns(t, in, wf.ID))

	require.Equal(t, 2.0, poll(), "the second poll continues from the first one's cursor")
	require.Equal(t, [][]string{{"a", "b"}}, polledRuns(t, in, wf.ID), "a poll with nothing new starts no execution")

	f.add("c")
	require.Equal(t, 2.0, poll())
	require.Equal(t, [][]string{{"a", "b"}, {"c"}}, polledRuns(t, in, wf.ID))
	stored, err := in.Store.GetWorkflow(context.Background(), wf.ID)
	require.NoError(t, err)
	require.JSONEq(t, `{"node:Poll":{"cursor":3}}`, string(stored.StaticData))

	// Deactivated, the scheduler drops the workflow's ticks: its next poll time queues nothing.
	owner := &store.User{GlobalRole: store.RoleOwner}
	_, err = in.Store.UpdateWorkflow(context.Background(), owner, wf.ID, func(w *store.Workflow) error {
		w.Active = false
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, wf.ID))
	require.Eventually(t, func() bool { return s.Loaded(wf.ID, "") }, 10*time.Second, 5*time.Millisecond)
	f.add("d")
	next := rules[0].Next(pollTime, time.UTC)
	require.True(t, s.NextTick().After(next), "no tick left at %v", next)
	clock.Set(next)
	s.Wake()
	tick := queue.TriggerFire{WorkflowID: wf.ID, Node: "Poll", FireTime: next.Unix()}
	require.Empty(t, taskState(t, in, tick), "no task for the poll time after deactivation")

	// A tick queued before the change landed finds the workflow inactive and does not poll.
	require.NoError(t, in.Queue.EnqueueTrigger(context.Background(), tick))
	require.Eventually(t, func() bool { return taskState(t, in, tick) == "completed" }, 10*time.Second, 5*time.Millisecond)
	select {
	case cursor := <-polls:
		t.Fatalf("an inactive workflow polled (cursor %v)", cursor)
	default:
	}
	require.Len(t, polledRuns(t, in, wf.ID), 2)
}

// polledRuns returns, per execution of workflow id (oldest first), the entries the poll node
// passed on; it waits for every execution to finish successfully.
func polledRuns(t *testing.T, in *infra.Infra, id string) [][]string {
	t.Helper()
	ctx := context.Background()
	var list []store.Execution
	require.Eventually(t, func() bool {
		var err error
		list, err = in.Store.ListExecutions(ctx, store.ExecutionFilter{WorkflowID: id}, 100)
		require.NoError(t, err)
		for _, e := range list {
			if e.Status != workflow.StatusSuccess {
				return false
			}
		}
		return true
	}, 10*time.Second, 10*time.Millisecond, "executions did not finish")
	var out [][]string
	for i := len(list) - 1; i >= 0; i-- {
		e := list[i]
		require.Equal(t, workflow.ModeTrigger, e.Mode)
		d, err := in.Store.GetExecutionData(ctx, e.ID)
		require.NoError(t, err)
		var state struct {
			ResultData struct {
				RunData workflow.RunData `json:"runData"`
			} `json:"resultData"`
		}
		require.NoError(t, json.Unmarshal(d.Data, &state))
		runs := state.ResultData.RunData["Poll"]
		require.Len(t, runs, 1)
		var entries []string
		for _, item := range runs[0].Data.Main[0] {
			entries = append(entries, item.JSON.Get("entry").(string))
		}
		out = append(out, entries)
	}
	return out
}

const slowPollDescription = `{"displayName":"Slow Poll","name":"flowmill-test.slowPoll","group":["trigger"],"version":1,
 "polling":true,"defaults":{"name":"Slow Poll"},"inputs":[],"outputs":["main"],"properties":[]}`

// TestPollOutlastingItsIntervalSkipsTheNextTick runs a poll node whose first poll does not
// finish before the next poll time: that tick's task finds the first poll still running and
// polls nothing, so the two cannot pass the same entries on from the same static data.
func TestPollOutlastingItsIntervalSkipsTheNextTick(t *testing.T) {
	polls := make(chan struct{}, 4)
	unblock := make(chan struct{})
	reg := core.Registry()
	reg.MustRegister(nodes.Define([]byte(slowPollDescription), nodes.KindPoll,
		func(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
			polls <- struct{}{}
			select {
			case <-unblock:
			case <-ctx.Done():
			}
			return nil, nil
		}))
	in := openInfra(t)
	w, err := worker.NewWithOptions(in, worker.Options{Nodes: reg})
	require.NoError(t, err)
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(w.Stop)
	s, clock := startFirer(t, in, reg, time.Date(2024, 1, 10, 9, 0, 0, 0, time.UTC))
	wf := saveActive(t, in, s, `{"name":"slow","nodes":[{"name":"Poll","type":"flowmill-test.slowPoll","typeVersion":1,"position":[0,0],
	  "parameters":{}}],"connections":{},"settings":{"timezone":"UTC"}}`)

	first := advance(t, s, clock)
	select {
	case <-polls:
	case <-time.After(10 * time.Second):
		t.Fatal("no poll")
	}
	second := advance(t, s, clock)
	tick := queue.TriggerFire{WorkflowID: wf.ID, Node: "Poll", FireTime: second.Unix()}
	require.Eventually(t, func() bool { return taskState(t, in, tick) == "completed" }, 10*time.Second, 5*time.Millisecond)
	require.Empty(t, polls, "the second tick did not poll while the first was running")
	close(unblock)
	tick.FireTime = first.Unix()
	require.Eventually(t, func() bool { return taskState(t, in, tick) == "completed" }, 10*time.Second, 5*time.Millisecond)

	third := advance(t, s, clock)
	select {
	case <-polls:
	case <-time.After(10 * time.Second):
		t.Fatalf("no poll at %v once the first finished", third)
	}
}
