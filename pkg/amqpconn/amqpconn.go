// Package amqpconn connects to RabbitMQ (AMQP 0-9-1) with the rabbitmq credential, through the
// egress policy, for the RabbitMQ node, its credential test and consumers such as a trigger. One
// connection per credential is kept in a process-wide cache and shared by every run; each run
// opens its own channel on it. Failures carry the texts n8n's amqplib client gives.
package amqpconn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/flowmill/flowmill/pkg/connpool"
	"github.com/flowmill/flowmill/pkg/egress"
)

// Timeout bounds dialing and the AMQP handshake.
const Timeout = 30 * time.Second

// Settings are the rabbitmq credential's data.
type Settings struct {
	Hostname string `json:"hostname"`
	Port     int    `json:"port"`
	Username string `json:"username"`
	Password string `json:"password"`
	Vhost    string `json:"vhost"`
	SSL      bool   `json:"ssl"`
	// Passwordless logs in with the client certificate (SASL EXTERNAL) instead of the password.
	Passwordless bool   `json:"passwordless"`
	CA           string `json:"ca"`
	Cert         string `json:"cert"`
	Key          string `json:"key"`
	Passphrase   string `json:"passphrase"`
}

// FromCredential reads the rabbitmq credential's data; empty fields take amqplib's defaults
// (localhost, 5672 or 5671 with SSL, guest/guest, vhost /).
func FromCredential(c map[string]any) Settings {
	str := func(k string) string { s, _ := c[k].(string); return s }
	s := Settings{
		Hostname: strings.TrimSpace(str("hostname")), Username: str("username"), Password: str("password"),
		Vhost: str("vhost"), CA: str("ca"), Cert: str("cert"), Key: str("key"), Passphrase: str("passphrase"),
	}
	switch p := c["port"].(type) {
	case float64:
		s.Port = int(p)
	case int:
		s.Port = p
	case string:
		s.Port, _ = strconv.Atoi(strings.TrimSpace(p))
	}
	s.SSL, _ = c["ssl"].(bool)
	s.Passwordless = true
	if v, ok := c["passwordless"].(bool); ok {
		s.Passwordless = v
	}
	return s
}

// Dial opens a connection through policy (nil: the built-in refusals only). ctx bounds the dial;
// the connection itself outlives it.
func Dial(ctx context.Context, policy *egress.Policy, s Settings) (*amqp.Connection, error) {
	host := s.Hostname
	if host == "" {
		host = "localhost"
	}
	port := s.Port
	scheme := "amqp"
	if s.SSL {
		scheme = "amqps"
	}
	if port == 0 {
		port = 5672
		if s.SSL {
			port = 5671
		}
	}
	user, pass := s.Username, s.Password
	if user == "" {
		user = "guest"
	}
	if pass == "" {
		pass = "guest"
	}
	cfg := amqp.Config{
		Vhost:      s.Vhost,
		SASL:       []amqp.Authentication{&amqp.PlainAuth{Username: user, Password: pass}},
		Heartbeat:  10 * time.Second,
		Locale:     "en_US",
		Properties: amqp.Table{"product": "Flowmill", "connection_name": "Flowmill"},
	}
	if cfg.Vhost == "" {
		cfg.Vhost = "/"
	}
	if s.SSL {
		tc, err := tlsConfig(s, host)
		if err != nil {
			return nil, err
		}
		cfg.TLSClientConfig = tc
		if s.Passwordless {
			cfg.SASL = []amqp.Authentication{&amqp.ExternalAuth{}}
		}
	}
	dialer := policy.Dialer(Timeout)
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	cfg.Dial = func(network, a string) (net.Conn, error) {
		conn, err := dialer.DialContext(ctx, network, a)
		if err != nil {
			return nil, err
		}
		// The handshake cannot stall: amqp091 clears the deadline once the connection is open.
		deadline := time.Now().Add(Timeout)
		if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		_ = conn.SetDeadline(deadline)
		return conn, nil
	}
	conn, err := amqp.DialConfig(scheme+"://"+addr, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, Message(err, addr, cfg.SASL[0].Mechanism())
	}
	return conn, nil
}

