package bus_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

// Installations on two databases of one Redis server do not hear each other's messages; on
// database 0 the channel keeps its plain name.
func TestChannelsAreKeptApartByDatabase(t *testing.T) {
	ctx := context.Background()
	a, _ := queuetest.Redis(t)
	b, _ := queuetest.Redis(t)
	require.NotEqual(t, a.Options().DB, b.Options().DB)
	plain := redis.NewClient(&redis.Options{Addr: a.Options().Addr})
	defer plain.Close()
	require.Equal(t, bus.ChannelStop, bus.ChannelFor(plain, bus.ChannelStop))

	sub := b.Subscribe(ctx, bus.ChannelFor(b, bus.ChannelStop))
	defer sub.Close()
	_, err := sub.Receive(ctx)
	require.NoError(t, err)
	require.NoError(t, a.Publish(ctx, bus.ChannelFor(a, bus.ChannelStop), "1").Err())
	require.NoError(t, b.Publish(ctx, bus.ChannelFor(b, bus.ChannelStop), "2").Err())
	select {
	case m := <-sub.Channel():
		require.Equal(t, "2", m.Payload, "only the message of its own database arrives")
	case <-time.After(5 * time.Second):
		t.Fatal("no message on the database's own channel")
	}
}
