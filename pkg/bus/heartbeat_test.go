package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

func TestHeartbeat(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx := context.Background()
	h := bus.NewHeartbeat(rdb, bus.RoleWorker, "w-1", time.Second, nil)
	require.NoError(t, h.Start(ctx))
	live, err := bus.LiveInstances(ctx, rdb, bus.RoleWorker)
	require.NoError(t, err)
	require.Equal(t, []string{"w-1"}, live)
	ttl, err := rdb.TTL(ctx, bus.KeyHeartbeatPrefix+"worker:w-1").Result()
	require.NoError(t, err)
	require.InDelta(t, 3*time.Second, ttl, float64(time.Second))
	h.Stop()
	h.Stop()
	live, err = bus.LiveInstances(ctx, rdb, bus.RoleWorker)
	require.NoError(t, err)
	require.Empty(t, live)

	bus.NewHeartbeat(rdb, bus.RoleScheduler, "s-1", 0, nil).Stop() // safe before Start
}
