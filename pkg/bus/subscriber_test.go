package bus_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

// receive waits for the next value on ch.
func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatal("no message arrived")
	}
	var zero T
	return zero
}

// Every topic keeps the wire format processes of the previous release read and write: ids as
// decimal text, workflow ids as they are, push messages as {"s": session, "m": message}.
func TestTopicsRoundTripInTheirWireFormat(t *testing.T) {
	ctx := context.Background()
	rdb, _ := queuetest.Redis(t)
	raw := rdb.Subscribe(ctx, bus.ChannelFor(rdb, bus.ChannelStop), bus.ChannelFor(rdb, bus.ChannelFinished),
		bus.ChannelFor(rdb, bus.ChannelActivation), bus.ChannelFor(rdb, bus.ChannelPush), bus.ChannelFor(rdb, bus.ChannelWebhookResponse))
	defer raw.Close()
	_, err := raw.Receive(ctx)
	require.NoError(t, err)
	wire := raw.Channel()

	stops := make(chan int64, 1)
	finished := make(chan int64, 1)
	activations := make(chan string, 1)
	pushes := make(chan bus.PushMessage, 1)
	answers := make(chan json.RawMessage, 1)
	subs := []*bus.Subscriber{
		bus.StopRequests.Subscribe(rdb, func(id int64) { stops <- id }, bus.SubscriberConfig{}),
		bus.Finished.Subscribe(rdb, func(id int64) { finished <- id }, bus.SubscriberConfig{}),
		bus.Activations.Subscribe(rdb, func(id string) { activations <- id }, bus.SubscriberConfig{}),
		bus.Push.Subscribe(rdb, func(m bus.PushMessage) { pushes <- m }, bus.SubscriberConfig{Buffer: 4}),
		bus.WebhookAnswers.Subscribe(rdb, func(m json.RawMessage) { answers <- m }, bus.SubscriberConfig{}),
	}
	for _, s := range subs {
		require.NoError(t, s.Start(ctx))
		defer s.Stop()
	}

	require.NoError(t, bus.StopRequests.Publish(ctx, rdb, 42))
	require.Equal(t, int64(42), receive(t, stops))
	require.Equal(t, "42", receive(t, wire).Payload)

	require.NoError(t, bus.Finished.Publish(ctx, rdb, 7))
	require.Equal(t, int64(7), receive(t, finished))
	require.Equal(t, "7", receive(t, wire).Payload)

	require.NoError(t, bus.Activations.Publish(ctx, rdb, "wf-1"))
	require.Equal(t, "wf-1", receive(t, activations))
	require.Equal(t, "wf-1", receive(t, wire).Payload)

	msg := bus.PushMessage{SessionID: "s1", Message: json.RawMessage(`{"type":"x","data":1}`)}
	require.NoError(t, bus.Push.Publish(ctx, rdb, msg))
	require.Equal(t, msg, receive(t, pushes))
	require.JSONEq(t, `{"s":"s1","m":{"type":"x","data":1}}`, receive(t, wire).Payload)

	// Webhook answers go out as the execution package wrote them, also inside a transaction.
	answer := json.RawMessage(`{"token":"t1","executionId":3,"answer":{"status":200}}`)
	_, err = rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, bus.KeyWebhookResponsePrefix+"3", []byte(answer), time.Minute)
		return bus.WebhookAnswers.PublishIn(ctx, p, rdb, answer)
	})
	require.NoError(t, err)
	require.JSONEq(t, string(answer), string(receive(t, answers)))
	require.Equal(t, string(answer), receive(t, wire).Payload)
	kept, err := rdb.Get(ctx, bus.KeyWebhookResponsePrefix+"3").Result()
	require.NoError(t, err)
	require.Equal(t, string(answer), kept)
}

// A message that does not decode is skipped; the next one still arrives.
func TestSubscriberSkipsUnreadableMessages(t *testing.T) {
	ctx := context.Background()
	rdb, _ := queuetest.Redis(t)
	got := make(chan int64, 2)
	s := bus.StopRequests.Subscribe(rdb, func(id int64) { got <- id }, bus.SubscriberConfig{})
	require.NoError(t, s.Start(ctx))
	defer s.Stop()
	require.NoError(t, rdb.Publish(ctx, bus.StopRequests.Channel(rdb), "not an id").Err())
	require.NoError(t, bus.StopRequests.Publish(ctx, rdb, 3))
	require.Equal(t, int64(3), receive(t, got))
}

// Stop is safe twice and before Start; once it returns, the handler is not called again, and a
// stopped subscriber does not start again.
func TestSubscriberStop(t *testing.T) {
	ctx := context.Background()
	rdb, _ := queuetest.Redis(t)

	never := bus.Activations.Subscribe(rdb, func(string) {}, bus.SubscriberConfig{})
	never.Stop()
	never.Stop()
	require.Error(t, never.Start(ctx))

	calls := make(chan string, 10)
	s := bus.Activations.Subscribe(rdb, func(id string) { calls <- id }, bus.SubscriberConfig{})
	require.NoError(t, s.Start(ctx))
	require.NoError(t, bus.Activations.Publish(ctx, rdb, "a"))
	require.Equal(t, "a", receive(t, calls))
	s.Stop()
	s.Stop()
	require.NoError(t, bus.Activations.Publish(ctx, rdb, "b"))
	require.Empty(t, calls)
}

// Start reports a subscription that could not be made (here: its context is already over).
func TestSubscriberStartReportsAFailedSubscription(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := bus.Finished.Subscribe(rdb, func(int64) {}, bus.SubscriberConfig{})
	require.Error(t, s.Start(ctx))
	s.Stop()
}
