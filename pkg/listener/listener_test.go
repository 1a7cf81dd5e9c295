package listener_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/listener"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/worker"
)

const broker = "127.0.0.1:1883"

var topicSeq atomic.Int64

func uniqueTopic(t *testing.T) string {
	return fmt.Sprintf("flowmill-test/%s/%d-%d", t.Name(), time.Now().UnixNano(), topicSeq.Add(1))
}

// newManager is one scheduler's listener component on in, with short lease timings.
func newManager(t *testing.T, in *infra.Infra) *listener.Manager {
	t.Helper()
	svc, err := execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis})
	require.NoError(t, err)
	m, err := listener.New(listener.Config{Store: in.Store, Redis: in.Redis, Service: svc, Nodes: in.Nodes, Eval: in.Eval,
		TTL: 2 * time.Second, Renew: 300 * time.Millisecond,
		Credentials: func(string) nodes.CredentialsFunc {
			return func(_ context.Context, ref nodes.CredentialRef) (map[string]any, error) {
				if ref.Type == "rabbitmq" {
					return map[string]any{"hostname": "127.0.0.1", "port": 5672.0, "username": "guest", "password": "guest"}, nil
				}
				return map[string]any{"protocol": "mqtt", "host": "127.0.0.1", "port": 1883.0, "clean": true}, nil
			}
		}})
	require.NoError(t, err)
	require.NoError(t, m.Start(context.Background()))
	t.Cleanup(m.Stop)
	return m
}

func publisher(t *testing.T) mqtt.Client {
	t.Helper()
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://" + broker).SetClientID(fmt.Sprintf("pub-%d", time.Now().UnixNano())))
	tok := c.Connect()
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error(), "Mosquitto must run on %s", broker)
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

func publish(t *testing.T, c mqtt.Client, topic, msg string) {
	t.Helper()
	tok := c.Publish(topic, 1, false, msg)
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error())
}

// messages returns the message of each execution of workflow id, by creation.
func messages(t *testing.T, in *infra.Infra, id string) []string {
	t.Helper()
	var rows []store.JSON
	require.NoError(t, in.Store.DB.Raw(`SELECT d.start_data FROM execution_data d JOIN executions e ON e.id = d.execution_id
		WHERE e.workflow_id = ? ORDER BY e.id`, id).Scan(&rows).Error)
	var out []string
	for _, r := range rows {
		var sd struct {
			StartNode string `json:"startNode"`
			Input     []struct {
				JSON map[string]any `json:"json"`
			} `json:"input"`
		}
		require.NoError(t, json.Unmarshal(r, &sd), string(r))
		require.Len(t, sd.Input, 1, string(r))
		out = append(out, fmt.Sprint(sd.Input[0].JSON["message"]))
	}
	return out
}

// ready publishes probes until one has started an execution, so the subscription stands.
func ready(t *testing.T, in *infra.Infra, pub mqtt.Client, topic, id string) {
	t.Helper()
	probe := fmt.Sprintf("probe-%d", topicSeq.Add(1))
	require.Eventually(t, func() bool {
		if count(messages(t, in, id), probe) > 0 {
			return true
		}
		publish(t, pub, topic, probe)
		return false
	}, 20*time.Second, 150*time.Millisecond, "the listener never fired")
}

// allStored waits until each of the five messages prefix-0 … prefix-4 has an execution, then
// checks for half a second that none gets a second one.
func allStored(t *testing.T, in *infra.Infra, id, prefix string) {
	t.Helper()
	each := func(ok func(n int) bool) bool {
		got := messages(t, in, id)
		for i := range 5 {
			if !ok(count(got, fmt.Sprintf("%s-%d", prefix, i))) {
				return false
			}
		}
		return true
	}
	require.Eventually(t, func() bool { return each(func(n int) bool { return n >= 1 }) }, 10*time.Second, 20*time.Millisecond)
	require.Never(t, func() bool { return !each(func(n int) bool { return n == 1 }) }, 500*time.Millisecond, 50*time.Millisecond,
		"one execution per message: %v", messages(t, in, id))
}

