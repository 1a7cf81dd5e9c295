package queue

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

// idleServer starts a server whose handled pings arrive on the returned channel, and waits
// until it has found every queue empty, so that from then on it asks Redis only when woken or
// after recheck.
func idleServer(t *testing.T, url string, recheck time.Duration) (*Server, <-chan string) {
	t.Helper()
	rdb := queuetest.RedisAt(t, url)
	srv := NewServer(rdb, ServerConfig{Concurrency: 2, IdleRecheck: recheck})
	require.NotNil(t, srv.gate, "a single-node client gets the idle gate")
	got := make(chan string, 10)
	srv.HandleTask(KindDebugPing, func(ctx context.Context, task *asynq.Task) error {
		got <- string(task.Payload())
		return nil
	})
	require.NoError(t, srv.Start())
	t.Cleanup(srv.Stop)
	require.Eventually(t, srv.gate.idle, 10*time.Second, 5*time.Millisecond, "the server never found its queues empty")
	return srv, got
}

// idle tells whether every queue is known empty.
func (g *idleGate) idle() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.emptySince) == len(g.queues)
}

func waitPing(t *testing.T, got <-chan string, want string) {
	t.Helper()
	select {
	case p := <-got:
		require.JSONEq(t, want, p)
	case <-time.After(30 * time.Second):
		t.Fatal("the task was not run")
	}
}

func TestIdleServerRunsAnEnqueuedTaskWhenWoken(t *testing.T) {
	for _, tc := range redisServers {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			// An hour between looks: only the enqueue's wake-up can get the task run.
			srv, got := idleServer(t, url, time.Hour)
			srv.gate.mu.Lock()
			asked := srv.gate.asked
			srv.gate.mu.Unlock()
			c := NewClient(queuetest.RedisAt(t, url))
			require.NoError(t, c.EnqueuePing(context.Background(), DebugPing{ID: "p1", Message: "hi"}))
			waitPing(t, got, `{"id":"p1","message":"hi"}`)
			srv.gate.mu.Lock()
			defer srv.gate.mu.Unlock()
			require.Greater(t, srv.gate.asked, asked)
		})
	}
}

func TestIdleServerRunsAForwardedTask(t *testing.T) {
	_, url := queuetest.Redis(t)
	_, got := idleServer(t, url, time.Hour)
	// A scheduled task is not announced: the server's forwarder moving it to the pending list
	// wakes the gate.
	ac := asynq.NewClientFromRedisClient(queuetest.RedisAt(t, url))
	_, err := ac.Enqueue(asynq.NewTask(KindDebugPing, []byte(`{"id":"p2"}`)), asynq.Queue(QueueLow),
		asynq.ProcessIn(time.Second))
	require.NoError(t, err)
	waitPing(t, got, `{"id":"p2"}`)
}

func TestIdleServerFindsAnUnannouncedTaskAtRecheck(t *testing.T) {
	_, url := queuetest.Redis(t)
	_, got := idleServer(t, url, 200*time.Millisecond)
	// Enqueued past the client, so no wake-up is sent: as after a lost message.
	ac := asynq.NewClientFromRedisClient(queuetest.RedisAt(t, url))
	_, err := ac.Enqueue(asynq.NewTask(KindDebugPing, []byte(`{"id":"p3"}`)), asynq.Queue(QueueCritical))
	require.NoError(t, err)
	waitPing(t, got, `{"id":"p3"}`)
}

func TestIdleGateKeepsAWakeUpDuringADequeue(t *testing.T) {
	g := newIdleGate([]string{"a"}, time.Hour)
	ok, gen, _ := g.pass("a")
	require.True(t, ok)
	g.wake("a") // a task arrives after the dequeue left, before its empty answer is back
	g.found("a", gen, true)
	require.False(t, g.idle(), "the queue must be asked again")
	ok, gen, _ = g.pass("a")
	require.True(t, ok)
	g.found("a", gen, true)
	require.True(t, g.idle())
}

func TestScriptRecognition(t *testing.T) {
	require.True(t, isDequeue([]string{"asynq:{critical}:pending", "asynq:{critical}:paused", "asynq:{critical}:active", "asynq:{critical}:lease"}))
	require.True(t, isForward([]string{"asynq:{low}:retry", "asynq:{low}:pending"}))
	require.False(t, isForward([]string{"asynq:{low}:completed", "asynq:{low}:pending"}))
	require.Equal(t, "critical", queueOfKey("asynq:{critical}:pending"))
}

// TestIdleGateAsksBeforeAScript runs stand-in scripts with the key shapes of asynq's dequeue,
// forward and completed-task janitor scripts through the gate: while the list or sorted set
// they would work on has nothing due, the gate answers as the script would (nil, 0) without
// running it; once it has, the script runs.
func TestIdleGateAsksBeforeAScript(t *testing.T) {
	for _, tc := range redisServers {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			url := tc.url(t)
			plain, gated := queuetest.RedisAt(t, url), queuetest.RedisAt(t, url)
			g := newIdleGate([]string{"low"}, time.Hour)
			gated.AddHook(g)
			now := time.Now().Unix()

			dequeue := []string{"asynq:{low}:pending", "asynq:{low}:paused", "asynq:{low}:active", "asynq:{low}:lease"}
			require.ErrorIs(t, gated.Eval(ctx, `return "ran"`, dequeue, now).Err(), redis.Nil)
			require.True(t, g.idle(), "the empty answer marks the queue empty")
			require.NoError(t, plain.LPush(ctx, dequeue[0], "t1").Err())
			g.wake("low") // as the enqueue's message would
			require.Equal(t, "ran", gated.Eval(ctx, `return "ran"`, dequeue, now).Val())
			// A dequeue that found a task is followed by one without the pre-check: the script
			// runs although the list is empty now, and its empty answer brings the pre-check back.
			require.NoError(t, plain.Del(ctx, dequeue[0]).Err())
			require.Equal(t, "ran", gated.Eval(ctx, `return "ran"`, dequeue, now).Val(), "a busy queue's dequeue runs at once")
			require.ErrorIs(t, gated.Eval(ctx, `return false`, dequeue, now).Err(), redis.Nil)
			g.wake("low")
			require.ErrorIs(t, gated.Eval(ctx, `return "ran"`, dequeue, now).Err(), redis.Nil, "an empty list answers without the script")
			require.NoError(t, plain.LPush(ctx, dequeue[0], "t1").Err())
			g.wake("low")

			for _, keys := range [][]string{
				{"asynq:{low}:scheduled", "asynq:{low}:pending"},
				{"asynq:{low}:retry", "asynq:{low}:pending"},
				{"asynq:{low}:completed"},
			} {
				n, err := gated.Eval(ctx, `return 7`, keys, now, "asynq:{low}:t:").Int()
				require.NoError(t, err)
				require.Zero(t, n, "%s: nothing is due", keys[0])
				require.NoError(t, plain.ZAdd(ctx, keys[0], redis.Z{Score: float64(now + 60), Member: "later"}).Err())
				n, err = gated.Eval(ctx, `return 7`, keys, now, "asynq:{low}:t:").Int()
				require.NoError(t, err)
				require.Zero(t, n, "%s: a member due in a minute is not due", keys[0])
				require.NoError(t, plain.ZAdd(ctx, keys[0], redis.Z{Score: float64(now), Member: "due"}).Err())
				n, err = gated.Eval(ctx, `return 7`, keys, now, "asynq:{low}:t:").Int()
				require.NoError(t, err)
				require.Equal(t, 7, n, "%s: a due member runs the script", keys[0])
			}
		})
	}
}
