package queue

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/redisconn"
)

var redisServers = []struct {
	name string
	url  func(t *testing.T) string
}{
	{"redis", func(t *testing.T) string { _, u := queuetest.Redis(t); return u }},
	{"embedded", func(t *testing.T) string {
		e, err := redisconn.StartEmbedded()
		require.NoError(t, err)
		t.Cleanup(e.Stop)
		return e.URL()
	}},
}

// TestLeanScripts: tasks are taken and, once done, removed as asynq does, and counted nowhere —
// which also tells that the hook still knows the scripts of the asynq in go.mod.
func TestLeanScripts(t *testing.T) {
	for _, tc := range redisServers {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			rdb := queuetest.RedisAt(t, url)
			srv := NewServer(rdb, ServerConfig{Concurrency: 2})
			ran := make(chan int64, 2)
			srv.Handle(KindExecutionRun, func(_ context.Context, payload []byte) error {
				var p ExecutionRun
				if err := Decode(KindExecutionRun, payload, &p); err != nil {
					return err
				}
				ran <- p.ExecutionID
				return nil
			})
			require.NoError(t, srv.Start())
			t.Cleanup(srv.Stop)
			c := NewClient(rdb)
			ctx := context.Background()
			for id := int64(1); id <= 2; id++ { // the first loads the scripts, the second finds them
				require.NoError(t, c.EnqueueExecution(ctx, QueueCritical, ExecutionRun{ExecutionID: id}))
				select {
				case got := <-ran:
					require.Equal(t, id, got)
				case <-time.After(30 * time.Second):
					t.Fatal("the task was not run")
				}
				key := "asynq:{critical}:t:" + ExecutionRun{ExecutionID: id}.TaskID()
				require.Eventually(t, func() bool { return rdb.Exists(ctx, key).Val() == 0 }, 10*time.Second, 5*time.Millisecond,
					"the task was not removed once done")
			}
			require.Zero(t, rdb.LLen(ctx, "asynq:{critical}:active").Val())
			require.Zero(t, rdb.ZCard(ctx, "asynq:{critical}:lease").Val())
			keys, err := rdb.Keys(ctx, "asynq:{critical}:processed*").Result()
			require.NoError(t, err)
			require.Empty(t, keys, "asynq's own done script ran")
			known, err := rdb.ScriptExists(ctx, leanDequeue.sha, leanDone.sha).Result()
			require.NoError(t, err)
			require.Equal(t, []bool{true, true}, known, "the lean scripts ran")
		})
	}
}

// TestLeanDequeueKeepsAPausedQueue: a paused queue gives nothing and keeps its tasks in order;
// once resumed, its oldest task is taken.
func TestLeanDequeueKeepsAPausedQueue(t *testing.T) {
	for _, tc := range redisServers {
		t.Run(tc.name, func(t *testing.T) {
			rdb := queuetest.RedisAt(t, tc.url(t))
			rdb.AddHook(leanScripts{})
			ctx := context.Background()
			const q = "asynq:{critical}:"
			keys := []string{q + "pending", q + "paused", q + "active", q + "lease"}
			dequeue := func() (string, error) {
				// asynq's dequeue as asynq sends it: by its digest.
				return rdb.EvalSha(ctx, leanDequeue.asynqSHA, keys, int64(1234), q+"t:").Text()
			}
			for _, id := range []string{"a", "b"} {
				require.NoError(t, rdb.HSet(ctx, q+"t:"+id, "msg", "msg-"+id, "state", "pending", "pending_since", 1).Err())
				require.NoError(t, rdb.LPush(ctx, q+"pending", id).Err())
			}
			require.NoError(t, rdb.Set(ctx, q+"paused", time.Now().Unix(), 0).Err())
			_, err := dequeue()
			require.ErrorIs(t, err, redis.Nil)
			require.Equal(t, []string{"b", "a"}, rdb.LRange(ctx, q+"pending", 0, -1).Val())
			require.Zero(t, rdb.LLen(ctx, q+"active").Val())

			require.NoError(t, rdb.Del(ctx, q+"paused").Err())
			msg, err := dequeue()
			require.NoError(t, err)
			require.Equal(t, "msg-a", msg)
			require.Equal(t, []string{"a"}, rdb.LRange(ctx, q+"active", 0, -1).Val())
			require.Equal(t, "active", rdb.HGet(ctx, q+"t:a", "state").Val())
			require.Equal(t, 1234.0, rdb.ZScore(ctx, q+"lease", "a").Val())
		})
	}
}