func tlsConfig(s Settings, host string) (*tls.Config, error) {
	tc := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	if ca := strings.TrimSpace(s.CA); ca != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(formatPEM(ca))) {
			return nil, errors.New("The CA certificates could not be read")
		}
		tc.RootCAs = pool
	}
	if s.Passwordless && strings.TrimSpace(s.Cert) != "" && strings.TrimSpace(s.Key) != "" {
		keyPEM := []byte(formatPEM(s.Key))
		if s.Passphrase != "" {
			if b, _ := pem.Decode(keyPEM); b != nil && x509.IsEncryptedPEMBlock(b) { //nolint:staticcheck // legacy encrypted keys are what a passphrase unlocks
				der, err := x509.DecryptPEMBlock(b, []byte(s.Passphrase)) //nolint:staticcheck // as above
				if err != nil {
					return nil, fmt.Errorf("The client key could not be decrypted: %w", err)
				}
				keyPEM = pem.EncodeToMemory(&pem.Block{Type: b.Type, Bytes: der})
			}
		}
		cert, err := tls.X509KeyPair([]byte(formatPEM(s.Cert)), keyPEM)
		if err != nil {
			return nil, fmt.Errorf("The client certificate could not be read: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// formatPEM restores the line breaks of a PEM block pasted as one line, as n8n's
// formatPrivateKey does.
func formatPEM(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "\n") {
		return s
	}
	m := pemLine.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	return m[1] + "\n" + strings.Join(strings.Fields(m[2]), "\n") + "\n" + m[3]
}

var pemLine = regexp.MustCompile(`^(-----BEGIN [A-Z0-9 ]+-----)(.*?)(-----END [A-Z0-9 ]+-----)$`)

// replyNames are the AMQP reply codes by amqplib's names.
var replyNames = map[int]string{
	311: "CONTENT-TOO-LARGE", 312: "NO-ROUTE", 313: "NO-CONSUMERS", 320: "CONNECTION-FORCED",
	402: "INVALID-PATH", 403: "ACCESS-REFUSED", 404: "NOT-FOUND", 405: "RESOURCE-LOCKED",
	406: "PRECONDITION-FAILED", 501: "FRAME-ERROR", 502: "SYNTAX-ERROR", 503: "COMMAND-INVALID",
	504: "CHANNEL-ERROR", 505: "UNEXPECTED-FRAME", 506: "RESOURCE-ERROR", 530: "NOT-ALLOWED",
	540: "NOT-IMPLEMENTED", 541: "INTERNAL-ERROR",
}

func replyName(code int) string {
	if n, ok := replyNames[code]; ok {
		return n
	}
	return strconv.Itoa(code)
}

// Message is the text of a failed dial or handshake to addr, as amqplib words it: "connect
// ECONNREFUSED host:port", `Handshake terminated by server: 403 (ACCESS-REFUSED) with message
// "…"`, the egress policy's refusal.
func Message(err error, addr, mechanism string) error {
	if re, ok := egress.Refusal(err); ok {
		return re
	}
	var ae *amqp.Error
	switch {
	case errors.Is(err, amqp.ErrCredentials):
		// amqp091 cannot ask RabbitMQ to explain a refused login (it does not advertise
		// authentication_failure_close), so this is RabbitMQ's explanation.
		return fmt.Errorf("Handshake terminated by server: 403 (ACCESS-REFUSED) with message %q",
			"ACCESS_REFUSED - Login was refused using authentication mechanism "+mechanism+". For details see the broker logfile.")
	case errors.As(err, &ae):
		return fmt.Errorf("Handshake terminated by server: %d (%s) with message %q", ae.Code, replyName(ae.Code), ae.Reason)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("connect ECONNREFUSED %s", addr)
	case errors.Is(err, syscall.ECONNRESET):
		return errors.New("read ECONNRESET")
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		return fmt.Errorf("connect ETIMEDOUT %s", addr)
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Errorf("getaddrinfo ENOTFOUND %s", dns.Name)
	}
	return err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// OperationError is the text of a failed channel operation (op is amqplib's name for it, such as
// QueueDeclare): `Operation failed: QueueDeclare; 404 (NOT-FOUND) with message "…"`.
func OperationError(op string, err error) error {
	var ae *amqp.Error
	if errors.As(err, &ae) && ae.Server {
		return fmt.Errorf("Operation failed: %s; %d (%s) with message %q", op, ae.Code, replyName(ae.Code), ae.Reason)
	}
	if errors.Is(err, amqp.ErrClosed) {
		return errors.New("Channel closed")
	}
	return err
}

// pool holds one connection per credential (and egress policy).
var pool = connpool.New[*amqp.Connection](connpool.Options{})

// Session is a channel of its own on the shared connection of a credential.
type Session struct {
	Conn    *amqp.Connection
	Channel *amqp.Channel
	key     string
	release func()
}

// Open returns a session on the cached connection for s (dialing it when there is none, or
// when the cached one broke). Close the session when done; the connection stays cached.
func Open(ctx context.Context, policy *egress.Policy, s Settings) (*Session, error) {
	key := connpool.Key(struct {
		S      Settings
		Policy string
	}{s, fmt.Sprintf("%p", policy)})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var lastErr error
	for range 2 {
		conn, release, err := pool.Get(key, func() (*amqp.Connection, error) { return Dial(ctx, policy, s) })
		if err != nil {
			return nil, err
		}
		if conn.IsClosed() {
			pool.Drop(key)
			release()
			lastErr = amqp.ErrClosed
			continue
		}
		ch, err := conn.Channel()
		if err != nil {
			// The connection died under us: forget it and dial once more.
			pool.Drop(key)
			release()
			lastErr = err
			continue
		}
		return &Session{Conn: conn, Channel: ch, key: key, release: release}, nil
	}
	return nil, OperationError("ChannelOpen", lastErr)
}

// Close closes the session's channel and hands the connection back to the cache; a connection
// found closed is dropped from it, so the next Open dials anew.
func (s *Session) Close() {
	if s == nil || s.release == nil {
		return
	}
	_ = s.Channel.Close()
	if s.Conn.IsClosed() {
		pool.Drop(s.key)
	}
	s.release()
	s.release = nil
}

// Drop forgets the session's connection (for a caller that found it broken).
func (s *Session) Drop() { pool.Drop(s.key) }

// QueueOptions are the n8n options of a queue assertion.
type QueueOptions struct {
	Durable, AutoDelete, Exclusive bool
	Arguments                      amqp.Table
}

// AssertQueue declares queue (creating it, or checking an existing one has the same options).
func (s *Session) AssertQueue(queue string, o QueueOptions) error {
	_, err := s.Channel.QueueDeclare(queue, o.Durable, o.AutoDelete, o.Exclusive, false, o.Arguments)
	return OperationError("QueueDeclare", err)
}

// CheckQueue fails when queue does not exist.
func (s *Session) CheckQueue(queue string) error {
	_, err := s.Channel.QueueDeclarePassive(queue, false, false, false, false, nil)
	return OperationError("QueueDeclare", err)
}

// ExchangeOptions are the n8n options of an exchange assertion.
type ExchangeOptions struct {
	Durable, AutoDelete bool
	AlternateExchange   string
	Arguments           amqp.Table
}

// AssertExchange declares exchange of kind (direct, topic, headers or fanout).
func (s *Session) AssertExchange(exchange, kind string, o ExchangeOptions) error {
	args := amqp.Table{}
	for k, v := range o.Arguments {
		args[k] = v
	}
	if o.AlternateExchange != "" {
		args["alternate-exchange"] = o.AlternateExchange
	}
	if len(args) == 0 {
		args = nil
	}
	err := s.Channel.ExchangeDeclare(exchange, kind, o.Durable, o.AutoDelete, false, false, args)
	return OperationError("ExchangeDeclare", err)
}

// BindQueue binds queue to exchange with routingKey.
func (s *Session) BindQueue(queue, exchange, routingKey string, args amqp.Table) error {
	return OperationError("QueueBind", s.Channel.QueueBind(queue, routingKey, exchange, false, args))
}

// EnableConfirms puts the channel in confirm mode, so Publish waits for the broker's ack.
func (s *Session) EnableConfirms() error {
	return OperationError("ConfirmSelect", s.Channel.Confirm(false))
}

// ErrNacked is a message the broker refused to take.
var ErrNacked = errors.New("Message was rejected by the broker (nack)")

// Publish sends msg and, on a channel in confirm mode, waits until the broker acknowledged it.
func (s *Session) Publish(ctx context.Context, exchange, routingKey string, mandatory bool, msg amqp.Publishing) error {
	dc, err := s.Channel.PublishWithDeferredConfirmWithContext(ctx, exchange, routingKey, mandatory, false, msg)
	if err != nil {
		return OperationError("BasicPublish", err)
	}
	if dc == nil {
		return nil
	}
	select {
	case <-dc.Done():
		if !dc.Acked() {
			if s.Channel.IsClosed() {
				return errors.New("Channel closed")
			}
			return ErrNacked
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Consume starts delivering queue's messages to the consumer tag (empty: one the broker makes)
// with at most prefetch unacknowledged at a time (0: no limit); noAck acknowledges them on
// delivery. The channel ends when the session closes or the consumer is cancelled.
func (s *Session) Consume(queue, consumer string, prefetch int, noAck bool) (<-chan amqp.Delivery, error) {
	if prefetch > 0 {
		if err := s.Channel.Qos(prefetch, 0, false); err != nil {
			return nil, OperationError("BasicQos", err)
		}
	}
	d, err := s.Channel.Consume(queue, consumer, noAck, false, false, false, nil)
	if err != nil {
		return nil, OperationError("BasicConsume", err)
	}
	return d, nil
}
