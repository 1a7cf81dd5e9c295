package queue

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/redisconn"
)

// TestLeanDone: a task that succeeded is removed as asynq removes it, and counted nowhere —
// which also tells that the hook still knows the done script of the asynq in go.mod.
func TestLeanDone(t *testing.T) {
	for _, tc := range []struct {
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			rdb := queuetest.RedisAt(t, url)
			srv := NewServer(rdb, ServerConfig{Concurrency: 2})
			ran := make(chan int64, 2)
			srv.Handle(KindExecutionRun, func(_ context.Context, payload []byte) error {
				var p ExecutionRun
				require.NoError(t, Decode(KindExecutionRun, payload, &p))
				ran <- p.ExecutionID
				return nil
			})
			require.NoError(t, srv.Start())
			t.Cleanup(srv.Stop)
			c := NewClient(rdb)
			ctx := context.Background()
			for id := int64(1); id <= 2; id++ { // the first loads the script, the second finds it
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
		})
	}
}

func TestLeanDoneRecognition(t *testing.T) {
	keys := []any{"asynq:{critical}:active", "asynq:{critical}:lease", "asynq:{critical}:t:x",
		"asynq:{critical}:processed:2026-11-26", "asynq:{critical}:processed"}
	done := append([]any{"evalsha", asynqDoneSHA, 5}, append(keys, "x", int64(1), int64(2))...)
	require.True(t, isAsynqDone(done))
	require.False(t, isAsynqDone(append([]any{"evalsha", leanDoneSHA, 5}, done[3:]...)), "the lean script is left as it is")
	require.False(t, isAsynqDone([]any{"get", "k"}))
}
