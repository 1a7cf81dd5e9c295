// Package redisclient opens Redis connections for the Redis node and the redis credential test:
// settings from a credential as n8n 1.x reads them, every dial through the egress policy, and
// failures worded as n8n's.
package redisclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// ConnectTimeout is n8n's connectTimeout for Redis.
const ConnectTimeout = 10 * time.Second

// Settings are a redis credential's connection data.
type Settings struct {
	Host     string `json:"host"`
	Port     int    `json:"port"`
	Database int    `json:"database"`
	User     string `json:"user"`
	Password string `json:"password"`
	SSL      bool   `json:"ssl"`
	// Insecure skips certificate verification (disableTlsVerification, only with SSL).
	Insecure bool `json:"insecure"`
}

// Address is host:port.
func (s Settings) Address() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// FromCredential reads a redis credential's data, with n8n's defaults.
func FromCredential(data map[string]any) Settings {
	s := Settings{Host: str(data["host"]), Port: 6379, User: str(data["user"]), Password: str(data["password"])}
	if s.Host == "" {
		s.Host = "localhost"
	}
	if n, ok := workflow.Number(data["port"]); ok && n > 0 {
		s.Port = int(n)
	}
	if n, ok := workflow.Number(data["database"]); ok {
		s.Database = int(n)
	}
	s.SSL = workflow.Truthy(data["ssl"])
	s.Insecure = s.SSL && workflow.Truthy(data["disableTlsVerification"])
	return s
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// New returns a client for s whose connections are dialed through policy (nil: the built-in
// refusals only). It speaks RESP2, whose replies keep the order of hash fields. The client
// connects lazily; callers Ping first.
func New(s Settings, policy *egress.Policy, poolSize int) *redis.Client {
	var tlsConf *tls.Config
	if s.SSL {
		tlsConf = &tls.Config{ServerName: s.Host, InsecureSkipVerify: s.Insecure, MinVersion: tls.VersionTLS12} //nolint:gosec // the credential asks for it
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := policy.Dialer(ConnectTimeout).DialContext(ctx, network, addr)
		if err != nil || tlsConf == nil {
			return c, err
		}
		tc := tls.Client(c, tlsConf)
		hctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
		defer cancel()
		if err := tc.HandshakeContext(hctx); err != nil {
			_ = c.Close()
			return nil, err
		}
		return tc, nil
	}
	return redis.NewClient(&redis.Options{
		Addr: s.Address(), Username: s.User, Password: s.Password, DB: s.Database,
		Protocol: 2, Dialer: dial, DialTimeout: ConnectTimeout, DialerRetries: 1,
		ContextTimeoutEnabled: true, PoolSize: poolSize, MaxRetries: -1,
		ConnMaxIdleTime: time.Minute, DisableIdentity: true,
	})
}

// DialMessage words a failed connection as Node's socket errors read ("connect ECONNREFUSED
// 127.0.0.1:6379"); refusals by the egress policy and server replies keep their own text.
func DialMessage(err error, address string) string {
	if re, ok := egress.Refusal(err); ok {
		return re.Error()
	}
	var dns *net.DNSError
	var ne net.Error
	switch {
	case errors.As(err, &dns):
		host, _, _ := net.SplitHostPort(address)
		return "getaddrinfo ENOTFOUND " + host
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connect ECONNREFUSED " + address
	case errors.Is(err, syscall.ECONNRESET):
		return "read ECONNRESET"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "connect EHOSTUNREACH " + address
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "Connection timeout"
	}
	return err.Error()
}

// Test connects with s and sends PING, as n8n's redisConnectionTest does; the error's text is
// the test's message.
func Test(ctx context.Context, s Settings, policy *egress.Policy) error {
	c := New(s, policy, 1)
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, ConnectTimeout)
	defer cancel()
	err := c.Ping(ctx).Err()
	if err == nil {
		return nil
	}
	switch {
	case errors.Is(err, syscall.ECONNRESET):
		return errors.New("Connection reset: The Redis server rejected the connection. This often happens when trying to connect without SSL to an SSL-only server.")
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("Connection refused: Unable to connect to the Redis server. Please check the host and port.")
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New("Connection timeout: Unable to connect to Redis server")
	}
	return errors.New(DialMessage(err, s.Address()))
}
