// Package mail sends the account e-mails (invitations and password resets) over SMTP.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"
)

// sendTimeout bounds one delivery, connection included.
const sendTimeout = 30 * time.Second

// ErrNotConfigured is returned by Send when no mail server is configured.
var ErrNotConfigured = errors.New("e-mail sending is not set up")

// Config says how to reach the mail server.
type Config struct {
	Host string
	// Port defaults to 465.
	Port int
	// User and Pass sign in with AUTH PLAIN; an empty User skips sign-in.
	User, Pass string
	// Sender is the From address ("Name <address>" or a bare address).
	Sender string
	// SSL uses TLS from the first byte; false upgrades with STARTTLS when the server offers it.
	SSL bool
	// RootCAs verifies the server's certificate; nil means the system roots.
	RootCAs *x509.CertPool
}

// Message is one e-mail to one recipient.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// Mailer delivers messages to the configured server.
type Mailer struct {
	cfg  Config
	from *mail.Address
}

// New checks cfg and returns a mailer; a Config without Host gives a mailer whose Send returns
// ErrNotConfigured.
func New(cfg Config) (*Mailer, error) {
	m := &Mailer{cfg: cfg}
	if cfg.Host == "" {
		return m, nil
	}
	if m.cfg.Port == 0 {
		m.cfg.Port = 465
	}
	from, err := mail.ParseAddress(cfg.Sender)
	if err != nil {
		return nil, fmt.Errorf("mail sender %q: %w", cfg.Sender, err)
	}
	m.from = from
	return m, nil
}

// Configured reports whether a mail server is set up.
func (m *Mailer) Configured() bool { return m.cfg.Host != "" }

// Send delivers msg. Errors name the step that failed (connect, sign in, recipient, …) but
// never carry the message body, which holds sign-in links.
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	if !m.Configured() {
		return ErrNotConfigured
	}
	to, err := mail.ParseAddress(msg.To)
	if err != nil {
		return fmt.Errorf("recipient %q: %w", msg.To, err)
	}
	body, err := m.compose(to, msg)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	c, err := m.dial(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := m.deliver(c, to.Address, body); err != nil {
		return err
	}
	return c.Quit()
}

func (m *Mailer) dial(ctx context.Context) (*smtp.Client, error) {
	addr := net.JoinHostPort(m.cfg.Host, strconv.Itoa(m.cfg.Port))
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect to mail server %s: %w", addr, err)
	}
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	tlsCfg := &tls.Config{ServerName: m.cfg.Host, RootCAs: m.cfg.RootCAs, MinVersion: tls.VersionTLS12}
	if m.cfg.SSL {
		tc := tls.Client(conn, tlsCfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, fmt.Errorf("TLS with mail server %s: %w", addr, err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, m.cfg.Host)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("greeting from mail server %s: %w", addr, err)
	}
	if !m.cfg.SSL {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(tlsCfg); err != nil {
				c.Close()
				return nil, fmt.Errorf("STARTTLS with mail server %s: %w", addr, err)
			}
		}
	}
	return c, nil
}

func (m *Mailer) deliver(c *smtp.Client, to string, body []byte) error {
	if m.cfg.User != "" {
		if err := c.Auth(smtp.PlainAuth("", m.cfg.User, m.cfg.Pass, m.cfg.Host)); err != nil {
			return fmt.Errorf("sign in to mail server as %s: %w", m.cfg.User, err)
		}
	}
	if err := c.Mail(m.from.Address); err != nil {
		return fmt.Errorf("mail server refused sender %s: %w", m.from.Address, err)
	}
	if err := c.Rcpt(to); err != nil {
		return fmt.Errorf("mail server refused recipient %s: %w", to, err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("mail server refused data: %w", err)
	}
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("send message: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mail server refused message: %w", err)
	}
	return nil
}

// compose renders msg as a MIME message with a plain-text and an HTML part.
func (m *Mailer) compose(to *mail.Address, msg Message) ([]byte, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	_, domain, _ := strings.Cut(m.from.Address, "@")
	h := []string{
		"From: " + m.from.String(),
		"To: " + to.String(),
		"Subject: " + mime.QEncoding.Encode("utf-8", msg.Subject),
		"Date: " + time.Now().Format(time.RFC1123Z),
		"Message-ID: <" + hex.EncodeToString(id) + "@" + domain + ">",
		"MIME-Version: 1.0",
		"Content-Type: multipart/alternative; boundary=" + mw.Boundary(),
	}
	buf.WriteString(strings.Join(h, "\r\n") + "\r\n\r\n")
	for _, part := range []struct{ typ, body string }{{"text/plain", msg.Text}, {"text/html", msg.HTML}} {
		if part.body == "" {
			continue
		}
		pw, err := mw.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {part.typ + "; charset=utf-8"},
			"Content-Transfer-Encoding": {"quoted-printable"},
		})
		if err != nil {
			return nil, err
		}
		qp := quotedprintable.NewWriter(pw)
		if _, err := qp.Write([]byte(part.body)); err != nil {
			return nil, err
		}
		if err := qp.Close(); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
