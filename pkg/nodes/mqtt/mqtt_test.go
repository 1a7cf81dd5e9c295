package mqtt_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	pahomqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/mqtt"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any

func creds(port float64) nodes.CredentialsFunc {
	return func(context.Context, nodes.CredentialRef) (map[string]any, error) {
		return m{"protocol": "mqtt", "host": "127.0.0.1", "port": port, "clean": true}, nil
	}
}

// subscribe listens on topic in the test and returns the messages received.
func subscribe(t *testing.T, topic string) <-chan pahomqtt.Message {
	t.Helper()
	c := pahomqtt.NewClient(pahomqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:1883").
		SetClientID(fmt.Sprintf("sub-%d", time.Now().UnixNano())))
	tok := c.Connect()
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error(), "Mosquitto must run on 127.0.0.1:1883")
	t.Cleanup(func() { c.Disconnect(100) })
	ch := make(chan pahomqtt.Message, 16)
	tok = c.Subscribe(topic, 2, func(_ pahomqtt.Client, msg pahomqtt.Message) { ch <- msg })
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error())
	return ch
}

func next(t *testing.T, ch <-chan pahomqtt.Message) pahomqtt.Message {
	t.Helper()
	select {
	case msg := <-ch:
		return msg
	case <-time.After(10 * time.Second):
		t.Fatal("no message")
		return nil
	}
}

func TestPublish(t *testing.T) {
	t.Parallel()
	hostile := "it's; DROP TABLE x; -- \x00 \"ünïcødé\" 🚀"
	tests := []struct {
		name   string
		params m
		input  []m
		want   []string
		qos    byte
		retain bool
	}{
		{name: "input data as JSON", params: m{}, input: []m{{"a": 1.0, "s": hostile}, {"b": true}},
			want: []string{`{"a":1,"s":"it's; DROP TABLE x; -- \u0000 \"ünïcødé\" 🚀"}`, `{"b":true}`}},
		{name: "message with an expression, QoS 2", params: m{"sendInputData": false, "message": "={{ $json.s }}",
			"options": m{"qos": 2.0}}, input: []m{{"s": hostile}}, want: []string{hostile}, qos: 2},
		{name: "QoS 1 retained", params: m{"sendInputData": false, "message": "keep", "options": m{"qos": 1.0, "retain": true}},
			input: []m{{}}, want: []string{"keep"}, qos: 1, retain: true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			topic := fmt.Sprintf("flowmill-test/mqtt/%d/%d", time.Now().UnixNano(), i)
			ch := subscribe(t, topic)
			tc.params["topic"] = topic
			in := nodetest.Items(tc.input...)
			out, err := nodetest.Run(t, mqtt.Type(), nodetest.Node{Parameters: tc.params,
				Credentials: m{"mqtt": m{"id": "1", "name": "broker"}}, CredentialData: creds(1883)}, in)
			require.NoError(t, err)
			require.Equal(t, nodetest.JSONs(in), nodetest.JSONs(out[0]), "input passes on")
			for _, want := range tc.want {
				msg := next(t, ch)
				require.Equal(t, want, string(msg.Payload()))
				require.Equal(t, topic, msg.Topic())
				require.LessOrEqual(t, msg.Qos(), tc.qos)
			}
			if tc.retain {
				// A subscriber arriving later still gets the retained message.
				require.Equal(t, "keep", string(next(t, subscribe(t, topic)).Payload()))
				// An empty retained message clears it from the broker.
				_, err := nodetest.Run(t, mqtt.Type(), nodetest.Node{Parameters: m{"topic": topic, "sendInputData": false,
					"message": "", "options": m{"qos": 1.0, "retain": true}},
					Credentials: m{"mqtt": m{"id": "1", "name": "broker"}}, CredentialData: creds(1883)}, nodetest.Items(m{}))
				require.NoError(t, err)
			}
		})
	}
}

func TestPublishErrors(t *testing.T) {
	t.Parallel()
	run := func(params m, cred nodes.CredentialsFunc) error {
		_, err := nodetest.Run(t, mqtt.Type(), nodetest.Node{Parameters: params,
			Credentials: m{"mqtt": m{"id": "1", "name": "broker"}}, CredentialData: cred}, nodetest.Items(m{}))
		return err
	}
	// Nothing listens on port 1.
	require.Error(t, run(m{"topic": "x"}, creds(1)))
	require.ErrorContains(t, run(m{"topic": "x", "options": m{"qos": 5.0}}, creds(1883)), "QoS")
	require.ErrorContains(t, run(m{"topic": "x"}, func(context.Context, nodes.CredentialRef) (map[string]any, error) {
		return m{"protocol": "ws", "host": "127.0.0.1", "port": 1883.0}, nil
	}), "not supported")
}
