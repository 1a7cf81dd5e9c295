// Package mqtt is the MQTT node (version 1): it publishes one message per input item to a topic
// of an MQTT broker and passes its input on, as n8n does. Each run opens its own connection,
// waits until the broker has acknowledged every message of QoS 1 and 2, and disconnects.
package mqtt

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

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
	t := nodes.Define(description, nodes.KindAction, execute)
	t.IconSVG = iconSVG
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	cred, err := ex.Credentials(ctx, "mqtt")
	if err != nil {
		return nil, err
	}
	o, err := mqttconn.Options(mqttconn.FromCredential(cred), egress.PolicyOf(ex.HTTPClient()), true)
	if err != nil {
		return nil, nodes.Errorf(0, "%v", err)
	}
	client, err := mqttconn.Connect(ctx, o)
	if err != nil {
		return nil, nodes.Errorf(0, "%v", err)
	}
	defer client.Disconnect(250)
	sendInput, err := ex.ParamBool("sendInputData", 0)
	if err != nil {
		return nil, err
	}
	for i, item := range items {
		topic, err := ex.ParamString("topic", i)
		if err != nil {
			return nil, err
		}
		opts, err := ex.ParamMap("options", i)
		if err != nil {
			return nil, err
		}
		qos, err := qosOf(opts["qos"])
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		retain, _ := opts["retain"].(bool)
		var payload []byte
		if sendInput {
			if payload, err = json.Marshal(item.JSON); err != nil {
				return nil, nodes.Errorf(i, "%v", err)
			}
		} else {
			msg, err := ex.ParamString("message", i)
			if err != nil {
				return nil, err
			}
			payload = []byte(msg)
		}
		if err := mqttconn.Wait(ctx, client.Publish(topic, qos, retain, payload)); err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
	}
	return [][]workflow.Item{items}, nil
}

// qosOf reads the QoS option: 0 (the default), 1 or 2.
func qosOf(v any) (byte, error) {
	switch q := v.(type) {
	case nil:
		return 0, nil
	case float64:
		if q == math.Trunc(q) && q >= 0 && q <= 2 {
			return byte(q), nil
		}
	case int:
		if q >= 0 && q <= 2 {
			return byte(q), nil
		}
	}
	return 0, fmt.Errorf("The QoS %v is not 0, 1 or 2", v)
}
