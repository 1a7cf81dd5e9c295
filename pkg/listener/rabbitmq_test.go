package listener_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/listener"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// The RabbitMQ tests use the broker on 127.0.0.1:5672 (guest/guest), with queues of their own.

// rabbit is the test's own client of the broker.
type rabbit struct {
	t    *testing.T
	conn *amqp.Connection
	ch   *amqp.Channel
}

func rabbitClient(t *testing.T) *rabbit {
	t.Helper()
	conn, err := amqp.Dial("amqp://guest:guest@127.0.0.1:5672/")
	require.NoError(t, err, "RabbitMQ must run on 127.0.0.1:5672")
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	require.NoError(t, err)
	return &rabbit{t: t, conn: conn, ch: ch}
}

// queue declares a fresh durable queue, deleted after the test.
func (r *rabbit) queue() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	q := "flowmill-test-listener-" + hex.EncodeToString(b)
	_, err := r.ch.QueueDeclare(q, true, false, false, false, nil)
	require.NoError(r.t, err)
	r.t.Cleanup(func() { _, _ = r.ch.QueueDelete(q, false, false, false) })
	return q
}

func (r *rabbit) publish(q string, bodies ...string) {
	r.t.Helper()
	for _, b := range bodies {
		require.NoError(r.t, r.ch.PublishWithContext(context.Background(), "", q, false, false, amqp.Publishing{Body: []byte(b)}))
	}
}

// state is how many messages of q are ready (not delivered, or given back) and how many
// consumers it has.
func (r *rabbit) state(q string) (ready, consumers int) {
	r.t.Helper()
	st, err := r.ch.QueueDeclarePassive(q, true, false, false, false, nil)
	require.NoError(r.t, err)
	return st.Messages, st.Consumers
}

// settledAfterStop waits until the listener of workflow w is gone (it gives its lease back once
// its channel is closed, so every message not acknowledged is back in the queue) and returns
// how many messages of q are ready.
func (r *rabbit) settledAfterStop(in *infra.Infra, w *store.Workflow, q string) int {
	r.t.Helper()
	require.Eventually(r.t, func() bool {
		n, err := in.Redis.Exists(context.Background(), "flowmill:listener:"+w.ID+":RabbitMQ Trigger").Result()
		require.NoError(r.t, err)
		_, consumers := r.state(q)
		return n == 0 && consumers == 0
	}, 15*time.Second, 20*time.Millisecond, "the listener still runs")
	ready, _ := r.state(q)
	return ready
}

// rabbitWorkflow stores and announces an active workflow whose RabbitMQ Trigger consumes q with
// options; rest are more nodes (JSON objects) and connections the workflow's connections.
func rabbitWorkflow(t *testing.T, in *infra.Infra, q string, options map[string]any, rest, connections string) *store.Workflow {
	return rabbitWorkflowWith(t, in, q, options, rest, connections, `{"executionOrder":"v1"}`)
}

