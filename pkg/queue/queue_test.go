package queue_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/redisconn"
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
	e, err := redisconn.StartEmbedded()
	require.NoError(t, err)
	defer e.Stop()
	rdb, err := redisconn.Open(context.Background(), e.URL())
	require.NoError(t, err)
	defer rdb.Close()
	pingRoundTrip(t, rdb)
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

	queued, err := c.RequeueExecution(ctx, queue.QueueDefault, p)
	require.NoError(t, err)
	require.True(t, queued)
	info, err := ins.GetTaskInfo(queue.QueueDefault, p.TaskID())
	require.NoError(t, err)
	require.Equal(t, asynq.TaskStatePending, info.State)

	// A pending task is left alone.
	queued, err = c.RequeueExecution(ctx, queue.QueueDefault, p)
	require.NoError(t, err)
	require.False(t, queued)
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 1, sizes[queue.QueueDefault])
}

func TestQueueForMode(t *testing.T) {
	require.Equal(t, queue.QueueCritical, queue.QueueFor("manual"))
	require.Equal(t, queue.QueueCritical, queue.QueueFor("webhook"))
	require.Equal(t, queue.QueueDefault, queue.QueueFor("trigger"))
	require.Equal(t, queue.QueueDefault, queue.QueueFor("retry"))
}

// TestRequeueLeavesAnActiveTaskAlone: the task of a live worker is left to it.
func TestRequeueLeavesAnActiveTaskAlone(t *testing.T) {
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
	require.Greater(t, info.Timeout, 24*time.Hour, "asynq never cuts a run short with its 30-minute default")

	// Once the live worker's heartbeat lists the task, a second task would be a second chain of
	// runs of the same execution.
	require.Eventually(t, func() bool {
		servers, err := asynq.NewInspectorFromRedisClient(rdb).Servers()
		require.NoError(t, err)
		for _, s := range servers {
			for _, w := range s.ActiveWorkers {
				if w.TaskID == p.TaskID() {
					return true
				}
			}
		}
		return false
	}, 15*time.Second, 50*time.Millisecond)
	queued, err := c.RequeueExecution(ctx, queue.QueueDefault, p)
	require.NoError(t, err)
	require.False(t, queued)
	sizes, err := c.QueueSizes()
	require.NoError(t, err)
	require.Equal(t, 0, sizes[queue.QueueDefault])
}

// TestDeferKeepsTheTaskID: a handler that defers its task gets it back under the same id, and no
// other task of the execution exists meanwhile.
func TestDeferKeepsTheTaskID(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx := context.Background()
	ids := make(chan string, 10)
	var calls atomic.Int32
	srv := queue.NewServer(rdb, queue.ServerConfig{Concurrency: 2})
	srv.HandleTask(queue.KindExecutionRun, func(ctx context.Context, task *asynq.Task) error {
		id, _ := asynq.GetTaskID(ctx)
		ids <- id
		if calls.Add(1) < 3 {
			return queue.Defer(10*time.Millisecond, "test")
		}
		return nil
	})
	require.NoError(t, srv.Start())
	defer srv.Stop()
	c := queue.NewClientWith(rdb, queue.ClientConfig{ExecutionTimeout: time.Hour})
	p := queue.ExecutionRun{ExecutionID: 12}
	require.NoError(t, c.EnqueueExecution(ctx, queue.QueueDefault, p))
	for range 3 {
		select {
		case id := <-ids:
			require.Equal(t, p.TaskID(), id)
		case <-time.After(15 * time.Second):
			t.Fatal("the deferred task did not come back")
		}
	}
}
