package queue_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t *testing.T, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func pingRoundTrip(t *testing.T, rdb redis.UniversalClient) {
	t.Helper()
	srv := queue.NewServer(rdb, queue.ServerConfig{Concurrency: 2})
	srv.HandleTask(queue.KindDebugPing, func(ctx context.Context, task *asynq.Task) error {
		var p queue.DebugPing
		if err := queue.Decode(task.Type(), task.Payload(), &p); err != nil {
			return err
		}
		_, err := task.ResultWriter().Write([]byte("pong:" + p.Message))
		return err
	})
	require.NoError(t, srv.Start())
	defer srv.Stop()
	c := queue.NewClient(rdb)
	require.NoError(t, c.EnqueuePing(context.Background(), queue.DebugPing{ID: "p1", Message: "hello"}))
	var result string
	waitFor(t, 10*time.Second, func() bool {
		r, ok, err := c.PingResult("p1")
		require.NoError(t, err)
		result = r
		return ok
	})
	require.Equal(t, "pong:hello", result)
}

func TestPingRoundTripOnRedis(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	pingRoundTrip(t, rdb)
}

func TestPingRoundTripOnEmbeddedRedis(t *testing.T) {
	e, err := queue.StartEmbeddedRedis()
	require.NoError(t, err)
	defer e.Stop()
	rdb, err := queue.OpenRedis(context.Background(), e.URL())
	require.NoError(t, err)
	defer rdb.Close()
	pingRoundTrip(t, rdb)
}

func TestEmbeddedRedisExpiresKeys(t *testing.T) {
	e, err := queue.StartEmbeddedRedis()
	require.NoError(t, err)
	defer e.Stop()
	e.Stop() // safe twice
	e2, err := queue.StartEmbeddedRedis()
	require.NoError(t, err)
	defer e2.Stop()
	rdb, err := queue.OpenRedis(context.Background(), e2.URL())
	require.NoError(t, err)
	defer rdb.Close()
	require.NoError(t, rdb.Set(context.Background(), "k", "v", 200*time.Millisecond).Err())
	waitFor(t, 5*time.Second, func() bool {
		return errors.Is(rdb.Get(context.Background(), "k").Err(), redis.Nil)
	})
}

func TestDuplicateExecutionIsQueuedOnce(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	c := queue.NewClient(rdb)
	ctx := context.Background()
	require.NoError(t, c.EnqueueExecution(ctx, queue.QueueCritical, queue.ExecutionRun{ExecutionID: 7}))
	require.NoError(t, c.EnqueueExecution(ctx, queue.QueueCritical, queue.ExecutionRun{ExecutionID: 7}))
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueCritical])
	require.Equal(t, 0, sizes[queue.QueueDefault])
}

func TestRequeueReplacesArchivedTask(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	c := queue.NewClient(rdb)
	ctx := context.Background()
	p := queue.ExecutionRun{ExecutionID: 9}
	require.NoError(t, c.EnqueueExecution(ctx, queue.QueueDefault, p))
	ins := asynq.NewInspectorFromRedisClient(rdb)
	require.NoError(t, ins.ArchiveTask(queue.QueueDefault, p.TaskID()))

	require.NoError(t, c.RequeueExecution(ctx, queue.QueueDefault, p))
	info, err := ins.GetTaskInfo(queue.QueueDefault, p.TaskID())
	require.NoError(t, err)
	require.Equal(t, asynq.TaskStatePending, info.State)

	// A pending task is left alone.
	require.NoError(t, c.RequeueExecution(ctx, queue.QueueDefault, p))
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueDefault])
}