// TestLeanScriptsPauseThroughTheInspector: asynq's own pause stops a server using the lean
// dequeue, and resuming lets it take the task.
func TestLeanScriptsPauseThroughTheInspector(t *testing.T) {
	_, url := queuetest.Redis(t)
	rdb := queuetest.RedisAt(t, url)
	insp := asynq.NewInspectorFromRedisClient(rdb)
	c := NewClient(rdb)
	require.NoError(t, c.EnqueuePing(context.Background(), DebugPing{ID: "paused"}))
	require.NoError(t, insp.PauseQueue(QueueLow))
	// The server finds every queue empty, the paused one included, and then looks again every
	// 100 ms.
	_, got := idleServer(t, url, 100*time.Millisecond)
	info, err := insp.GetQueueInfo(QueueLow)
	require.NoError(t, err)
	require.Equal(t, 1, info.Pending, "the task stays queued")
	require.NoError(t, insp.UnpauseQueue(QueueLow))
	waitPing(t, got, `{"id":"paused","message":""}`)
}

func TestLeanScriptRecognition(t *testing.T) {
	keys := []any{"asynq:{critical}:active", "asynq:{critical}:lease", "asynq:{critical}:t:x",
		"asynq:{critical}:processed:2026-11-26", "asynq:{critical}:processed"}
	done := append([]any{"evalsha", leanDone.asynqSHA, 5}, append(keys, "x", int64(1), int64(2))...)
	lean, ok := leanFor(done, serverScripts)
	require.True(t, ok)
	require.Equal(t, leanDone.sha, lean.sha)
	_, ok = leanFor(append([]any{"evalsha", leanDone.sha, 5}, done[3:]...), serverScripts)
	require.False(t, ok, "the lean script is left as it is")
	_, ok = leanFor(append([]any{"evalsha", leanDone.asynqSHA, 4}, done[3:7]...), serverScripts)
	require.False(t, ok, "not with other keys")
	_, ok = leanFor([]any{"get", "k"}, serverScripts)
	require.False(t, ok)
}

// TestEnqueueWakesOnlyAnEmptyQueue: the enqueue's own script announces a task queued onto an
// empty list, and only such a task.
func TestEnqueueWakesOnlyAnEmptyQueue(t *testing.T) {
	for _, tc := range redisServers {
		t.Run(tc.name, func(t *testing.T) {
			rdb := queuetest.RedisAt(t, tc.url(t))
			ctx := context.Background()
			woken := make(chan string, 10)
			sub := bus.QueueWake.Subscribe(rdb, func(q string) { woken <- q }, bus.SubscriberConfig{})
			require.NoError(t, sub.Start(ctx))
			t.Cleanup(sub.Stop)
			c := NewClient(rdb)
			require.NoError(t, c.EnqueueExecution(ctx, QueueCritical, ExecutionRun{ExecutionID: 1}))
			require.NoError(t, c.EnqueueExecution(ctx, QueueCritical, ExecutionRun{ExecutionID: 2}))
			require.NoError(t, c.EnqueueExecution(ctx, QueueDefault, ExecutionRun{ExecutionID: 3}))
			// Messages arrive in the order they were sent: a wake-up for the second task would
			// come before the default queue's.
			for _, want := range []string{QueueCritical, QueueDefault} {
				select {
				case got := <-woken:
					require.Equal(t, want, got)
				case <-time.After(10 * time.Second):
					t.Fatalf("no wake-up for %s", want)
				}
			}
			require.Equal(t, int64(2), rdb.LLen(ctx, "asynq:{critical}:pending").Val())
			known, err := rdb.ScriptExists(ctx, leanEnqueue.sha).Result()
			require.NoError(t, err)
			require.Equal(t, []bool{true}, known, "the lean enqueue ran")
			require.ErrorIs(t, c.enqueue(ctx, KindExecutionRun, ExecutionRun{ExecutionID: 1},
				c.runOptions(QueueCritical, ExecutionRun{ExecutionID: 1})...), ErrDuplicate)
		})
	}
}
