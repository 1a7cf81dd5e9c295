package redisconn_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/redisconn"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestEmbeddedRedisExpiresKeys(t *testing.T) {
	e, err := redisconn.StartEmbedded()
	require.NoError(t, err)
	defer e.Stop()
	e.Stop() // safe twice
	e2, err := redisconn.StartEmbedded()
	require.NoError(t, err)
	defer e2.Stop()
	rdb, err := redisconn.Open(context.Background(), e2.URL())
	require.NoError(t, err)
	defer rdb.Close()
	require.NoError(t, rdb.Set(context.Background(), "k", "v", 200*time.Millisecond).Err())
	require.Eventually(t, func() bool {
		return errors.Is(rdb.Get(context.Background(), "k").Err(), redis.Nil)
	}, 5*time.Second, 10*time.Millisecond)
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	rdb, err := redisconn.Open(ctx, queuetest.URL())
	require.NoError(t, err)
	require.NoError(t, rdb.Close())

	_, err = redisconn.Open(ctx, "http://not-redis")
	require.ErrorContains(t, err, "parse redis URL")
	closed, err := redisconn.StartEmbedded()
	require.NoError(t, err)
	url := closed.URL()
	closed.Stop()
	_, err = redisconn.Open(ctx, url)
	require.ErrorContains(t, err, "reach redis at")
}
