package rabbitmq_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/rabbitmq"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// The tests talk to the RabbitMQ on 127.0.0.1:5672 (guest/guest); every queue and exchange has
// a name of its own and is deleted afterwards.
const brokerURL = "amqp://guest:guest@127.0.0.1:5672/"

func creds() m {
	return m{"hostname": "127.0.0.1", "port": float64(5672), "username": "guest", "password": "guest", "vhost": "/"}
}

func node(params m, data m, cof bool) nodetest.Node {
	return nodetest.Node{
		Parameters: params, ContinueOnFail: cof,
		Credentials: m{"rabbitmq": m{"id": "1", "name": "RabbitMQ"}},
		CredentialData: func(context.Context, nodes.CredentialRef) (map[string]any, error) {
			return data, nil
		},
	}
}

func uniqueName(t *testing.T, kind string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "flowmill-test-" + kind + "-" + hex.EncodeToString(b)
}

// broker is the test's own channel on the broker, for setting up, reading back and cleaning up.
func broker(t *testing.T) *amqp.Channel {
	t.Helper()
	conn, err := amqp.Dial(brokerURL)
	require.NoError(t, err, "RabbitMQ must run on 127.0.0.1:5672")
	t.Cleanup(func() { _ = conn.Close() })
	ch, err := conn.Channel()
	require.NoError(t, err)
	return ch
}

// cleanup deletes queues and exchanges once the test ends, on a connection of its own (a failed
// declare may have closed the test's channel).
func cleanup(t *testing.T, queues, exchanges []string) {
	t.Cleanup(func() {
		conn, err := amqp.Dial(brokerURL)
		if err != nil {
			return
		}
		defer conn.Close()
		for _, q := range queues {
			if ch, err := conn.Channel(); err == nil {
				_, _ = ch.QueueDelete(q, false, false, false)
				_ = ch.Close()
			}
		}
		for _, x := range exchanges {
			if ch, err := conn.Channel(); err == nil {
				_ = ch.ExchangeDelete(x, false, false)
				_ = ch.Close()
			}
		}
	})
}

// readAll gets every message waiting in queue.
func readAll(t *testing.T, ch *amqp.Channel, queue string) []amqp.Delivery {
	t.Helper()
	var out []amqp.Delivery
	for {
		d, ok, err := ch.Get(queue, true)
		require.NoError(t, err)
		if !ok {
			return out
		}
		out = append(out, d)
	}
}

func bodies(ds []amqp.Delivery) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = string(d.Body)
	}
	return out
}

// hostile are items whose text must reach the broker exactly, in key order.
func hostile() []workflow.Item {
	return []workflow.Item{
		{JSON: workflow.ObjectOf("text", "it's \"quoted\"; DROP TABLE x; --", "nul", "a\x00b", "uni", "żółć 🐇 <&>\u2028",
			"slash", `a\u003c`)},
		{JSON: workflow.ObjectOf("n", 1.5, "nested", workflow.ObjectOf("list", []any{true, nil}))},
	}
}

func TestSendToQueue(t *testing.T) {
	t.Parallel()
	ch := broker(t)
	queue := uniqueName(t, "q")
	cleanup(t, []string{queue}, nil)

	out, err := nodetest.Run(t, rabbitmq.Type(), node(m{
		"queue": queue,
		"options": m{"headers": m{"header": []any{
			m{"key": "source", "value": "flowmill"},
			m{"key": "item", "value": "={{ $json.text ?? 'second' }}"},
		}}},
	}, creds(), false), hostile())
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}, {"success": true}}, nodetest.JSONs(out[0]))
	require.Equal(t, [][]string{{"success"}, {"success"}}, nodetest.Keys(out[0]))
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)

	got := readAll(t, ch, queue)
	require.Equal(t, []string{
		`{"text":"it's \"quoted\"; DROP TABLE x; --","nul":"a\u0000b","uni":"żółć 🐇 <&>` + "\u2028" + `","slash":"a\\u003c"}`,
		`{"n":1.5,"nested":{"list":[true,null]}}`,
	}, bodies(got))
	require.Equal(t, amqp.Table{"source": "flowmill", "item": "it's \"quoted\"; DROP TABLE x; --"}, got[0].Headers)
	require.Equal(t, amqp.Table{"source": "flowmill", "item": "second"}, got[1].Headers)

	// The queue was declared durable (n8n's default) and not auto-deleted.
	_, err = ch.QueueDeclarePassive(queue, true, false, false, false, nil)
	require.NoError(t, err)
}

// Version 1 has no operation parameter in the editor and sends the message parameter per item.
func TestMessageVersion1(t *testing.T) {
	t.Parallel()
	ch := broker(t)
	queue := uniqueName(t, "q")
	cleanup(t, []string{queue}, nil)
	n := node(m{"queue": queue, "sendInputData": false, "message": "={{ $json.word }}\u0000;'"}, creds(), false)
	n.Version = 1
	out, err := nodetest.Run(t, rabbitmq.Type(), n, nodetest.Items(m{"word": "eins"}, m{"word": "zwei"}))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}, {"success": true}}, nodetest.JSONs(out[0]))
	require.Equal(t, []string{"eins\x00;'", "zwei\x00;'"}, bodies(readAll(t, ch, queue)))
}

