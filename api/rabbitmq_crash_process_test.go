package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stretchr/testify/require"
)

// gate is the local server the test workflow calls: /hold answers a message whose id starts
// with "hold" only once the test releases it (or the caller goes away), any other at once;
// /count counts each message's visible effect.
type gate struct {
	mu       sync.Mutex
	holds    map[string]int
	counts   map[string]int
	released map[string]chan struct{}
}

func newGate() *gate {
	return &gate{holds: map[string]int{}, counts: map[string]int{}, released: map[string]chan struct{}{}}
}

func (g *gate) releaseOf(m string) chan struct{} {
	if g.released[m] == nil {
		g.released[m] = make(chan struct{})
	}
	return g.released[m]
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := r.URL.Query().Get("m")
	g.mu.Lock()
	release := g.releaseOf(m)
	switch r.URL.Path {
	case "/hold":
		g.holds[m]++
	case "/count":
		g.counts[m]++
	}
	g.mu.Unlock()
	if r.URL.Path == "/hold" && strings.HasPrefix(m, "hold") {
		select {
		case <-release:
		case <-r.Context().Done(): // the worker died
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"m": m})
}

func (g *gate) release(m string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	close(g.releaseOf(m))
}

func (g *gate) held(m string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.holds[m]
}

func (g *gate) counted() map[string]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return maps.Clone(g.counts)
}