func count(list []string, s string) int {
	n := 0
	for _, m := range list {
		if m == s {
			n++
		}
	}
	return n
}

func TestMQTTTriggerOneHolderAndTakeover(t *testing.T) {
	in := infratest.Open(t, nil)
	w0, err := worker.New(in)
	require.NoError(t, err)
	require.NoError(t, w0.Start(context.Background()))
	t.Cleanup(w0.Stop)
	a, b := newManager(t, in), newManager(t, in)
	topic := uniqueTopic(t)
	now := time.Now().UTC()
	nodesJSON := fmt.Sprintf(`[{"id":"1","name":"MQTT Trigger","type":"n8n-nodes-base.mqttTrigger","typeVersion":1,
		"position":[0,0],"parameters":{"topics":%q},"credentials":{"mqtt":{"id":"1","name":"broker"}}}]`, topic+":1")
	w := &store.Workflow{ID: store.NewID(), Name: "listen", Active: true, Nodes: store.JSON(nodesJSON),
		Connections: store.JSON(`{}`), Settings: store.JSON(`{}`), VersionID: store.NewUUID(), CreatedAt: now, UpdatedAt: now}
	require.NoError(t, in.Store.DB.Create(w).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))

	first, other := holderOf(t, a, b, w.ID, "MQTT Trigger")
	pub := publisher(t)
	ready(t, in, pub, topic, w.ID)

	for i := range 5 {
		publish(t, pub, topic, fmt.Sprintf("before-%d", i))
	}
	allStored(t, in, w.ID, "before")

	// The holder dies without giving the lease back: the other takes over once it lapses.
	killed := time.Now()
	first.Kill()
	require.Eventually(t, func() bool { return other.Holding(w.ID, "MQTT Trigger") }, 10*time.Second, 20*time.Millisecond)
	took := time.Since(killed)
	t.Logf("taken over after %v", took)
	require.Greater(t, took, time.Second, "a killed holder leaves its lease to lapse")
	ready(t, in, pub, topic, w.ID)
	for i := range 5 {
		publish(t, pub, topic, fmt.Sprintf("after-%d", i))
	}
	allStored(t, in, w.ID, "after")
	got := messages(t, in, w.ID)
	probes := 0
	for _, m := range got {
		if strings.HasPrefix(m, "probe-") {
			probes++
		}
	}
	require.Equal(t, 10, len(got)-probes, strings.Join(got, ","))

	// The executions run on a worker like any trigger's.
	require.Eventually(t, func() bool {
		var statuses []string
		require.NoError(t, in.Store.DB.Raw(`SELECT status FROM executions WHERE workflow_id = ?`, w.ID).Scan(&statuses).Error)
		return len(statuses) > 0 && count(statuses, "success") == len(statuses)
	}, 20*time.Second, 50*time.Millisecond, "the executions did not all succeed")

	// Saving a new version restarts the listener with the new parameters.
	topic2 := uniqueTopic(t)
	require.NoError(t, in.Store.DB.Model(w).Updates(map[string]any{"version_id": store.NewUUID(),
		"nodes": store.JSON(strings.Replace(nodesJSON, topic+":1", topic2, 1))}).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
	ready(t, in, pub, topic2, w.ID)
	publish(t, pub, topic2, "updated")
	require.Eventually(t, func() bool { return count(messages(t, in, w.ID), "updated") == 1 }, 10*time.Second, 20*time.Millisecond)

	// Deactivating stops the listener and frees the lease.
	require.NoError(t, in.Store.DB.Model(w).Updates(map[string]any{"active": false}).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
	require.Eventually(t, func() bool { return !other.Holding(w.ID, "MQTT Trigger") }, 10*time.Second, 20*time.Millisecond)
	// The listener stops in the background, then releases the lease (well before it would lapse).
	require.Eventually(t, func() bool {
		n, err := in.Redis.Exists(context.Background(), "flowmill:listener:"+w.ID+":MQTT Trigger").Result()
		require.NoError(t, err)
		return n == 0
	}, 1500*time.Millisecond, 20*time.Millisecond, "the lease is released")
}
