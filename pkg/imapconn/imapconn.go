// Package imapconn opens logged-in IMAP connections through the egress policy, for the Email
// Trigger (IMAP) node and the imap credential's test, with n8n's messages for what fails.
package imapconn

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/flowmill/flowmill/pkg/egress"
)

// Timeout bounds connecting and logging in, as n8n's authTimeout (20s).
const Timeout = 20 * time.Second

// Account is the imap credential's data.
type Account struct {
	User, Password, Host string
	Port                 int
	// Secure connects with TLS (implicit, as on port 993); Insecure accepts any certificate.
	Secure, Insecure bool
}

// FromCredential reads the imap credential's data (port 993 and TLS when missing).
func FromCredential(c map[string]any) Account {
	a := Account{Port: 993, Secure: true}
	a.User, _ = c["user"].(string)
	a.Password, _ = c["password"].(string)
	host, _ := c["host"].(string)
	a.Host = strings.TrimSpace(host)
	switch p := c["port"].(type) {
	case float64:
		a.Port = int(p)
	case int:
		a.Port = p
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			a.Port = n
		}
	}
	if v, ok := c["secure"].(bool); ok {
		a.Secure = v
	}
	a.Insecure, _ = c["allowUnauthorizedCerts"].(bool)
	return a
}

// Login dials a through policy (nil: the built-in refusals only), logs in and returns the
// client, which closes when ctx ends. Failures carry n8n's messages: "connect ECONNREFUSED
// host:port", the server's text for a refused login, the policy's refusal.
func Login(ctx context.Context, policy *egress.Policy, a Account) (*imapclient.Client, error) {
	addr := net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
	dctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	conn, err := policy.DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, dialError(err, addr)
	}
	if a.Secure {
		tc := tls.Client(conn, &tls.Config{ServerName: a.Host, InsecureSkipVerify: a.Insecure}) //nolint:gosec // only when the credential asks
		if err := tc.HandshakeContext(dctx); err != nil {
			_ = conn.Close()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		conn = tc
	}
	c := imapclient.New(conn, nil)
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	go func() {
		<-c.Closed()
		stop()
	}()
	// A server that never answers the greeting or the login cannot hold the caller.
	timeout := context.AfterFunc(dctx, func() {
		if ctx.Err() == nil {
			_ = c.Close()
		}
	})
	defer timeout()
	if err := c.WaitGreeting(); err != nil {
		_ = c.Close()
		return nil, loginError(ctx, dctx, err)
	}
	if err := c.Login(a.User, a.Password).Wait(); err != nil {
		_ = c.Close()
		return nil, loginError(ctx, dctx, err)
	}
	return c, nil
}

func dialError(err error, addr string) error {
	if _, ok := egress.Refusal(err); ok {
		return err
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("connect ECONNREFUSED %s", addr)
	case errors.Is(err, context.DeadlineExceeded):
		return errors.New("Timed out while connecting to server")
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return fmt.Errorf("getaddrinfo ENOTFOUND %s", dns.Name)
	}
	return err
}

func loginError(ctx, dctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if dctx.Err() != nil {
		return errors.New("Timed out while authenticating with server")
	}
	return Message(err)
}

// Message is the text of a failed IMAP command: the server's own words when it answered.
func Message(err error) error {
	var ie *imap.Error
	if errors.As(err, &ie) && ie.Text != "" {
		return errors.New(ie.Text)
	}
	return err
}
