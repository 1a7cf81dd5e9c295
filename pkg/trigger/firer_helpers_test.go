package trigger_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/scheduler"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// fakeClock is a scheduler clock that moves only when the test moves it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// openInfra opens the plumbing of one process on a fresh Postgres schema and Redis database.
func openInfra(t *testing.T) *infra.Infra {
	t.Helper()
	return infratest.Open(t, map[string]string{"FLOWMILL_ENCRYPTION_KEY": "trigger-test-key-0123"})
}

// startFirer starts a trigger firer on in whose clock stands at start until the test
// moves it; reg nil means the core node types.
func startFirer(t *testing.T, in *infra.Infra, reg *nodes.Registry, start time.Time) (*trigger.Firer, *fakeClock) {
	t.Helper()
	cfg := scheduler.FirerConfig(in)
	cfg.Nodes = cmp.Or(reg, cfg.Nodes)
	s, err := trigger.NewFirer(cfg)
	require.NoError(t, err)
	clock := &fakeClock{now: start}
	s.Now = clock.Now
	require.NoError(t, s.Start(context.Background()))
	t.Cleanup(s.Stop)
	return s, clock
}

// saveActive stores an active workflow from its JSON (name, nodes, connections, settings) and
// waits until the scheduler has loaded it.
func saveActive(t *testing.T, in *infra.Infra, s *trigger.Firer, doc string) *store.Workflow {
	t.Helper()
	var d struct {
		Name        string          `json:"name"`
		Nodes       json.RawMessage `json:"nodes"`
		Connections json.RawMessage `json:"connections"`
		Settings    json.RawMessage `json:"settings"`
	}
	require.NoError(t, json.Unmarshal([]byte(doc), &d))
	now := time.Now().UTC()
	w := &store.Workflow{ID: store.NewID(), Name: d.Name, Active: true, Nodes: store.JSON(d.Nodes),
		Connections: store.JSON(d.Connections), Settings: store.JSON(d.Settings), VersionID: store.NewUUID(),
		CreatedAt: now, UpdatedAt: now}
	require.NoError(t, in.Store.DB.Create(w).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
	require.Eventually(t, func() bool { return s.Loaded(w.ID, w.VersionID) }, 10*time.Second, 5*time.Millisecond,
		"the scheduler never loaded the workflow")
	return w
}

// advance moves the clock to the scheduler's next tick, wakes the scheduler and waits until it
// has handled every trigger due then (queued their tasks and moved them on), as its own timer
// would have. It returns the tick. Without a trigger due within the hour it moves an hour.
func advance(t *testing.T, s *trigger.Firer, c *fakeClock) time.Time {
	t.Helper()
	next := s.NextTick()
	c.Set(next)
	s.Wake()
	require.Eventually(t, func() bool { return s.NextTick().After(next) }, 10*time.Second, time.Millisecond,
		"the scheduler did not handle the tick at %v", next)
	return next
}

// queuedFires returns the fire times of the trigger:fire tasks of workflow id waiting in the
// queue, earliest first.
func queuedFires(t *testing.T, in *infra.Infra, id string) []time.Time {
	t.Helper()
	tasks, err := asynq.NewInspectorFromRedisClient(in.Redis).ListPendingTasks(queue.QueueDefault, asynq.PageSize(1000))
	if errors.Is(err, asynq.ErrQueueNotFound) {
		return nil
	}
	require.NoError(t, err)
	var out []time.Time
	for _, task := range tasks {
		if task.Type != queue.KindTriggerFire {
			continue
		}
		var p queue.TriggerFire
		require.NoError(t, queue.Decode(task.Type, task.Payload, &p))
		require.Equal(t, p.TaskID(), task.ID, "the task id names the tick")
		if p.WorkflowID == id {
			out = append(out, time.Unix(p.FireTime, 0))
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}

// taskState is the state of the trigger:fire task of one tick, or "" when none was queued.
func taskState(t *testing.T, in *infra.Infra, p queue.TriggerFire) string {
	t.Helper()
	info, err := asynq.NewInspectorFromRedisClient(in.Redis).GetTaskInfo(queue.QueueDefault, p.TaskID())
	if errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
		return ""
	}
	require.NoError(t, err)
	return info.State.String()
}
