package rabbitmqtrigger_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/rabbitmqtrigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// The tests use the RabbitMQ on 127.0.0.1:5672 (guest/guest), with queues of their own.
const brokerURL = "amqp://guest:guest@127.0.0.1:5672/"

func creds() m {
	return m{"hostname": "127.0.0.1", "port": float64(5672), "username": "guest", "password": "guest", "vhost": "/"}
}

func node(params m) nodetest.Node {
	return nodetest.Node{Parameters: params, Credentials: m{"rabbitmq": m{"id": "1", "name": "RabbitMQ"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) { return creds(), nil }}
}

// broker is a client of the test's own: it publishes and looks at queues.
type broker struct {
	t    *testing.T
	conn *amqp.Connection
	ch   *amqp.Channel
}

func dial(t *testing.T) *broker {
	t.Helper()
	conn, err := amqp.Dial(brokerURL)
	require.NoError(t, err, "RabbitMQ must run on 127.0.0.1:5672")
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	require.NoError(t, err)
	return &broker{t: t, conn: conn, ch: ch}
}

// exists reports whether queue q exists (on a channel of its own: a failed look closes it).
func (b *broker) exists(q string) bool {
	ch, err := b.conn.Channel()
	require.NoError(b.t, err)
	defer ch.Close()
	_, err = ch.QueueDeclarePassive(q, false, false, false, false, nil)
	return err == nil
}

// queue is a fresh queue name, deleted after the test.
func (b *broker) queue() string {
	buf := make([]byte, 6)
	_, _ = rand.Read(buf)
	q := "flowmill-test-trigger-" + hex.EncodeToString(buf)
	b.t.Cleanup(func() { _, _ = b.ch.QueueDelete(q, false, false, false) })
	return q
}

func (b *broker) publish(exchange, key string, msg amqp.Publishing) {
	b.t.Helper()
	require.NoError(b.t, b.ch.PublishWithContext(context.Background(), exchange, key, false, false, msg))
}

// ready is how many messages of q wait for a consumer (not those delivered and unacknowledged).
func (b *broker) ready(q string) int {
	b.t.Helper()
	st, err := b.ch.QueueDeclarePassive(q, true, false, false, false, nil)
	require.NoError(b.t, err)
	return st.Messages
}

// fakeRun is a run whose outcome the test decides.
type fakeRun struct {
	id      int64
	outcome chan nodes.Outcome
}

func (r *fakeRun) ID() int64 { return r.id }

func (r *fakeRun) Outcome(ctx context.Context) (nodes.Outcome, error) {
	select {
	case o := <-r.outcome:
		return o, nil
	case <-ctx.Done():
		return nodes.Outcome{}, ctx.Err()
	}
}

// emitted is one call of emit.
type emitted struct {
	items []workflow.Item
	await nodes.Await
	run   *fakeRun
}

// listening runs the trigger's Listen with params until the test ends, handing each emit to
// the returned channel.
func listening(t *testing.T, params m) <-chan emitted {
	t.Helper()
	calls := make(chan emitted, 100)
	ctx, cancel := context.WithCancel(context.Background())
	typ := rabbitmqtrigger.Type()
	listen := typ.Listen
	var seq int64
	var mu sync.Mutex
	typ.Node = nodes.NodeFunc(func(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
		return nil, listen(ctx, ex, func(items []workflow.Item, await nodes.Await) (nodes.Run, error) {
			e := emitted{items: items, await: await}
			if await != nodes.AwaitNone {
				mu.Lock()
				seq++
				e.run = &fakeRun{id: seq, outcome: make(chan nodes.Outcome, 1)}
				mu.Unlock()
			}
			calls <- e
			if e.run == nil {
				return nil, nil
			}
			return e.run, nil
		})
	})
	done := make(chan error, 1)
	n := node(params)
	n.Context, n.Mode = ctx, workflow.ModeTrigger
	go func() {
		_, err := nodetest.Run(t, typ, n)
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	return calls
}

func next(t *testing.T, calls <-chan emitted) emitted {
	t.Helper()
	select {
	case e := <-calls:
		return e
	case <-time.After(15 * time.Second):
		t.Fatal("no message was emitted")
		return emitted{}
	}
}

func jsonOf(t *testing.T, it workflow.Item) string {
	t.Helper()
	b, err := json.Marshal(it.JSON)
	require.NoError(t, err)
	return string(b)
}

func TestItemAsN8n(t *testing.T) {
	t.Parallel()
	d := amqp.Delivery{ConsumerTag: "ctag", DeliveryTag: 3, Exchange: "ex", RoutingKey: "rk", Body: []byte(`{"b":2,"a":1}`),
		ContentType: "application/json", Headers: amqp.Table{"z": "last", "n": int32(5), "t": amqp.Table{"deep": true}},
		DeliveryMode: 2, MessageId: "m-1", Timestamp: time.Unix(1700000000, 0)}
	tests := []struct {
		name                   string
		binary, parse, content bool
		want                   string
	}{
		{name: "text", want: `{"fields":{"consumerTag":"ctag","deliveryTag":3,"redelivered":false,"exchange":"ex","routingKey":"rk"},` +
			`"properties":{"contentType":"application/json","headers":{"n":5,"t":{"deep":true},"z":"last"},"deliveryMode":2,"messageId":"m-1","timestamp":1700000000},` +
			`"content":"{\"b\":2,\"a\":1}"}`},
		{name: "parsed", parse: true, want: `{"fields":{"consumerTag":"ctag","deliveryTag":3,"redelivered":false,"exchange":"ex","routingKey":"rk"},` +
			`"properties":{"contentType":"application/json","headers":{"n":5,"t":{"deep":true},"z":"last"},"deliveryMode":2,"messageId":"m-1","timestamp":1700000000},` +
			`"content":{"b":2,"a":1}}`},
		{name: "only content, parsed", parse: true, content: true, want: `{"b":2,"a":1}`},
		{name: "only content, text", content: true, want: `{"content":"{\"b\":2,\"a\":1}"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it, err := rabbitmqtrigger.Item(d, tc.binary, tc.parse, tc.content, 0)
			require.NoError(t, err)
			require.Equal(t, tc.want, jsonOf(t, it))
		})
	}
	it, err := rabbitmqtrigger.Item(d, true, true, true, 0)
	require.NoError(t, err)
	require.NotContains(t, jsonOf(t, it), `"content":`)
	raw, err := nodes.BinaryBytes(it.Binary["data"])
	require.NoError(t, err)
	require.Equal(t, d.Body, raw)
	require.Equal(t, "application/json", it.Binary["data"].MimeType)
}

// Hostile messages never take the listener down: those that cannot become an item are errors
// (the listener rejects them), the others become well-formed JSON.
func TestItemHostile(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for name, body := range map[string]string{"not JSON": `{"a":`, "too deep": deep, "empty": ``} {
		_, err := rabbitmqtrigger.Item(amqp.Delivery{Body: []byte(body)}, false, true, false, 0)
		require.Error(t, err, name)
	}
	_, err := rabbitmqtrigger.Item(amqp.Delivery{Body: make([]byte, 11)}, false, false, false, 10)
	require.ErrorContains(t, err, "larger than FLOWMILL_UNPACK_MAX_SIZE")

	nested := amqp.Table{}
	cur := nested
	for range 100 {
		next := amqp.Table{}
		cur["x"] = next
		cur = next
	}
	d := amqp.Delivery{Body: []byte("\x00\xff\xfe<script>\u2028"), Headers: amqp.Table{
		"nan": math.NaN(), "inf": float32(math.Inf(1)), "bytes": []byte{0xff, 'a'}, "list": []any{int64(1), "b", nil},
		"dec": amqp.Decimal{Scale: 2, Value: 12345}, "when": time.Unix(5, 0), "\xff": "bad key", "nested": nested}}
	it, err := rabbitmqtrigger.Item(d, false, false, false, 0)
	require.NoError(t, err)
	s := jsonOf(t, it)
	require.True(t, json.Valid([]byte(s)), s)
	require.Contains(t, s, "\"content\":\"\\u0000\ufffd\ufffd\\u003cscript\\u003e\\u2028\"")
	require.Contains(t, s, `"nan":null,"nested":{"x":`)
	require.Contains(t, s, "\"bytes\":\"\ufffda\",\"dec\":123.45,\"inf\":null,\"list\":[1,\"b\",null]")
	require.Contains(t, s, "\"when\":5,\"\ufffd\":\"bad key\"")
}

func TestParameterErrors(t *testing.T) {
	t.Parallel()
	for _, p := range []any{0.0, -2.0, 1.5, "x"} {
		_, err := nodetest.Run(t, rabbitmqtrigger.Type(), node(m{"queue": "q", "options": m{"parallelMessages": p}}))
		require.ErrorContains(t, err, "Parallel message processing limit must be a number greater than zero (or -1 for no limit)", "%v", p)
	}
	_, err := nodetest.Run(t, rabbitmqtrigger.Type(), node(m{"queue": "q", "options": m{"acknowledge": "never"}}))
	require.ErrorContains(t, err, `The value "never" is not supported`)
	// A queue that does not exist, with Assert Queue off, is the broker's refusal.
	_, err = nodetest.Run(t, rabbitmqtrigger.Type(), node(m{"queue": "flowmill-test-never-declared", "options": m{"assertQueue": false}}))
	require.ErrorContains(t, err, `Operation failed: QueueDeclare; 404 (NOT-FOUND)`)
	// A wrong password fails with RabbitMQ's words.
	bad := node(m{"queue": "q"})
	bad.CredentialData = func(context.Context, nodes.CredentialRef) (map[string]any, error) {
		c := creds()
		c["password"] = "wrong"
		return c, nil
	}
	_, err = nodetest.Run(t, rabbitmqtrigger.Type(), bad)
	require.ErrorContains(t, err, "ACCESS-REFUSED")
}

func TestManualRunTakesOneMessage(t *testing.T) {
	t.Parallel()
	b := dial(t)
	q := b.queue()
	_, err := b.ch.QueueDeclare(q, true, false, false, false, nil)
	require.NoError(t, err)
	b.publish("", q, amqp.Publishing{Body: []byte(`{"n":1}`)})
	b.publish("", q, amqp.Publishing{Body: []byte(`{"n":2}`)})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	n := node(m{"queue": q, "options": m{"jsonParseBody": true, "onlyContent": true}})
	n.Context = ctx
	out, err := nodetest.Run(t, rabbitmqtrigger.Type(), n)
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"n": 1.0}}, out[0])
	require.Eventually(t, func() bool { return b.ready(q) == 1 }, 10*time.Second, 20*time.Millisecond, "the second message stays")
}

// Immediately acknowledges once emit stored the execution; a message that cannot become an item
// is rejected (here to a dead-letter queue) and the listener goes on; bindings route an
// exchange's messages to the queue.
func TestListenImmediately(t *testing.T) {
	t.Parallel()
	b := dial(t)
	q, dead, exchange := b.queue(), b.queue(), b.queue()
	require.NoError(t, b.ch.ExchangeDeclare(exchange, "topic", false, true, false, false, nil))
	_, err := b.ch.QueueDeclare(dead, false, false, false, false, nil)
	require.NoError(t, err)
	calls := listening(t, m{"queue": q, "options": m{"jsonParseBody": true, "durable": false,
		"arguments": m{"argument": []any{m{"key": "x-dead-letter-exchange", "value": ""}, m{"key": "x-dead-letter-routing-key", "value": dead}}},
		"binding":   m{"bindings": []any{m{"exchange": exchange, "routingKey": "orders.#"}}}}})
	// The listener declares the queue: wait for it, then publish through the exchange.
	require.Eventually(t, func() bool { return b.exists(q) }, 10*time.Second, 50*time.Millisecond)
	b.publish(exchange, "orders.eu", amqp.Publishing{Body: []byte(`not json`)})
	b.publish(exchange, "orders.eu", amqp.Publishing{Body: []byte(`{"ok":1}`), Headers: amqp.Table{"h": "v"}})
	e := next(t, calls)
	require.Equal(t, nodes.AwaitNone, e.await)
	require.Len(t, e.items, 1)
	got := jsonOf(t, e.items[0])
	require.Contains(t, got, `"exchange":"`+exchange+`","routingKey":"orders.eu"`)
	require.Contains(t, got, `"headers":{"h":"v"}`)
	require.Contains(t, got, `"content":{"ok":1}`)
	require.Eventually(t, func() bool { return b.ready(dead) == 1 }, 10*time.Second, 20*time.Millisecond, "the bad message is dead-lettered")
	require.Equal(t, 0, b.ready(q))
}

// The waiting modes acknowledge or requeue per the run's outcome, as n8n.
func TestListenSettlesPerOutcome(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode    string
		outcome nodes.Outcome
		await   nodes.Await
		acked   bool
	}{
		{"executionFinishes", nodes.Outcome{Status: workflow.StatusError}, nodes.AwaitEnd, true},
		{"executionFinishesSuccessfully", nodes.Outcome{Status: workflow.StatusSuccess}, nodes.AwaitEnd, true},
		{"executionFinishesSuccessfully", nodes.Outcome{Status: workflow.StatusError}, nodes.AwaitEnd, false},
		{"executionFinishesSuccessfully", nodes.Outcome{Status: workflow.StatusCrashed}, nodes.AwaitEnd, false},
		{"laterMessageNode", nodes.Outcome{Acknowledged: true}, nodes.AwaitAcknowledge, true},
		{"laterMessageNode", nodes.Outcome{Status: workflow.StatusSuccess}, nodes.AwaitAcknowledge, true},
		{"laterMessageNode", nodes.Outcome{Status: workflow.StatusError}, nodes.AwaitAcknowledge, false},
		{"laterMessageNode", nodes.Outcome{}, nodes.AwaitAcknowledge, false},
	}
	for _, tc := range tests {
		t.Run(tc.mode+"/"+string(tc.outcome.Status), func(t *testing.T) {
			t.Parallel()
			b := dial(t)
			q := b.queue()
			_, err := b.ch.QueueDeclare(q, true, false, false, false, nil)
			require.NoError(t, err)
			b.publish("", q, amqp.Publishing{Body: []byte("one")})
			calls := listening(t, m{"queue": q, "options": m{"acknowledge": tc.mode}})
			e := next(t, calls)
			require.Equal(t, tc.await, e.await)
			require.Equal(t, 0, b.ready(q), "delivered, not acknowledged yet")
			e.run.outcome <- tc.outcome
			if tc.acked {
				// Acknowledged: nothing comes back.
				require.Never(t, func() bool { return len(calls) > 0 || b.ready(q) > 0 }, 500*time.Millisecond, 20*time.Millisecond)
				return
			}
			again := next(t, calls)
			require.Contains(t, jsonOf(t, again.items[0]), `"redelivered":true`)
		})
	}
}

// A parallel limit is the channel's prefetch: no more messages are delivered while that many
// runs go on. With the limit Immediately becomes Execution Finishes, as in n8n.
func TestParallelLimit(t *testing.T) {
	t.Parallel()
	b := dial(t)
	q := b.queue()
	_, err := b.ch.QueueDeclare(q, true, false, false, false, nil)
	require.NoError(t, err)
	for _, body := range []string{"a", "b", "c"} {
		b.publish("", q, amqp.Publishing{Body: []byte(body)})
	}
	calls := listening(t, m{"queue": q, "options": m{"parallelMessages": 2.0}})
	first, second := next(t, calls), next(t, calls)
	require.Equal(t, nodes.AwaitEnd, first.await)
	require.Never(t, func() bool { return len(calls) > 0 }, 300*time.Millisecond, 20*time.Millisecond, "a third run while two go on")
	require.Equal(t, 1, b.ready(q))
	second.run.outcome <- nodes.Outcome{Status: workflow.StatusSuccess}
	third := next(t, calls)
	require.Contains(t, jsonOf(t, third.items[0]), `"content":"c"`)
	first.run.outcome <- nodes.Outcome{Status: workflow.StatusSuccess}
	third.run.outcome <- nodes.Outcome{Status: workflow.StatusSuccess}
	require.Eventually(t, func() bool { return b.ready(q) == 0 }, 5*time.Second, 20*time.Millisecond)
}
