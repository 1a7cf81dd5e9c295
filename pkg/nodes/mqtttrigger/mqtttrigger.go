// Package mqtttrigger is the MQTT Trigger node (version 1). While its workflow is active it is a
// listener trigger (nodes.Type.Listen, run by exactly one scheduler, see pkg/listener): it
// subscribes to its topics and starts one execution per message. Run by hand it waits for the
// first message and outputs it.
package mqtttrigger

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/mqttconn"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var description []byte

//go:embed mqtt.svg
var iconSVG []byte

// Type returns version 1 for registration.
func Type() nodes.Type {
	t := nodes.Define(description, nodes.KindTrigger, execute)
	t.IconSVG = iconSVG
	t.Listen = listen
	return t
}

// execute waits for the first message, for a run from the editor.
func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	return nodes.FirstEvent(ctx, ex, listen)
}

// subscriptions parses "topicA:1,topicB" into topics and their QoS (0 unless 1 or 2 is given).
func subscriptions(raw string) map[string]byte {
	out := map[string]byte{}
	for part := range strings.SplitSeq(raw, ",") {
		topic, q, _ := strings.Cut(part, ":")
		topic = strings.TrimSpace(topic)
		if topic == "" {
			continue
		}
		qos := 0
		if n, err := strconv.Atoi(strings.TrimSpace(q)); err == nil && n >= 0 && n <= 2 {
			qos = n
		}
		out[topic] = byte(qos)
	}
	return out
}

// listen subscribes and hands each message on. A QoS 1 or 2 message is acknowledged only once
// emit has stored its execution; when emit fails the connection is closed unacknowledged, so a
// broker keeping the session (Clean Session off) delivers it again.
func listen(ctx context.Context, ex *nodes.Execution, emit nodes.Emit) error {
	raw, err := ex.ParamString("topics", 0)
	if err != nil {
		return err
	}
	subs := subscriptions(raw)
	if len(subs) == 0 {
		return nodes.Errorf(0, "Topics are mandatory!")
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return err
	}
	parseJSON, _ := opts["jsonParseBody"].(bool)
	onlyMessage, _ := opts["onlyMessage"].(bool)
	cred, err := ex.Credentials(ctx, "mqtt")
	if err != nil {
		return err
	}
	o, err := mqttconn.Options(mqttconn.FromCredential(cred), egress.PolicyOf(ex.HTTPClient()), false)
	if err != nil {
		return nodes.Errorf(0, "%v", err)
	}
	msgs := make(chan mqtt.Message)
	lost := make(chan error, 1)
	o.SetConnectionLostHandler(func(_ mqtt.Client, err error) {
		select {
		case lost <- err:
		default:
		}
	})
	handler := func(_ mqtt.Client, m mqtt.Message) {
		select {
		case msgs <- m:
		case <-ctx.Done():
		}
	}
	// A resumed session (Clean Session off) delivers the messages the broker kept as soon as
	// the connection stands, before the subscription below is answered: they go to the same
	// handler instead of being dropped unacknowledged.
	o.SetDefaultPublishHandler(handler)
	client, err := mqttconn.Connect(ctx, o)
	if err != nil {
		return nodes.Errorf(0, "%v", err)
	}
	defer client.Disconnect(250)
	// Messages are taken while the subscription is being answered: the kept ones come first,
	// and the client reads the answer only once the handler has passed them on.
	sub := client.SubscribeMultiple(subs, handler)
	subscribed := sub.Done()
	limit := ex.UnpackMaxBytes()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-subscribed:
			subscribed = nil
			if err := sub.Error(); err != nil {
				return nodes.Errorf(0, "%v", err)
			}
		case err := <-lost:
			return nodes.Errorf(0, "The connection to the MQTT broker was lost: %v", err)
		case m := <-msgs:
			if limit > 0 && int64(len(m.Payload())) > limit {
				ex.Logger().Warn("MQTT message too large, skipped", "topic", m.Topic(), "bytes", len(m.Payload()))
				m.Ack()
				continue
			}
			if _, err := emit([]workflow.Item{{JSON: Output(m.Topic(), m.Payload(), parseJSON, onlyMessage)}}, nodes.AwaitNone); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			m.Ack()
		}
	}
}

// Output is the item of one message, as n8n's: {message, topic}, the message parsed as JSON when
// asked (kept as text when it is not JSON), or only the message.
func Output(topic string, payload []byte, parseJSON, onlyMessage bool) *workflow.Object {
	var message any = string(payload)
	if parseJSON {
		if v, err := workflow.DecodeJSONValue(payload); err == nil {
			message = v
		}
	}
	if onlyMessage {
		if o, ok := workflow.AsObject(message); ok {
			return o
		}
		out := workflow.NewObject(1)
		out.Set("message", message)
		return out
	}
	out := workflow.NewObject(2)
	out.Set("message", message)
	out.Set("topic", topic)
	return out
}