func TestReconcilerQueuesOrphanedExecutions(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	s := storetest.SQLite(t)
	ctx := context.Background()
	old := time.Now().UTC().Add(-time.Minute)
	orphan := &store.Execution{Status: workflow.StatusNew, Mode: "manual", CreatedAt: old}
	require.NoError(t, s.CreateExecution(ctx, orphan, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	leased := &store.Execution{Status: workflow.StatusNew, Mode: "trigger", CreatedAt: old}
	require.NoError(t, s.CreateExecution(ctx, leased, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	_, err := s.AcquireLease(ctx, leased.ID, "w1", time.Minute)
	require.NoError(t, err)

	c := queue.NewClient(rdb)
	r := queue.NewReconciler(s, c, time.Hour, nil)
	n, err := r.RunOnce(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	got, err := s.GetExecution(ctx, orphan.ID)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusQueued, got.Status)
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueCritical])

	// Running again does not queue it twice.
	_, err = r.RunOnce(ctx)
	require.NoError(t, err)
	sizes, err = c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueCritical])

	require.NoError(t, r.Start(ctx))
	r.Stop()
	r.Stop()
}

func TestHeartbeat(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx := context.Background()
	h := queue.NewHeartbeat(rdb, queue.RoleWorker, "w-1", time.Second, nil)
	require.NoError(t, h.Start(ctx))
	live, err := queue.LiveInstances(ctx, rdb, queue.RoleWorker)
	require.NoError(t, err)
	require.Equal(t, []string{"w-1"}, live)
	ttl, err := rdb.TTL(ctx, queue.KeyHeartbeatPrefix+"worker:w-1").Result()
	require.NoError(t, err)
	require.InDelta(t, 3*time.Second, ttl, float64(time.Second))
	h.Stop()
	h.Stop()
	live, err = queue.LiveInstances(ctx, rdb, queue.RoleWorker)
	require.NoError(t, err)
	require.Empty(t, live)
}

func TestQueueForMode(t *testing.T) {
	require.Equal(t, queue.QueueCritical, queue.QueueFor("manual"))
	require.Equal(t, queue.QueueCritical, queue.QueueFor("webhook"))
	require.Equal(t, queue.QueueDefault, queue.QueueFor("trigger"))
	require.Equal(t, queue.QueueDefault, queue.QueueFor("retry"))
}

func TestRequeueAddsATaskWhenTheOldOneIsStuckActive(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx := context.Background()
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	srv := queue.NewServer(rdb, queue.ServerConfig{Concurrency: 1})
	srv.Handle(queue.KindExecutionRun, func(ctx context.Context, _ []byte) error {
		started <- struct{}{}
		<-release // hangs, as on a worker that died mid-run
		return nil
	})
	require.NoError(t, srv.Start())
	defer srv.Stop()
	defer close(release)
	c := queue.NewClient(rdb)
	p := queue.ExecutionRun{ExecutionID: 11}
	require.NoError(t, c.EnqueueExecution(ctx, queue.QueueDefault, p))
	<-started
	info, err := asynq.NewInspectorFromRedisClient(rdb).GetTaskInfo(queue.QueueDefault, p.TaskID())
	require.NoError(t, err)
	require.Equal(t, asynq.TaskStateActive, info.State)

	require.NoError(t, c.RequeueExecution(ctx, queue.QueueDefault, p))
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueDefault], "a second task waits behind the stuck one")
}

func TestReconcilerMarksOrphanedSubWorkflowRunsCrashed(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	s := storetest.SQLite(t)
	ctx := context.Background()
	old := time.Now().UTC().Add(-time.Minute)
	sub := &store.Execution{Status: workflow.StatusRunning, Mode: "integrated", CreatedAt: old}
	require.NoError(t, s.CreateExecution(ctx, sub, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	c := queue.NewClient(rdb)
	_, err := queue.NewReconciler(s, c, time.Hour, nil).RunOnce(ctx)
	require.NoError(t, err)
	got, err := s.GetExecution(ctx, sub.ID)
	require.NoError(t, err)
	require.Equal(t, workflow.StatusCrashed, got.Status)
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Zero(t, sizes[queue.QueueDefault], "its parent runs it again, not the queue")
}