// Options durable, auto delete, exclusive and arguments shape the queue; the arguments also set
// the message's publish options, as in n8n.
func TestQueueOptions(t *testing.T) {
	t.Parallel()
	ch := broker(t)
	queue := uniqueName(t, "q")
	cleanup(t, []string{queue}, nil)
	args := m{"argument": []any{
		m{"key": "x-message-ttl", "value": "60000"},
		m{"key": "x-queue-mode", "value": "default"},
		m{"key": "contentType", "value": "application/json"},
		m{"key": "priority", "value": "3"},
		m{"key": "messageId", "value": "id-1"},
		m{"key": "persistent", "value": "true"},
	}}
	params := m{"queue": queue, "options": m{"durable": false, "autoDelete": false, "arguments": args}}
	out, err := nodetest.Run(t, rabbitmq.Type(), node(params, creds(), false), nodetest.Items(m{"a": 1}))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out[0]))

	// The broker holds the queue with these arguments: a declaration with them succeeds.
	_, err = ch.QueueDeclarePassive(queue, false, false, false, false, nil)
	require.NoError(t, err)
	_, err = ch.QueueDeclare(queue, false, false, false, false, amqp.Table{
		"x-message-ttl": int64(60000), "x-queue-mode": "default", "contentType": "application/json",
		"priority": "3", "messageId": "id-1", "persistent": "true",
	})
	require.NoError(t, err)
	got := readAll(t, ch, queue)
	require.Len(t, got, 1)
	require.Equal(t, "application/json", got[0].ContentType)
	require.Equal(t, uint8(3), got[0].Priority)
	require.Equal(t, "id-1", got[0].MessageId)
	require.Equal(t, uint8(amqp.Persistent), got[0].DeliveryMode)

	// Declaring the queue again as durable fails with the broker's words, as amqplib reports them.
	_, err = nodetest.Run(t, rabbitmq.Type(), node(m{"queue": queue}, creds(), false), nodetest.Items(m{}))
	ne := nodetest.NodeError(t, err)
	require.Equal(t, "Operation failed: QueueDeclare; 406 (PRECONDITION-FAILED) with message "+
		strconv.Quote("PRECONDITION_FAILED - inequivalent arg 'durable' for queue '"+queue+"' in vhost '/': received 'true' but current is 'false'"),
		ne.Message)

	// An exclusive, auto-deleted queue is usable by the node's own connection.
	excl := uniqueName(t, "q")
	cleanup(t, []string{excl}, nil)
	out, err = nodetest.Run(t, rabbitmq.Type(), node(m{"queue": excl, "options": m{"exclusive": true, "autoDelete": true, "durable": false}}, creds(), false),
		nodetest.Items(m{"x": 1}))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out[0]))
}

func TestExchanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kind, routingKey string
		bindKey          string
		bindArgs         amqp.Table
		headers          []any
		want             []string
	}{
		{kind: "direct", routingKey: "orders", bindKey: "orders", want: []string{`{"i":0}`, `{"i":1}`}},
		{kind: "topic", routingKey: "orders.eu.new", bindKey: "orders.*.new", want: []string{`{"i":0}`, `{"i":1}`}},
		{kind: "fanout", routingKey: "ignored", bindKey: "", want: []string{`{"i":0}`, `{"i":1}`}},
		// Only the item whose header matches the binding arrives.
		{kind: "headers", bindArgs: amqp.Table{"x-match": "all", "region": "eu"},
			headers: []any{m{"key": "region", "value": "={{ $json.i == 0 ? 'eu' : 'us' }}"}}, want: []string{`{"i":0}`}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			ch := broker(t)
			exchange, queue := uniqueName(t, "x"), uniqueName(t, "q")
			cleanup(t, []string{queue}, []string{exchange})
			require.NoError(t, ch.ExchangeDeclare(exchange, tc.kind, true, false, false, false, nil))
			_, err := ch.QueueDeclare(queue, false, true, false, false, nil)
			require.NoError(t, err)
			require.NoError(t, ch.QueueBind(queue, tc.bindKey, exchange, false, tc.bindArgs))

			params := m{"mode": "exchange", "exchange": exchange, "exchangeType": tc.kind, "routingKey": tc.routingKey}
			if tc.headers != nil {
				params["options"] = m{"headers": m{"header": tc.headers}}
			}
			out, err := nodetest.Run(t, rabbitmq.Type(), node(params, creds(), false), nodetest.Items(m{"i": 0}, m{"i": 1}))
			require.NoError(t, err)
			require.Equal(t, []m{{"success": true}, {"success": true}}, nodetest.JSONs(out[0]))
			require.Equal(t, tc.want, bodies(readAll(t, ch, queue)))
		})
	}
}