// TestRabbitMQTriggerAcrossProcessCrashes runs an active RabbitMQ Trigger workflow (Delete From
// Queue When "Execution Finishes Successfully", one message at a time) on a scaled stack with
// two scheduler processes: trigger → Hold (an HTTP call the test holds) → Count (an HTTP call
// per message). A worker killed with SIGKILL while a run is held leaves it to another worker,
// which finishes it; its message is acknowledged only then, and runs once. A scheduler killed
// with SIGKILL while a run is held leaves the listener to the other scheduler; the broker
// delivers the unacknowledged message again, so it runs twice, and it alone. No message is lost.
func TestRabbitMQTriggerAcrossProcessCrashes(t *testing.T) {
	g := newGate()
	srv := httptest.NewServer(g)
	defer srv.Close()

	conn, err := amqp.Dial("amqp://guest:guest@127.0.0.1:5672/")
	require.NoError(t, err, "RabbitMQ must run on 127.0.0.1:5672")
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	require.NoError(t, err)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	q := "flowmill-test-crash-" + hex.EncodeToString(b)
	_, err = ch.QueueDeclare(q, true, false, false, false, nil)
	require.NoError(t, err)
	// Registered first, so it runs once the processes have stopped.
	t.Cleanup(func() { _, _ = ch.QueueDelete(q, false, false, false) })
	// ready is how many messages of the queue wait for a consumer (with a prefetch of 1, the
	// next is delivered only once the one before was acknowledged).
	queueState := func() (ready, consumers int) {
		st, err := ch.QueueDeclarePassive(q, true, false, false, false, nil)
		require.NoError(t, err)
		return st.Messages, st.Consumers
	}
	publish := func(bodies ...string) {
		for _, m := range bodies {
			require.NoError(t, ch.PublishWithContext(context.Background(), "", q, false, false,
				amqp.Publishing{Body: []byte(m), DeliveryMode: amqp.Persistent}))
		}
	}

	env := scaledEnv(t, "FLOWMILL_LOG_LEVEL", "info",
		"FLOWMILL_EXECUTION_LEASE_TTL", "2s", "FLOWMILL_RECONCILE_INTERVAL", "500ms")
	apiEnv := maps.Clone(env)
	port := freePort(t)
	apiEnv["FLOWMILL_PORT"] = fmt.Sprint(port)
	startProc(t, "api", apiEnv)
	worker := startProc(t, "worker", env)
	schedulers := []*proc{startProc(t, "scheduler", env), startProc(t, "scheduler", env)}
	a := fmt.Sprintf("http://127.0.0.1:%d/", port)
	waitReady(t, a)
	db, err := sql.Open("pgx", env["FLOWMILL_DATABASE_URL"])
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })

	credID := credentialVia(t, a, `{"name":"broker","type":"rabbitmq",
	 "nodesAccess":[{"nodeType":"n8n-nodes-base.rabbitmqTrigger"}],
	 "data":{"hostname":"127.0.0.1","port":5672,"username":"guest","password":"guest","vhost":"/"}}`)
	id := createVia(t, a, fmt.Sprintf(`{"name":"rabbit crash","nodes":[
	 {"name":"RabbitMQ Trigger","type":"n8n-nodes-base.rabbitmqTrigger","typeVersion":1,"position":[0,0],
	  "parameters":{"queue":%q,"options":{"acknowledge":"executionFinishesSuccessfully","parallelMessages":1}},
	  "credentials":{"rabbitmq":{"id":%q,"name":"broker"}}},
	 {"name":"Hold","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[200,0],
	  "parameters":{"url":"=%s/hold?m={{$json.content}}","options":{}}},
	 {"name":"Count","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[400,0],
	  "parameters":{"url":"=%s/count?m={{$json.m}}","options":{}}}],
	 "connections":{"RabbitMQ Trigger":{"main":[[{"node":"Hold","type":"main","index":0}]]},
	  "Hold":{"main":[[{"node":"Count","type":"main","index":0}]]}}}`, q, credID, srv.URL, srv.URL))
	code, body := patchJSON(t, a+"rest/workflows/"+id, `{"active":true}`)
	require.Equal(t, 200, code, body)

	holding := func(p *proc) int { return listenerStarts(p, id) }
	holder, other := listenerHolder(t, schedulers, id)
	require.Eventually(t, func() bool { _, c := queueState(); return c == 1 }, 20*time.Second, 50*time.Millisecond,
		"the listener does not consume the queue")

	allSucceeded := executionsSucceeded(t, db, id)
	ranOnce := func(ms ...string) func() bool {
		return func() bool {
			got := g.counted()
			for _, m := range ms {
				if got[m] != 1 {
					return false
				}
			}
			return true
		}
	}
	// heldBehind waits until message m is held on a worker with the messages before it done
	// and two more waiting in the queue: with one message at a time, m is the only one
	// delivered and not acknowledged.
	heldBehind := func(m string, before ...string) {
		require.Eventually(t, func() bool {
			ready, _ := queueState()
			return g.held(m) == 1 && ranOnce(before...)() && ready == 2
		}, 30*time.Second, 20*time.Millisecond, "%s is not the one message in flight: %v", m, g.counted())
	}

	// The worker dies in the middle of a run.
	publish("w-0", "w-1", "hold-w", "w-2", "w-3")
	heldBehind("hold-w", "w-0", "w-1")
	killed := time.Now()
	require.NoError(t, worker.cmd.Process.Signal(syscall.SIGKILL))
	<-worker.done
	startProc(t, "worker", env)
	// The new worker takes the run over from its last checkpoint: Hold, in flight, runs again.
	require.Eventually(t, func() bool { return g.held("hold-w") == 2 }, 30*time.Second, 20*time.Millisecond,
		"the run was not taken over")
	t.Logf("run taken over %v after the worker's kill", time.Since(killed).Round(time.Millisecond))
	// Not acknowledged while the taken-over run goes on: the next message is not delivered.
	ready, consumers := queueState()
	require.Equal(t, 2, ready)
	require.Equal(t, 1, consumers)
	require.Zero(t, g.counted()["hold-w"])
	g.release("hold-w")
	require.Eventually(t, func() bool {
		ready, _ := queueState()
		return ready == 0 && ranOnce("w-0", "w-1", "hold-w", "w-2", "w-3")()
	}, 30*time.Second, 20*time.Millisecond, "the messages after the taken-over run did not run: %v", g.counted())
	require.Eventually(t, allSucceeded, 30*time.Second, 50*time.Millisecond, "the executions did not all succeed")

	// The scheduler holding the listener dies in the middle of a run.
	publish("s-0", "s-1", "hold-s", "s-2", "s-3")
	heldBehind("hold-s", "s-0", "s-1")
	killed = time.Now()
	require.NoError(t, holder.cmd.Process.Signal(syscall.SIGKILL))
	<-holder.done
	require.Eventually(t, func() bool { return holding(other) > 0 }, 20*time.Second, 50*time.Millisecond,
		"the other scheduler did not take the listener over")
	t.Logf("listener taken over %v after the scheduler's kill", time.Since(killed).Round(time.Millisecond))
	// The broker delivers the unacknowledged message again: a second execution holds it too.
	require.Eventually(t, func() bool { return g.held("hold-s") == 2 }, 30*time.Second, 20*time.Millisecond,
		"the message was not delivered again: %v", g.counted())
	g.release("hold-s")
	all := []string{"w-0", "w-1", "hold-w", "w-2", "w-3", "s-0", "s-1", "s-2", "s-3"}
	require.Eventually(t, func() bool {
		ready, _ := queueState()
		return ready == 0 && ranOnce(all...)() && g.counted()["hold-s"] == 2
	}, 30*time.Second, 20*time.Millisecond, "not every message ran: %v", g.counted())
	require.Eventually(t, allSucceeded, 30*time.Second, 50*time.Millisecond, "the executions did not all succeed")
	// At least once: the redelivered message is the only one that ran twice.
	got := g.counted()
	require.Len(t, got, len(all)+1, "%v", got)
	var executions int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM executions WHERE workflow_id = $1`, id).Scan(&executions))
	require.Equal(t, len(all)+2, executions)
	// One run was taken over from the killed worker: the one held then.
	var takenOver int
	require.NoError(t, db.QueryRow(`SELECT count(*) FROM executions WHERE workflow_id = $1 AND takeovers > 0`, id).Scan(&takenOver))
	require.Equal(t, 1, takenOver)

	// Once the listener stops, whatever it had not acknowledged is back in the queue: nothing.
	code, body = patchJSON(t, a+"rest/workflows/"+id, `{"active":false}`)
	require.Equal(t, 200, code, body)
	require.Eventually(t, func() bool { _, c := queueState(); return c == 0 }, 20*time.Second, 50*time.Millisecond,
		"the listener still consumes the queue")
	ready, _ = queueState()
	require.Zero(t, ready, "messages were left unacknowledged")
	require.Equal(t, 1, holding(holder), "the killed scheduler started the listener once")
}
