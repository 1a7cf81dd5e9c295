package amqpconn_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/amqpconn"
)

// The tests use the RabbitMQ on 127.0.0.1:5672 (guest/guest) with queues of their own.
func settings() amqpconn.Settings {
	return amqpconn.FromCredential(map[string]any{"hostname": "127.0.0.1", "port": float64(5672), "username": "guest", "password": "guest"})
}

func queueName(t *testing.T) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	q := "flowmill-test-conn-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		if s, err := amqpconn.Open(context.Background(), nil, settings()); err == nil {
			_, _ = s.Channel.QueueDelete(q, false, false, false)
			s.Close()
		}
	})
	return q
}

func TestFromCredential(t *testing.T) {
	t.Parallel()
	require.Equal(t, amqpconn.Settings{Passwordless: true}, amqpconn.FromCredential(map[string]any{}))
	require.Equal(t, amqpconn.Settings{Hostname: "mq", Port: 5671, SSL: true, Vhost: "v"},
		amqpconn.FromCredential(map[string]any{"hostname": " mq ", "port": "5671", "ssl": true, "passwordless": false, "vhost": "v"}))
}

// Runs share one connection per credential, each with a channel of its own; a connection that
// broke is dropped and the next session dials a new one.
func TestSharedConnectionRedials(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := settings()
	s.Vhost = "/" // a key of its own, so other tests' sessions do not interfere
	a, err := amqpconn.Open(ctx, nil, s)
	require.NoError(t, err)
	b, err := amqpconn.Open(ctx, nil, s)
	require.NoError(t, err)
	require.Same(t, a.Conn, b.Conn)
	require.NotSame(t, a.Channel, b.Channel)
	a.Close()
	b.Close()

	// The broker (or the network) ends the connection.
	require.NoError(t, a.Conn.Close())
	c, err := amqpconn.Open(ctx, nil, s)
	require.NoError(t, err)
	defer c.Close()
	require.NotSame(t, a.Conn, c.Conn)
	require.False(t, c.Conn.IsClosed())
	q := queueName(t)
	require.NoError(t, c.AssertQueue(q, amqpconn.QueueOptions{AutoDelete: false}))
}

// Concurrent sessions of one credential share a single dial.
func TestConcurrentOpen(t *testing.T) {
	t.Parallel()
	s := settings()
	s.Username, s.Password = "", "" // guest/guest by default, under a key of its own
	var wg sync.WaitGroup
	conns := make([]*amqp.Connection, 8)
	for i := range conns {
		wg.Go(func() {
			sess, err := amqpconn.Open(context.Background(), nil, s)
			if err == nil {
				conns[i] = sess.Conn
				sess.Close()
			}
		})
	}
	wg.Wait()
	for _, c := range conns {
		require.NotNil(t, c)
		require.Same(t, conns[0], c)
	}
}

// Publish waits for the broker's confirmation; Consume delivers what was published, for a
// consumer such as a trigger.
func TestPublishConsume(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := amqpconn.Open(ctx, nil, settings())
	require.NoError(t, err)
	defer s.Close()
	q := queueName(t)
	require.NoError(t, s.AssertQueue(q, amqpconn.QueueOptions{Durable: true}))
	require.NoError(t, s.CheckQueue(q))
	require.NoError(t, s.EnableConfirms())
	require.NoError(t, s.Publish(ctx, "", q, false, amqp.Publishing{Body: []byte("one"), Headers: amqp.Table{"h": "v"}}))
	require.NoError(t, s.Publish(ctx, "", q, false, amqp.Publishing{Body: []byte("two")}))

	consumer, err := amqpconn.Open(ctx, nil, settings())
	require.NoError(t, err)
	defer consumer.Close()
	deliveries, err := consumer.Consume(q, "", 1, false)
	require.NoError(t, err)
	var got []string
	for len(got) < 2 {
		select {
		case d := <-deliveries:
			got = append(got, string(d.Body))
			require.NoError(t, d.Ack(false))
		case <-ctx.Done():
			t.Fatal("no delivery")
		}
	}
	require.Equal(t, []string{"one", "two"}, got)

	// A missing queue is the broker's 404, in amqplib's words; the session's channel is closed.
	missing := "flowmill-test-missing-" + q
	err = consumer.CheckQueue(missing)
	require.EqualError(t, err, `Operation failed: QueueDeclare; 404 (NOT-FOUND) with message "NOT_FOUND - no queue '`+missing+`' in vhost '/'"`)
}

func TestDialErrors(t *testing.T) {
	t.Parallel()
	s := settings()
	s.Hostname = "no-such-host.invalid"
	_, err := amqpconn.Dial(context.Background(), nil, s)
	require.EqualError(t, err, "getaddrinfo ENOTFOUND no-such-host.invalid")

	s = settings()
	s.SSL, s.CA = true, "not a certificate"
	_, err = amqpconn.Open(context.Background(), nil, s)
	require.EqualError(t, err, "The CA certificates could not be read")
}

// A certificate pasted as one line (as the editor's password fields keep it) is read as PEM.
func TestOneLineCertificates(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "client"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	oneLine := func(b *pem.Block) string {
		return strings.ReplaceAll(strings.TrimSpace(string(pem.EncodeToMemory(b))), "\n", " ")
	}
	s := settings()
	s.SSL, s.Passwordless = true, true
	s.CA = oneLine(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	s.Cert = s.CA
	s.Key = oneLine(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
	// The broker on 5672 speaks no TLS: the certificates are read, then the handshake fails.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = amqpconn.Dial(ctx, nil, s)
	require.Error(t, err)
	require.NotContains(t, err.Error(), "could not be read")
}
