package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"syscall"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/stretchr/testify/require"
)

// TestListenerFailsOverToTheOtherScheduler runs an active MQTT Trigger workflow on a scaled
// stack with two scheduler processes. The trigger subscribes at QoS 1 with a persistent session
// (Clean Session off, a fixed client id). Messages published before the scheduler holding the
// listener is killed with SIGKILL (once they have run), while no scheduler listens, and after
// the other one took the lease over each start exactly one execution.
func TestListenerFailsOverToTheOtherScheduler(t *testing.T) {
	stamp := time.Now().UnixNano()
	// Registered first, so it runs once the schedulers have stopped.
	t.Cleanup(func() {
		// A clean connection ends the session the broker keeps for the trigger's client id.
		c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:1883").
			SetClientID(fmt.Sprintf("flowmill-failover-%d", stamp)).SetCleanSession(true))
		if tok := c.Connect(); tok.WaitTimeout(10*time.Second) && tok.Error() == nil {
			c.Disconnect(100)
		}
	})
	env := scaledEnv(t, "FLOWMILL_LOG_LEVEL", "info")
	apiEnv := maps.Clone(env)
	port := freePort(t)
	apiEnv["FLOWMILL_PORT"] = fmt.Sprint(port)
	startProc(t, "api", apiEnv)
	startProc(t, "worker", env)
	schedulers := []*proc{startProc(t, "scheduler", env), startProc(t, "scheduler", env)}
	a := fmt.Sprintf("http://127.0.0.1:%d/", port)
	waitReady(t, a)
	db, err := sql.Open("pgx", env["FLOWMILL_DATABASE_URL"])
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })

	topic := fmt.Sprintf("flowmill-test/failover/%d", stamp)
	credID := credentialVia(t, a, fmt.Sprintf(`{"name":"broker","type":"mqtt",
	 "nodesAccess":[{"nodeType":"n8n-nodes-base.mqttTrigger"}],
	 "data":{"protocol":"mqtt","host":"127.0.0.1","port":1883,"clean":false,"clientId":"flowmill-failover-%d"}}`, stamp))
	id := createVia(t, a, fmt.Sprintf(`{"name":"failover","nodes":[
	 {"name":"MQTT Trigger","type":"n8n-nodes-base.mqttTrigger","typeVersion":1,"position":[0,0],
	  "parameters":{"topics":%q},"credentials":{"mqtt":{"id":%q,"name":"broker"}}}],"connections":{}}`, topic+":1", credID))
	code, body := patchJSON(t, a+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)

	holding := func(p *proc) int { return listenerStarts(p, id) }
	holder, other := listenerHolder(t, schedulers, id)

	pub := mqttPublisher(t, stamp)
	messages := func() []string { return triggerMessages(t, db, id) }
	// The first subscription makes the broker keep the session: probes until one arrives.
	probe := fmt.Sprintf("probe-%d", stamp)
	require.Eventually(t, func() bool {
		if count(messages(), probe) > 0 {
			return true
		}
		mqttPublish(t, pub, topic, 0, probe)
		return false
	}, 20*time.Second, 200*time.Millisecond, "the listener never fired")

	var sent []string
	send := func(phase string, n int) {
		for i := range n {
			m := fmt.Sprintf("%s-%d", phase, i)
			mqttPublish(t, pub, topic, 1, m)
			sent = append(sent, m)
		}
	}
	allOnce := func() bool {
		got := messages()
		for _, m := range sent {
			if count(got, m) != 1 {
				return false
			}
		}
		return true
	}
	// Executions run on the worker like any trigger's.
	allSucceeded := executionsSucceeded(t, db, id)
	send("before", 10)
	require.Eventually(t, allOnce, 20*time.Second, 50*time.Millisecond, "one execution per message: %v", messages())
	// The kill comes once these have run, long after the holder acknowledged them (a message
	// stored but not yet acknowledged when its holder dies is delivered again: at least once).
	require.Eventually(t, allSucceeded, 30*time.Second, 50*time.Millisecond, "the executions did not all succeed")

	// The holder dies without giving its lease back; until the lease lapses nobody listens and
	// the broker keeps the messages for the session.
	killed := time.Now()
	require.NoError(t, holder.cmd.Process.Signal(syscall.SIGKILL))
	<-holder.done
	send("orphaned", 10)
	require.Eventually(t, func() bool { return holding(other) > 0 }, 20*time.Second, 50*time.Millisecond,
		"the other scheduler did not take the listener over")
	t.Logf("listener taken over %v after the kill", time.Since(killed).Round(time.Millisecond))
	send("after", 10)
	require.Eventually(t, allOnce, 30*time.Second, 50*time.Millisecond, "one execution per message: %v", messages())

	// No message starts a second execution (a redelivery would come at once on reconnect).
	got := messages()
	for _, m := range sent {
		require.Equal(t, 1, count(got, m), "executions of %s: %v", m, got)
	}
	require.Len(t, got, len(sent)+count(got, probe), "%v", got)

	require.Eventually(t, allSucceeded, 30*time.Second, 100*time.Millisecond, "the executions did not all succeed")
	require.Zero(t, holding(holder)-1, "the killed scheduler started the listener once")
}