// rabbitWorkflowWith is rabbitWorkflow with the workflow's settings.
func rabbitWorkflowWith(t *testing.T, in *infra.Infra, q string, options map[string]any, rest, connections, settings string) *store.Workflow {
	t.Helper()
	params, err := json.Marshal(map[string]any{"queue": q, "options": options})
	require.NoError(t, err)
	nodesJSON := fmt.Sprintf(`[{"id":"t","name":"RabbitMQ Trigger","type":"n8n-nodes-base.rabbitmqTrigger","typeVersion":1,
		"position":[0,0],"parameters":%s,"credentials":{"rabbitmq":{"id":"1","name":"broker"}}}%s]`, params, rest)
	now := time.Now().UTC()
	w := &store.Workflow{ID: store.NewID(), Name: "rabbit " + q, Active: true, Nodes: store.JSON(nodesJSON),
		Connections: store.JSON(cmpOr(connections, `{}`)), Settings: store.JSON(settings),
		VersionID: store.NewUUID(), CreatedAt: now, UpdatedAt: now}
	require.NoError(t, in.Store.DB.Create(w).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
	return w
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// deactivate turns the workflow off, which stops its listener.
func deactivate(t *testing.T, in *infra.Infra, w *store.Workflow) {
	t.Helper()
	require.NoError(t, in.Store.DB.Model(w).Updates(map[string]any{"active": false}).Error)
	require.NoError(t, trigger.Announce(context.Background(), in.Redis, w.ID))
}

// checkNode is a Code node that fails for a message whose content contains "fail".
func checkNode(name string, y int) string {
	return fmt.Sprintf(`,{"id":%q,"name":%q,"type":"n8n-nodes-base.code","typeVersion":2,"position":[300,%d],
		"parameters":{"jsCode":"if ($input.first().json.content.includes('fail')) throw new Error('failed'); return $input.all();"}}`, name, name, y)
}

// run is an execution of a RabbitMQ-triggered workflow: its message and how it went.
type rabbitRun struct {
	ID          int64
	Content     string
	Redelivered bool
	Status      workflow.Status
	Takeovers   int
}

// runs returns the executions of workflow id, by creation.
func runs(t *testing.T, in *infra.Infra, id string) []rabbitRun {
	t.Helper()
	var rows []struct {
		ID        int64
		Status    string
		Takeovers int
		StartData store.JSON
	}
	require.NoError(t, in.Store.DB.Raw(`SELECT e.id, e.status, e.takeovers, d.start_data FROM executions e
		JOIN execution_data d ON d.execution_id = e.id WHERE e.workflow_id = ? ORDER BY e.id`, id).Scan(&rows).Error)
	var out []rabbitRun
	for _, r := range rows {
		var sd struct {
			Input []struct {
				JSON struct {
					Fields struct {
						Redelivered bool `json:"redelivered"`
					} `json:"fields"`
					Content string `json:"content"`
				} `json:"json"`
			} `json:"input"`
		}
		require.NoError(t, json.Unmarshal(r.StartData, &sd), string(r.StartData))
		require.Len(t, sd.Input, 1)
		out = append(out, rabbitRun{ID: r.ID, Content: sd.Input[0].JSON.Content, Redelivered: sd.Input[0].JSON.Fields.Redelivered,
			Status: workflow.Status(r.Status), Takeovers: r.Takeovers})
	}
	return out
}

// of returns the runs of message content.
func of(list []rabbitRun, content string) []rabbitRun {
	var out []rabbitRun
	for _, r := range list {
		if r.Content == content {
			out = append(out, r)
		}
	}
	return out
}

// ended reports whether every run of content (at least n of them) has ended.
func ended(list []rabbitRun, content string, n int) bool {
	rs := of(list, content)
	if len(rs) < n {
		return false
	}
	for _, r := range rs {
		switch r.Status {
		case workflow.StatusSuccess, workflow.StatusError, workflow.StatusCrashed, workflow.StatusCanceled:
		default:
			return false
		}
	}
	return true
}

func startWorker(t *testing.T, in *infra.Infra) *worker.Worker {
	t.Helper()
	w, err := worker.New(in)
	require.NoError(t, err)
	require.NoError(t, w.Start(context.Background()))
	t.Cleanup(w.Stop)
	return w
}

// Each acknowledgement mode, end to end on a worker: a message is acknowledged, or given back to
// the queue, as the outcome of its execution says.
func TestRabbitMQTriggerAckModes(t *testing.T) {
	in := infratest.Open(t, nil)
	startWorker(t, in)
	newManager(t, in)
	mq := rabbitClient(t)
	check := checkNode("Check", 0)
	fromTrigger := `{"RabbitMQ Trigger":{"main":[[{"node":"Check","type":"main","index":0}]]}}`

	t.Run("executionFinishes", func(t *testing.T) {
		q := mq.queue()
		w := rabbitWorkflow(t, in, q, map[string]any{"acknowledge": "executionFinishes"}, check, fromTrigger)
		mq.publish(q, "ok", "fail")
		require.Eventually(t, func() bool {
			got := runs(t, in, w.ID)
			return ended(got, "ok", 1) && ended(got, "fail", 1)
		}, 30*time.Second, 50*time.Millisecond)
		got := runs(t, in, w.ID)
		require.Equal(t, workflow.StatusSuccess, of(got, "ok")[0].Status)
		require.Equal(t, workflow.StatusError, of(got, "fail")[0].Status)
		deactivate(t, in, w)
		require.Zero(t, mq.settledAfterStop(in, w, q), "both acknowledged, the failed run's too")
		require.Len(t, runs(t, in, w.ID), 2)
	})

	t.Run("executionFinishesSuccessfully", func(t *testing.T) {
		q := mq.queue()
		w := rabbitWorkflow(t, in, q, map[string]any{"acknowledge": "executionFinishesSuccessfully"}, check, fromTrigger)
		mq.publish(q, "ok", "fail")
		// The failed run's message goes back to the queue and comes again, as in n8n.
		require.Eventually(t, func() bool {
			got := runs(t, in, w.ID)
			return ended(got, "ok", 1) && ended(got, "fail", 2)
		}, 30*time.Second, 50*time.Millisecond)
		got := runs(t, in, w.ID)
		require.False(t, of(got, "fail")[0].Redelivered)
		require.True(t, of(got, "fail")[1].Redelivered)
		deactivate(t, in, w)
		require.Equal(t, 1, mq.settledAfterStop(in, w, q), "the failing message is still queued, the other acknowledged")
		require.Len(t, of(runs(t, in, w.ID), "ok"), 1)
	})

	t.Run("executionFinishesSuccessfully, successes not kept", func(t *testing.T) {
		// The worker drops a successful run at once: the listener reads the outcome it left.
		q := mq.queue()
		var before int64
		require.NoError(t, in.Store.DB.Raw(`SELECT COALESCE(MAX(id), 0) FROM executions`).Scan(&before).Error)
		w := rabbitWorkflowWith(t, in, q, map[string]any{"acknowledge": "executionFinishesSuccessfully"}, check, fromTrigger,
			`{"executionOrder":"v1","saveDataSuccessExecution":"none"}`)
		mq.publish(q, "ok")
		require.Eventually(t, func() bool {
			var n int64
			require.NoError(t, in.Store.DB.Raw(`SELECT count(*) FROM webhook_answers WHERE execution_id > ? AND answer LIKE ?`,
				before, `%"success"%`).Scan(&n).Error)
			return n == 1
		}, 30*time.Second, 50*time.Millisecond)
		require.Empty(t, runs(t, in, w.ID), "the successful run is not kept")
		deactivate(t, in, w)
		require.Zero(t, mq.settledAfterStop(in, w, q), "acknowledged")
	})

	t.Run("laterMessageNode", func(t *testing.T) {
		q := mq.queue()
		// Gate lets "del…" messages on to Delete From Queue; Check (run after, lower on the
		// canvas) fails "…fail" messages.
		rest := `,{"id":"g","name":"Gate","type":"n8n-nodes-base.code","typeVersion":2,"position":[300,-200],
			"parameters":{"jsCode":"return $input.all().filter(i => i.json.content.startsWith('del'));"}},
			{"id":"d","name":"Delete","type":"n8n-nodes-base.rabbitmq","typeVersion":1.1,"position":[600,-200],
			"parameters":{"operation":"deleteMessage"}}` + checkNode("Check", 200)
		conns := `{"RabbitMQ Trigger":{"main":[[{"node":"Gate","type":"main","index":0},{"node":"Check","type":"main","index":0}]]},
			"Gate":{"main":[[{"node":"Delete","type":"main","index":0}]]}}`
		w := rabbitWorkflow(t, in, q, map[string]any{"acknowledge": "laterMessageNode"}, rest, conns)
		mq.publish(q, "del-fail", "plain-ok", "plain-fail")
		require.Eventually(t, func() bool {
			got := runs(t, in, w.ID)
			return ended(got, "del-fail", 1) && ended(got, "plain-ok", 1) && ended(got, "plain-fail", 2)
		}, 30*time.Second, 50*time.Millisecond)
		got := runs(t, in, w.ID)
		require.Equal(t, workflow.StatusError, of(got, "del-fail")[0].Status, "Delete From Queue ran, then the run failed")
		deactivate(t, in, w)
		require.Equal(t, 1, mq.settledAfterStop(in, w, q), "only the failing message that was not deleted is queued")
		got = runs(t, in, w.ID)
		require.Len(t, of(got, "del-fail"), 1)
		require.Len(t, of(got, "plain-ok"), 1)
	})
}

// A worker dies while running a message's execution, then the listener dies while another
// message's execution waits: a message is acknowledged only once its execution ended (on the
// worker that took it over), and one whose listener died first is delivered again to the other
// replica. Nothing is lost.
func TestRabbitMQTriggerWorkerAndListenerCrash(t *testing.T) {
	in := infratest.Open(t, nil)
	ctx := context.Background()
	a, b := newManager(t, in), newManager(t, in)
	mq := rabbitClient(t)
	q := mq.queue()
	w := rabbitWorkflow(t, in, q, map[string]any{"acknowledge": "executionFinishes"}, checkNode("Check", 0),
		`{"RabbitMQ Trigger":{"main":[[{"node":"Check","type":"main","index":0}]]}}`)
	holder := func(ms ...*listener.Manager) *listener.Manager {
		var h *listener.Manager
		require.Eventually(t, func() bool {
			for _, m := range ms {
				if m.Holding(w.ID, "RabbitMQ Trigger") {
					h = m
					return true
				}
			}
			return false
		}, 15*time.Second, 20*time.Millisecond, "no scheduler took the lease")
		return h
	}
	first := holder(a, b)
	other := map[*listener.Manager]*listener.Manager{a: b, b: a}[first]

	// No worker yet: the execution of m1 is claimed by a worker that dies in Check.
	mq.publish(q, "m1")
	require.Eventually(t, func() bool { return len(of(runs(t, in, w.ID), "m1")) == 1 }, 15*time.Second, 20*time.Millisecond)
	e1 := of(runs(t, in, w.ID), "m1")[0]
	_, err := in.Store.ClaimExecution(ctx, e1.ID, "dead-worker/1", time.Minute)
	require.NoError(t, err)
	ok, err := in.Store.RenewLease(ctx, e1.ID, "dead-worker/1", -time.Second, "Check")
	require.NoError(t, err)
	require.True(t, ok)
	ready, _ := mq.state(q)
	require.Zero(t, ready, "m1 is delivered to the listener, which holds it unacknowledged")

	// A worker takes the execution over and finishes it: the listener acknowledges m1 then.
	w1 := startWorker(t, in)
	require.Eventually(t, func() bool { return ended(runs(t, in, w.ID), "m1", 1) }, 30*time.Second, 20*time.Millisecond)
	e1 = of(runs(t, in, w.ID), "m1")[0]
	require.Equal(t, workflow.StatusSuccess, e1.Status)
	require.Equal(t, 1, e1.Takeovers, "finished by the worker that took it over")

	// No worker again; m2's execution waits when the listener dies: m2 goes back to the queue
	// and the other replica runs it, while m1 stays acknowledged.
	w1.Stop()
	mq.publish(q, "m2")
	require.Eventually(t, func() bool { return len(of(runs(t, in, w.ID), "m2")) == 1 }, 15*time.Second, 20*time.Millisecond)
	first.Kill()
	require.Equal(t, other, holder(other))
	require.Eventually(t, func() bool { return len(of(runs(t, in, w.ID), "m2")) == 2 }, 15*time.Second, 20*time.Millisecond,
		"m2 is delivered again to the replica that took over")
	require.True(t, of(runs(t, in, w.ID), "m2")[1].Redelivered)
	startWorker(t, in)
	require.Eventually(t, func() bool { return ended(runs(t, in, w.ID), "m2", 2) }, 30*time.Second, 20*time.Millisecond)

	// Once the second holder stops too, nothing is left unacknowledged: m1 and m2 were each
	// acknowledged once their (last) execution ended.
	deactivate(t, in, w)
	require.Zero(t, mq.settledAfterStop(in, w, q))
	got := runs(t, in, w.ID)
	require.Len(t, of(got, "m1"), 1)
	require.Len(t, of(got, "m2"), 2, "at least once: the run the dead listener started ran too")
}

// Two replicas, one killed: in Immediately mode each message starts exactly one execution, the
// other replica taking over the queue.
func TestRabbitMQTriggerOneHolderAndTakeover(t *testing.T) {
	in := infratest.Open(t, nil)
	a, b := newManager(t, in), newManager(t, in)
	mq := rabbitClient(t)
	q := mq.queue()
	w := rabbitWorkflow(t, in, q, map[string]any{}, "", "")
	first, other := holderOf(t, a, b, w.ID, "RabbitMQ Trigger")
	each := func(prefix string) {
		for i := range 5 {
			mq.publish(q, fmt.Sprintf("%s-%d", prefix, i))
		}
		require.Eventually(t, func() bool {
			got := runs(t, in, w.ID)
			for i := range 5 {
				if len(of(got, fmt.Sprintf("%s-%d", prefix, i))) != 1 {
					return false
				}
			}
			return true
		}, 15*time.Second, 20*time.Millisecond)
	}
	each("before")
	first.Kill()
	require.Eventually(t, func() bool { return other.Holding(w.ID, "RabbitMQ Trigger") }, 15*time.Second, 20*time.Millisecond)
	each("after")
	deactivate(t, in, w)
	require.Zero(t, mq.settledAfterStop(in, w, q))
	got := runs(t, in, w.ID)
	require.Len(t, got, 10, "%v", got)
	for _, r := range got {
		require.False(t, r.Redelivered, "no message came twice: %v", got)
	}
}

// A listener that is stopped (the workflow deactivated) stops consuming but waits for the runs
// it started before it closes its channel, so their messages are acknowledged, not run again.
func TestRabbitMQTriggerDrainsWhenStopped(t *testing.T) {
	in := infratest.Open(t, nil)
	m := newManager(t, in)
	mq := rabbitClient(t)
	q := mq.queue()
	w := rabbitWorkflow(t, in, q, map[string]any{"acknowledge": "executionFinishes"}, checkNode("Check", 0),
		`{"RabbitMQ Trigger":{"main":[[{"node":"Check","type":"main","index":0}]]}}`)
	require.Eventually(t, func() bool { return m.Holding(w.ID, "RabbitMQ Trigger") }, 15*time.Second, 20*time.Millisecond)
	// No worker yet: the run waits.
	mq.publish(q, "m1")
	require.Eventually(t, func() bool { return len(of(runs(t, in, w.ID), "m1")) == 1 }, 15*time.Second, 20*time.Millisecond)
	deactivate(t, in, w)
	require.Eventually(t, func() bool {
		_, consumers := mq.state(q)
		return consumers == 0
	}, 15*time.Second, 20*time.Millisecond, "the listener stops consuming")
	ready, _ := mq.state(q)
	require.Zero(t, ready, "m1 is still held by the draining listener")

	startWorker(t, in)
	require.Eventually(t, func() bool { return ended(runs(t, in, w.ID), "m1", 1) }, 30*time.Second, 20*time.Millisecond)
	// Once its run ended the listener acknowledges m1, closes and gives the lease back.
	require.Eventually(t, func() bool {
		n, err := in.Redis.Exists(context.Background(), "flowmill:listener:"+w.ID+":RabbitMQ Trigger").Result()
		require.NoError(t, err)
		return n == 0
	}, 15*time.Second, 20*time.Millisecond)
	ready, _ = mq.state(q)
	require.Zero(t, ready, "acknowledged")
	require.Len(t, runs(t, in, w.ID), 1)
}
