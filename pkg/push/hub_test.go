package push_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue/queuetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func receive(t *testing.T, c *push.Client) push.Message {
	t.Helper()
	select {
	case b := <-c.Messages():
		var m push.Message
		require.NoError(t, json.Unmarshal(b, &m))
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no push message within 5s")
	}
	return push.Message{}
}

func TestMessageReachesSessionOnAnotherReplicaInOrder(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx := context.Background()
	a, b := push.NewHub(rdb, 0, nil), push.NewHub(rdb, 0, nil)
	require.NoError(t, a.Start(ctx))
	defer a.Stop()
	require.NoError(t, b.Start(ctx))
	defer b.Stop()
	onB := b.Connect("s-b")
	onA := a.Connect("s-a")

	pub := push.NewPublisher(rdb)
	for i := range 50 {
		require.NoError(t, pub.Send(ctx, "s-b", push.Message{Type: push.TypeNodeExecuteAfter, Data: map[string]any{"i": i}}))
	}
	for i := range 50 {
		m := receive(t, onB)
		require.Equal(t, push.TypeNodeExecuteAfter, m.Type)
		require.EqualValues(t, i, m.Data.(map[string]any)["i"])
	}
	select {
	case <-onA.Messages():
		t.Fatal("a message for s-b reached s-a")
	default:
	}

	require.NoError(t, pub.Send(ctx, "", push.Message{Type: push.TypeExecutionFinished}))
	require.Equal(t, push.TypeExecutionFinished, receive(t, onA).Type)
	require.Equal(t, push.TypeExecutionFinished, receive(t, onB).Type)
}

func TestNewConnectionOfSameSessionReplacesOld(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	h := push.NewHub(rdb, 0, nil)
	require.NoError(t, h.Start(context.Background()))
	defer h.Stop()
	old := h.Connect("s")
	fresh := h.Connect("s")
	<-old.Closed()
	require.Equal(t, 1, h.Connections())
	h.Disconnect(old) // a late disconnect of the old stream must not drop the new one
	require.Equal(t, 1, h.Connections())
	h.Disconnect(fresh)
	require.Equal(t, 0, h.Connections())
}

func TestSlowClientIsDroppedWithoutBlockingOthers(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	ctx := context.Background()
	h := push.NewHub(rdb, 4, nil)
	require.NoError(t, h.Start(ctx))
	defer h.Stop()
	slow := h.Connect("slow")
	fast := h.Connect("fast")
	pub := push.NewPublisher(rdb)
	for i := range 10 {
		require.NoError(t, pub.Send(ctx, "", push.Message{Type: "t", Data: i}))
		receive(t, fast)
	}
	select {
	case <-slow.Closed():
	case <-time.After(5 * time.Second):
		t.Fatal("slow client was not dropped")
	}
	require.Equal(t, 1, h.Connections())
}

func TestStopClosesClients(t *testing.T) {
	rdb, _ := queuetest.Redis(t)
	h := push.NewHub(rdb, 0, nil)
	require.NoError(t, h.Start(context.Background()))
	clients := make([]*push.Client, 3)
	for i := range clients {
		clients[i] = h.Connect(fmt.Sprint(i))
	}
	h.Stop()
	h.Stop()
	for _, c := range clients {
		<-c.Closed()
	}
}
