// Package mysqlconn opens MySQL and MariaDB connection pools from mySql credentials, dialing
// every connection through the egress policy, for the MySQL node and its credential test.
package mysqlconn

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/flowmill/flowmill/pkg/egress"
)

// Settings are what a pool is opened with: the credential's connection fields and the node's
// pool options. Its JSON form keys the pool cache.
type Settings struct {
	Host              string `json:"host"`
	Port              int    `json:"port"`
	Database          string `json:"database"`
	User              string `json:"user"`
	Password          string `json:"password"`
	ConnectTimeout    int    `json:"connectTimeout"`
	SSL               bool   `json:"ssl"`
	CACertificate     string `json:"caCertificate"`
	ClientCertificate string `json:"clientCertificate"`
	ClientPrivateKey  string `json:"clientPrivateKey"`
	SSHTunnel         bool   `json:"sshTunnel"`
	ConnectionLimit   int    `json:"connectionLimit"`
}

// FromCredential reads a mySql credential's data with n8n's defaults.
func FromCredential(c map[string]any) Settings {
	s := Settings{
		Host: strings.TrimSpace(str(c["host"], "localhost")), Port: 3306,
		Database: str(c["database"], "mysql"), User: str(c["user"], "mysql"),
		Password: str(c["password"], ""), ConnectTimeout: 10000,
		CACertificate: str(c["caCertificate"], ""), ClientCertificate: str(c["clientCertificate"], ""),
		ClientPrivateKey: str(c["clientPrivateKey"], ""), ConnectionLimit: 10,
	}
	if n, ok := num(c["port"]); ok && n > 0 && n < 65536 {
		s.Port = int(n)
	}
	if n, ok := num(c["connectTimeout"]); ok && n > 0 {
		s.ConnectTimeout = int(n)
	}
	s.SSL, _ = c["ssl"].(bool)
	s.SSHTunnel, _ = c["sshTunnel"].(bool)
	return s
}

// ErrSSHTunnel is the answer for credentials that ask for an SSH tunnel.
var ErrSSHTunnel = errors.New("SSH tunnels are not supported")

// Open returns a pool for s whose connections are dialed through policy (nil allows every
// address). Nothing is dialed until the pool is used.
func Open(s Settings, policy *egress.Policy) (*sql.DB, error) {
	if s.SSHTunnel {
		return nil, ErrSSHTunnel
	}
	timeout := time.Duration(s.ConnectTimeout) * time.Millisecond
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.DBName = s.User, s.Password, s.Database
	cfg.Net, cfg.Addr = "tcp", net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	cfg.Timeout = timeout
	// Values are escaped by the driver into the query text, as n8n's driver formats queries
	// client-side; utf8mb4 is safe for that.
	cfg.InterpolateParams = true
	cfg.Loc = time.UTC
	cfg.Logger = mysql.Logger(quietLogger{})
	dialer := policy.Dialer(timeout)
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialer.DialContext(ctx, network, addr)
	}
	if s.SSL {
		tc, err := tlsConfig(s)
		if err != nil {
			return nil, err
		}
		cfg.TLS = tc
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(conn)
	limit := s.ConnectionLimit
	if limit < 1 {
		limit = 10
	}
	db.SetMaxOpenConns(limit)
	db.SetMaxIdleConns(limit)
	db.SetConnMaxIdleTime(time.Minute)
	return db, nil
}

// tlsConfig trusts the credential's CA certificate when given (else the system roots) and
// presents its client certificate when both halves are given.
func tlsConfig(s Settings) (*tls.Config, error) {
	tc := &tls.Config{ServerName: s.Host, MinVersion: tls.VersionTLS12}
	if strings.TrimSpace(s.CACertificate) != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(s.CACertificate)) {
			return nil, errors.New("The CA certificate is not a valid PEM certificate")
		}
		tc.RootCAs = pool
	}
	if strings.TrimSpace(s.ClientCertificate) != "" && strings.TrimSpace(s.ClientPrivateKey) != "" {
		pair, err := tls.X509KeyPair([]byte(s.ClientCertificate), []byte(s.ClientPrivateKey))
		if err != nil {
			return nil, fmt.Errorf("The client certificate or key is invalid: %w", err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}

// Test connects with the credential's data and pings the server, as n8n's mysqlConnectionTest.
func Test(ctx context.Context, data map[string]any, policy *egress.Policy) error {
	s := FromCredential(data)
	s.ConnectionLimit = 1
	db, err := Open(s, policy)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := db.PingContext(ctx); err != nil {
		return errors.New(Message(err))
	}
	return nil
}

// Message is an error's text as n8n shows it: the server's message for SQL errors (access
// denied, syntax errors), "Connection refused" for a refused connection.
func Message(err error) string {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Message
	}
	if r, ok := egress.Refusal(err); ok {
		return r.Error()
	}
	var ne *net.OpError
	if errors.As(err, &ne) {
		msg := ne.Err.Error()
		if strings.Contains(msg, "connection refused") {
			return "Connection refused"
		}
		if ne.Timeout() {
			return "connect ETIMEDOUT"
		}
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) {
			return "getaddrinfo ENOTFOUND " + dnsErr.Name
		}
		return msg
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "connect ETIMEDOUT"
	}
	return err.Error()
}

// Code is the server's error number of a SQL error, 0 for other errors.
func Code(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// quietLogger drops the driver's own log lines; errors reach callers as values.
type quietLogger struct{}

func (quietLogger) Print(...any) {}

func str(v any, def string) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return def
	}
	return fmt.Sprint(v)
}

func num(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		return f, err == nil
	}
	return 0, false
}
