package mqtttrigger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	pahomqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/mqtttrigger"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any

func TestOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		payload        string
		parse, onlyMsg bool
		want           string
	}{
		{name: "text", payload: `{"a":1}`, want: `{"message":"{\"a\":1}","topic":"t/1"}`},
		{name: "parsed", payload: `{"b":2,"a":1}`, parse: true, want: `{"message":{"b":2,"a":1},"topic":"t/1"}`},
		{name: "not JSON stays text", payload: `it's; \u0000 🚀`, parse: true, want: `{"message":"it's; \\u0000 🚀","topic":"t/1"}`},
		{name: "only message, parsed", payload: `{"b":2,"a":1}`, parse: true, onlyMsg: true, want: `{"b":2,"a":1}`},
		{name: "only message, text", payload: `hi`, onlyMsg: true, want: `{"message":"hi"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(mqtttrigger.Output("t/1", []byte(tc.payload), tc.parse, tc.onlyMsg))
			require.NoError(t, err)
			require.JSONEq(t, tc.want, string(b))
			require.Equal(t, tc.want, string(b), "key order")
		})
	}
}

func TestManualRunWaitsForAMessage(t *testing.T) {
	t.Parallel()
	topic := fmt.Sprintf("flowmill-test/mqtttrigger/%d", time.Now().UnixNano())
	pub := pahomqtt.NewClient(pahomqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:1883").
		SetClientID(fmt.Sprintf("pub-%d", time.Now().UnixNano())))
	tok := pub.Connect()
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error(), "Mosquitto must run on 127.0.0.1:1883")
	defer pub.Disconnect(100)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				pub.Publish(topic, 1, false, `{"n":1}`).Wait()
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	out, err := nodetest.Run(t, mqtttrigger.Type(), nodetest.Node{Context: ctx,
		Parameters:  m{"topics": "other/topic:2, " + topic + ":1", "options": m{"jsonParseBody": true}},
		Credentials: m{"mqtt": m{"id": "1", "name": "broker"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return m{"host": "127.0.0.1", "port": 1883.0}, nil
		}})
	require.NoError(t, err)
	require.Len(t, out, 1)
	nodetest.RequireJSONs(t, []m{{"message": m{"n": 1.0}, "topic": topic}}, out[0])
}

func TestListenRefusesEmptyTopics(t *testing.T) {
	t.Parallel()
	typ := mqtttrigger.Type()
	require.NotNil(t, typ.Listen)
	require.Equal(t, nodes.KindTrigger, typ.Kind)
	_, err := nodetest.Run(t, typ, nodetest.Node{Parameters: m{"topics": " , "}})
	require.ErrorContains(t, err, "Topics are mandatory!")
}

// TestResumedSessionDeliversKeptMessages: with Clean Session off, messages published while
// nobody listens are kept by the broker and delivered as soon as the session resumes, before
// the subscription is answered; the next run receives the first of them (a listener that
// waited for the subscription's answer first never did).
func TestResumedSessionDeliversKeptMessages(t *testing.T) {
	t.Parallel()
	stamp := time.Now().UnixNano()
	topic := fmt.Sprintf("flowmill-test/mqtttrigger/kept/%d", stamp)
	clientID := fmt.Sprintf("flowmill-kept-%d", stamp)
	pub := pahomqtt.NewClient(pahomqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:1883").SetClientID("pub-" + clientID))
	tok := pub.Connect()
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error(), "Mosquitto must run on 127.0.0.1:1883")
	defer pub.Disconnect(100)
	t.Cleanup(func() {
		// A clean connection ends the session the broker keeps.
		c := pahomqtt.NewClient(pahomqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:1883").SetClientID(clientID).SetCleanSession(true))
		if tok := c.Connect(); tok.WaitTimeout(10*time.Second) && tok.Error() == nil {
			c.Disconnect(100)
		}
	})
	run := func(publish func(stop <-chan struct{})) []m {
		stop := make(chan struct{})
		defer close(stop)
		if publish != nil {
			go publish(stop)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		out, err := nodetest.Run(t, mqtttrigger.Type(), nodetest.Node{Context: ctx,
			Parameters:  m{"topics": topic + ":1"},
			Credentials: m{"mqtt": m{"id": "1", "name": "broker"}},
			CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
				return m{"host": "127.0.0.1", "port": 1883.0, "clean": false, "clientId": clientID}, nil
			}})
		require.NoError(t, err)
		require.Len(t, out, 1)
		return nodetest.JSONs(out[0])
	}
	// The first run subscribes: QoS 0 probes (never kept for an absent client) until one arrives.
	first := run(func(stop <-chan struct{}) {
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				pub.Publish(topic, 0, false, "probe").Wait()
			}
		}
	})
	require.Equal(t, "probe", first[0]["message"])
	for i := range 20 {
		tok = pub.Publish(topic, 1, false, fmt.Sprintf("kept-%d", i))
		require.True(t, tok.WaitTimeout(10*time.Second))
		require.NoError(t, tok.Error())
	}
	require.Equal(t, []m{{"message": "kept-0", "topic": topic}}, run(nil))
}
