package redistrigger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/redistrigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

const server = "127.0.0.1:6379"

var seq atomic.Int64

func unique(t *testing.T) string {
	return fmt.Sprintf("flowmill-test:redistrigger:%d-%d", time.Now().UnixNano(), seq.Add(1))
}

func publisher(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: server})
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.Ping(context.Background()).Err(), "Redis must run on %s", server)
	return c
}

func credential(data m) nodetest.Node {
	return nodetest.Node{Credentials: m{"redis": m{"id": "1", "name": "redis"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) { return data, nil }}
}

func local() m { return m{"host": "127.0.0.1", "port": 6379.0} }

func TestOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		payload        string
		parse, onlyMsg bool
		want           string
	}{
		{name: "text", payload: `{"a":1}`, want: `{"channel":"c:1","message":"{\"a\":1}"}`},
		{name: "parsed", payload: `{"b":2,"a":1}`, parse: true, want: `{"channel":"c:1","message":{"b":2,"a":1}}`},
		{name: "number", payload: `42`, parse: true, want: `{"channel":"c:1","message":42}`},
		{name: "not JSON stays text", payload: `it's; 🚀`, parse: true, want: `{"channel":"c:1","message":"it's; 🚀"}`},
		{name: "only message, parsed", payload: `{"b":2}`, parse: true, onlyMsg: true, want: `{"message":{"b":2}}`},
		{name: "only message, text", payload: `hi`, onlyMsg: true, want: `{"message":"hi"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(redistrigger.Output("c:1", tc.payload, tc.parse, tc.onlyMsg))
			require.NoError(t, err)
			require.Equal(t, tc.want, string(b))
		})
	}
}

func TestPatterns(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"a", "b:*", "c d"}, redistrigger.Patterns(" a, b:* ,, c d ,"))
	require.Empty(t, redistrigger.Patterns(" , "))
}

// listening runs the listener until the test ends, collecting the items of each message, and
// returns once a probe published to probeChannel has come through (the subscription stands).
func listening(t *testing.T, pub *redis.Client, params m, probeChannel string) func() []m {
	t.Helper()
	var mu sync.Mutex
	var got []m
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan struct{})
	var listenErr error
	n := credential(local())
	n.Parameters, n.Context = params, ctx
	go func() {
		defer close(finished)
		listenErr = nodetest.Listen(t, redistrigger.Type(), n, func(items []workflow.Item) error {
			mu.Lock()
			defer mu.Unlock()
			for _, it := range items {
				got = append(got, it.JSON.ToMap())
			}
			if len(items) != 1 {
				got = append(got, m{"error": "not one item per message"})
			}
			return nil
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-finished
		require.NoError(t, listenErr, "the listener ends quietly")
	})
	snapshot := func() []m {
		mu.Lock()
		defer mu.Unlock()
		return append([]m(nil), got...)
	}
	require.Eventually(t, func() bool {
		select {
		case <-finished:
			return true
		default:
		}
		if len(snapshot()) > 0 {
			return true
		}
		require.NoError(t, pub.Publish(context.Background(), probeChannel, "probe").Err())
		return false
	}, 15*time.Second, 50*time.Millisecond, "the subscription never stood")
	select {
	case <-finished:
		t.Fatalf("the listener ended: %v", listenErr)
	default:
	}
	return func() []m {
		var out []m
		for _, g := range snapshot() {
			if g["message"] != "probe" {
				out = append(out, g)
			}
		}
		return out
	}
}

func TestListenOneItemPerMessageWithPatternsAndJSON(t *testing.T) {
	t.Parallel()
	pub := publisher(t)
	base := unique(t)
	got := listening(t, pub, m{"channels": base + ":exact, " + base + ":p:*", "options": m{"jsonParseBody": true}}, base+":exact")
	ctx := context.Background()
	require.NoError(t, pub.Publish(ctx, base+":exact", `{"n":1,"a":[true]}`).Err())
	require.NoError(t, pub.Publish(ctx, base+":p:one", `not json`).Err())
	require.NoError(t, pub.Publish(ctx, base+":other", `never`).Err())
	require.NoError(t, pub.Publish(ctx, base+":p:two", `7`).Err())
	want := []m{
		{"channel": base + ":exact", "message": m{"n": 1.0, "a": []any{true}}},
		{"channel": base + ":p:one", "message": "not json"},
		{"channel": base + ":p:two", "message": 7.0},
	}
	require.Eventually(t, func() bool { return len(got()) >= 3 }, 10*time.Second, 20*time.Millisecond)
	require.Never(t, func() bool { return len(got()) > 3 }, 300*time.Millisecond, 20*time.Millisecond, "one item per message")
	require.Equal(t, want, got())
}

func TestListenOnlyMessage(t *testing.T) {
	t.Parallel()
	pub := publisher(t)
	ch := unique(t)
	got := listening(t, pub, m{"channels": ch, "options": m{"onlyMessage": true}}, ch)
	require.NoError(t, pub.Publish(context.Background(), ch, `{"x":1}`).Err())
	require.Eventually(t, func() bool { return len(got()) == 1 }, 10*time.Second, 20*time.Millisecond)
	require.Equal(t, []m{{"message": `{"x":1}`}}, got())
}

func TestManualRunWaitsForAMessage(t *testing.T) {
	t.Parallel()
	pub := publisher(t)
	ch := unique(t)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				pub.Publish(context.Background(), ch, `{"n":1}`)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	n := credential(local())
	n.Context, n.Parameters = ctx, m{"channels": ch, "options": m{"jsonParseBody": true}}
	out, err := nodetest.Run(t, redistrigger.Type(), n)
	require.NoError(t, err)
	require.Len(t, out, 1)
	nodetest.RequireJSONs(t, []m{{"channel": ch, "message": m{"n": 1.0}}}, out[0])
}

func TestListenErrors(t *testing.T) {
	t.Parallel()
	typ := redistrigger.Type()
	require.Equal(t, nodes.KindTrigger, typ.Kind)
	emit := func([]workflow.Item) error { return nil }
	n := credential(local())
	n.Parameters = m{"channels": " , "}
	require.ErrorContains(t, nodetest.Listen(t, typ, n, emit), "Channels are mandatory!")

	// Nothing listens on port 1 of the loopback.
	n = credential(m{"host": "127.0.0.1", "port": 1.0})
	n.Parameters = m{"channels": "x"}
	require.EqualError(t, nodetest.Listen(t, typ, n, emit), "connect ECONNREFUSED 127.0.0.1:1")

	n = credential(m{"host": "127.0.0.1", "port": 6379.0, "user": "nobody", "password": "wrong"})
	n.Parameters = m{"channels": "x"}
	err := nodetest.Listen(t, typ, n, emit)
	require.Error(t, err)
	require.Contains(t, err.Error(), "WRONGPASS")

	// A user the server refuses Pub/Sub gets the server's answer.
	pub := publisher(t)
	user := fmt.Sprintf("flowmill_test_%d", seq.Add(1)+time.Now().UnixNano())
	require.NoError(t, pub.Do(context.Background(), "ACL", "SETUSER", user, "on", ">pw", "+ping", "resetchannels").Err())
	t.Cleanup(func() { pub.Do(context.Background(), "ACL", "DELUSER", user) })
	n = credential(m{"host": "127.0.0.1", "port": 6379.0, "user": user, "password": "pw"})
	n.Parameters = m{"channels": "x"}
	err = nodetest.Listen(t, typ, n, emit)
	require.Error(t, err)
	require.Contains(t, err.Error(), "NOPERM")
	require.NotContains(t, err.Error(), "lost")
}

// A listener whose connection is cut returns an error (pkg/listener then subscribes again).
func TestListenReportsALostConnection(t *testing.T) {
	t.Parallel()
	pub := publisher(t)
	ch := unique(t)
	port, cut := nodetest.Proxy(t, server)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	n := credential(m{"host": "127.0.0.1", "port": float64(port)})
	n.Parameters, n.Context = m{"channels": ch}, ctx
	var fired atomic.Bool
	go func() {
		done <- nodetest.Listen(t, redistrigger.Type(), n, func([]workflow.Item) error { fired.Store(true); return nil })
	}()
	require.Eventually(t, func() bool {
		if fired.Load() {
			return true
		}
		pub.Publish(ctx, ch, "probe")
		return false
	}, 15*time.Second, 50*time.Millisecond)
	cut()
	select {
	case err := <-done:
		require.ErrorContains(t, err, "The connection to Redis was lost")
	case <-time.After(15 * time.Second):
		t.Fatal("the listener did not notice the lost connection")
	}
}