// Messages the exchange cannot route go to the alternate exchange.
func TestAlternateExchange(t *testing.T) {
	t.Parallel()
	ch := broker(t)
	exchange, alt, queue := uniqueName(t, "x"), uniqueName(t, "x"), uniqueName(t, "q")
	cleanup(t, []string{queue}, []string{exchange, alt})
	require.NoError(t, ch.ExchangeDeclare(alt, "fanout", false, false, false, false, nil))
	_, err := ch.QueueDeclare(queue, false, true, false, false, nil)
	require.NoError(t, err)
	require.NoError(t, ch.QueueBind(queue, "", alt, false, nil))

	params := m{"mode": "exchange", "exchange": exchange, "exchangeType": "direct", "routingKey": "nobody",
		"options": m{"alternateExchange": alt, "durable": false}}
	out, err := nodetest.Run(t, rabbitmq.Type(), node(params, creds(), false), nodetest.Items(m{"lost": true}))
	require.NoError(t, err)
	require.Equal(t, []m{{"success": true}}, nodetest.JSONs(out[0]))
	require.Equal(t, []string{`{"lost":true}`}, bodies(readAll(t, ch, queue)))
}

func closedPort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	return port
}

func TestConnectionErrors(t *testing.T) {
	t.Parallel()
	wrong := creds()
	wrong["password"] = "not-the-password"
	port := closedPort(t)
	unreachable := creds()
	unreachable["port"] = float64(port)
	denied := node(m{"queue": "never-declared"}, creds(), true)
	denied.Host = nodes.Host{HTTP: egress.New(nil, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}).Client(egress.Options{})}

	tests := []struct {
		name string
		n    nodetest.Node
		want string
	}{
		{"wrong password", node(m{"queue": "never-declared"}, wrong, false),
			`Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile."`},
		// Connecting fails the node even with continue on fail, as in n8n.
		{"unreachable port", node(m{"queue": "never-declared"}, unreachable, true), "connect ECONNREFUSED 127.0.0.1:" + strconv.Itoa(port)},
		{"egress denial", denied, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY)."},
		{"default exchange", node(m{"mode": "exchange", "exchange": "", "exchangeType": "direct"}, creds(), false),
			`Operation failed: ExchangeDeclare; 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - operation not permitted on the default exchange"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := nodetest.Run(t, rabbitmq.Type(), tc.n, nodetest.Items(m{"a": 1}))
			ne := nodetest.NodeError(t, err)
			require.Equal(t, tc.want, ne.Message)
			require.Equal(t, -1, ne.ItemIndex)
		})
	}
}

// A run cancelled while connecting ends with the context's error.
func TestCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	queue := uniqueName(t, "q")
	cleanup(t, []string{queue}, nil)
	n := node(m{"queue": queue}, creds(), false)
	n.Context = ctx
	_, err := nodetest.Run(t, rabbitmq.Type(), n, nodetest.Items(m{}))
	require.ErrorIs(t, err, context.Canceled)
}

// The rabbitmq credential is tested by connecting, through the test's egress client.
func TestCredentialTest(t *testing.T) {
	t.Parallel()
	typ, ok := credential.Lookup("rabbitmq")
	require.True(t, ok)
	test := func(data m, client *http.Client) credential.TestResult {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		return typ.TestCredential(ctx, data, credential.TestInput{Client: client})
	}
	allowLoopback := egress.New([]netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, nil).Strict().Client(egress.Options{})
	strict := egress.New(nil, nil).Strict().Client(egress.Options{})
	require.Equal(t, credential.TestResult{Status: "OK", Message: "Connection successful!"}, test(creds(), allowLoopback))
	wrong := creds()
	wrong["username"] = "nobody"
	require.Equal(t, credential.TestResult{Status: "Error", Message: `Handshake terminated by server: 403 (ACCESS-REFUSED) with message ` +
		`"ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile."`}, test(wrong, allowLoopback))
	vhost := creds()
	vhost["vhost"] = "no-such-vhost"
	res := test(vhost, allowLoopback)
	require.Equal(t, "Error", res.Status)
	require.Contains(t, res.Message, "no-such-vhost")
	require.Equal(t, credential.TestResult{Status: "Error", Message: "The address 127.0.0.1 is not allowed (built-in refusal of loopback and " +
		"private addresses for fetches any member can make; FLOWMILL_EGRESS_ALLOW can open it)."}, test(creds(), strict))
}

// Delete From Queue passes its items on and records the acknowledgement the RabbitMQ Trigger
// that started the run waits for.
func TestDeleteFromQueue(t *testing.T) {
	t.Parallel()
	n := node(m{"operation": "deleteMessage"}, creds(), false)
	n.Version = 1.1
	n.NodeContext = map[string]any{}
	in := nodetest.Items(m{"a": 1}, m{"b": 2})
	out, err := nodetest.Run(t, rabbitmq.Type(), n, in)
	require.NoError(t, err)
	require.Equal(t, nodetest.JSONs(in), nodetest.JSONs(out[0]))
	require.True(t, nodes.MessageAcknowledged(n.NodeContext))
}