// listenerStarts counts the "listener started" lines scheduler p logged for workflow id.
func listenerStarts(p *proc, id string) int {
	n := 0
	for line := range strings.Lines(p.output.String()) {
		if strings.Contains(line, `msg="listener started"`) && strings.Contains(line, "workflow="+id) {
			n++
		}
	}
	return n
}

// listenerHolder waits until one of the two schedulers (logging at info) started the listener
// of workflow id and returns it, then the other one.
func listenerHolder(t *testing.T, schedulers []*proc, id string) (holder, other *proc) {
	t.Helper()
	require.Eventually(t, func() bool {
		h0, h1 := listenerStarts(schedulers[0], id), listenerStarts(schedulers[1], id)
		require.False(t, h0 > 0 && h1 > 0, "both schedulers started the listener")
		switch {
		case h0 > 0:
			holder, other = schedulers[0], schedulers[1]
		case h1 > 0:
			holder, other = schedulers[1], schedulers[0]
		}
		return holder != nil
	}, 20*time.Second, 50*time.Millisecond, "no scheduler started the listener")
	return holder, other
}

// executionsSucceeded reports whether every execution of workflow id ended successfully.
func executionsSucceeded(t *testing.T, db *sql.DB, id string) func() bool {
	return func() bool {
		var n int
		require.NoError(t, db.QueryRow(`SELECT count(*) FROM executions WHERE workflow_id = $1 AND status <> 'success'`, id).Scan(&n))
		return n == 0
	}
}

// mqttPublisher is a client of the local Mosquitto.
func mqttPublisher(t *testing.T, stamp int64) mqtt.Client {
	t.Helper()
	c := mqtt.NewClient(mqtt.NewClientOptions().AddBroker("tcp://127.0.0.1:1883").SetClientID(fmt.Sprintf("flowmill-failover-pub-%d", stamp)))
	tok := c.Connect()
	require.True(t, tok.WaitTimeout(10*time.Second), "Mosquitto must run on 127.0.0.1:1883")
	require.NoError(t, tok.Error(), "Mosquitto must run on 127.0.0.1:1883")
	t.Cleanup(func() { c.Disconnect(100) })
	return c
}

func mqttPublish(t *testing.T, c mqtt.Client, topic string, qos byte, msg string) {
	t.Helper()
	tok := c.Publish(topic, qos, false, msg)
	require.True(t, tok.WaitTimeout(10*time.Second))
	require.NoError(t, tok.Error())
}

// triggerMessages returns the MQTT message that started each execution of workflow id.
func triggerMessages(t *testing.T, db *sql.DB, id string) []string {
	t.Helper()
	rows, err := db.Query(`SELECT d.start_data FROM execution_data d JOIN executions e ON e.id = d.execution_id
		WHERE e.workflow_id = $1 ORDER BY e.id`, id)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var raw []byte
		require.NoError(t, rows.Scan(&raw))
		var sd struct {
			Input []struct {
				JSON map[string]any `json:"json"`
			} `json:"input"`
		}
		require.NoError(t, json.Unmarshal(raw, &sd), string(raw))
		require.Len(t, sd.Input, 1, string(raw))
		out = append(out, fmt.Sprint(sd.Input[0].JSON["message"]))
	}
	require.NoError(t, rows.Err())
	return out
}

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}
