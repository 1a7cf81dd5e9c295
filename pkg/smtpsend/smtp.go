// Package smtpsend speaks SMTP as the mail library n8n uses (nodemailer) does, for the Send Email
// node and the smtp credential's test: implicit TLS or STARTTLS, AUTH PLAIN or LOGIN, and its
// wording of failures. Every connection goes through the egress policy.
package smtpsend

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Server is where and how a message is sent: the smtp credential and the node's options.
type Server struct {
	Host            string
	Port            int
	Secure          bool // TLS from the first byte (port 465)
	DisableStartTLS bool
	HostName        string // the EHLO name; empty: this machine's, as nodemailer picks it
	User, Password  string
	Insecure        bool // accept any certificate
}

// Timeouts of one delivery, nodemailer's defaults: connecting, the greeting, and each later
// command.
const (
	connectTimeout  = 2 * time.Minute
	greetingTimeout = 30 * time.Second
	commandTimeout  = 10 * time.Minute
)

// Info is what the server said about one delivery, as nodemailer reports it.
type Info struct {
	Accepted, Rejected []string
	EHLO               []string
	EnvelopeTime       int64 // milliseconds
	MessageTime        int64 // milliseconds
	MessageSize        int64
	Response           string
}

// Error is a failed delivery step, worded as nodemailer words it; code is its error code
// (ECONNREFUSED, EAUTH, EENVELOPE, ...).
type Error struct {
	Code string
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// conn is one SMTP session.
type conn struct {
	c    net.Conn
	r    *bufio.Reader
	w    *bufio.Writer
	ctx  context.Context
	ehlo []string
	ext  map[string]string
	stop func() bool
}

// Deliver sends data to the recipients over one session: connect (TLS when secure), EHLO,
// STARTTLS when offered and not disabled, AUTH when a user or password is set, then MAIL,
// RCPT and DATA. Every address dialed goes through the egress policy.
func Deliver(ctx context.Context, policy *egress.Policy, s Server, from string, to []string, data []byte) (*Info, error) {
	c, err := open(ctx, policy, s)
	if err != nil {
		return nil, err
	}
	defer c.close()
	info := &Info{EHLO: c.ehlo, Accepted: []string{}, Rejected: []string{}}
	envelopeStart := time.Now()
	if code, text, err := c.cmd("MAIL FROM:<" + from + ">"); err != nil {
		return nil, c.fail(err)
	} else if code/100 != 2 {
		return nil, &Error{Code: "EENVELOPE", Msg: "Mail command failed: " + text}
	}
	if len(to) == 0 {
		return nil, &Error{Code: "EENVELOPE", Msg: "No recipients defined"}
	}
	var lastRejection string
	for _, rcpt := range to {
		code, text, err := c.cmd("RCPT TO:<" + rcpt + ">")
		if err != nil {
			return nil, c.fail(err)
		}
		if code/100 == 2 {
			info.Accepted = append(info.Accepted, rcpt)
		} else {
			info.Rejected = append(info.Rejected, rcpt)
			lastRejection = text
		}
	}
	if len(info.Accepted) == 0 {
		return nil, &Error{Code: "EENVELOPE", Msg: "Can't send mail - all recipients were rejected: " + lastRejection}
	}
	if code, text, err := c.cmd("DATA"); err != nil {
		return nil, c.fail(err)
	} else if code != 354 {
		return nil, &Error{Code: "EENVELOPE", Msg: "Data command failed: " + text}
	}
	messageStart := time.Now()
	info.EnvelopeTime = messageStart.Sub(envelopeStart).Milliseconds()
	n, err := c.writeData(data)
	if err != nil {
		return nil, c.fail(err)
	}
	code, text, err := c.read()
	if err != nil {
		return nil, c.fail(err)
	}
	if code/100 != 2 {
		return nil, &Error{Code: "EMESSAGE", Msg: "Message failed: " + text}
	}
	info.MessageTime = time.Since(messageStart).Milliseconds()
	info.MessageSize = n
	info.Response = text
	_, _, _ = c.cmd("QUIT")
	return info, nil
}

// Verify connects and logs in as a delivery would, then quits: the smtp credential's test.
func Verify(ctx context.Context, policy *egress.Policy, s Server) error {
	c, err := open(ctx, policy, s)
	if err != nil {
		return err
	}
	defer c.close()
	_, _, _ = c.cmd("QUIT")
	return nil
}

// open starts a session up to the login: connect (TLS when secure), EHLO, STARTTLS when offered
// and not disabled, AUTH when a user or password is set.
func open(ctx context.Context, policy *egress.Policy, s Server) (*conn, error) {
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	raw, err := policy.Dialer(connectTimeout).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, dialError(err, s)
	}
	c := &conn{c: raw, ctx: ctx}
	c.stop = context.AfterFunc(ctx, func() { _ = raw.SetDeadline(time.Now()) })
	ok := false
	defer func() {
		if !ok {
			c.close()
		}
	}()
	if s.Secure {
		tc := tls.Client(raw, tlsConfig(s))
		_ = tc.SetDeadline(time.Now().Add(greetingTimeout))
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, &Error{Code: "ESOCKET", Msg: err.Error()}
		}
		c.c = tc
	}
	c.reset()
	_ = c.c.SetDeadline(time.Now().Add(greetingTimeout))
	code, text, err := c.read()
	if err != nil {
		return nil, c.fail(err)
	}
	if code != 220 {
		return nil, &Error{Code: "EPROTOCOL", Msg: "Invalid greeting. response=" + text + ": " + text}
	}
	if err := c.hello(s); err != nil {
		return nil, err
	}
	if !s.Secure && !s.DisableStartTLS {
		if _, ok := c.ext["STARTTLS"]; ok {
			if code, text, err := c.cmd("STARTTLS"); err != nil {
				return nil, c.fail(err)
			} else if code != 220 {
				return nil, &Error{Code: "ETLS", Msg: "Error upgrading connection with STARTTLS: " + text}
			}
			tc := tls.Client(c.c, tlsConfig(s))
			if err := tc.HandshakeContext(ctx); err != nil {
				return nil, &Error{Code: "ETLS", Msg: err.Error()}
			}
			c.c = tc
			c.reset()
			if err := c.hello(s); err != nil {
				return nil, err
			}
		}
	}
	if s.User != "" || s.Password != "" {
		if err := c.auth(s); err != nil {
			return nil, err
		}
	}
	ok = true
	return c, nil
}

func (c *conn) close() {
	c.stop()
	_ = c.c.Close()
}

func tlsConfig(s Server) *tls.Config {
	return &tls.Config{ServerName: s.Host, InsecureSkipVerify: s.Insecure} //nolint:gosec // only when the node asks
}

func (c *conn) reset() {
	c.r = bufio.NewReader(c.c)
	c.w = bufio.NewWriter(c.c)
}

// hello greets with EHLO (HELO when the server does not know EHLO) and records the extensions.
func (c *conn) hello(s Server) error {
	name := s.HostName
	if name == "" {
		name = clientName()
	}
	code, text, err := c.cmd("EHLO " + name)
	if err != nil {
		return c.fail(err)
	}
	if code/100 != 2 {
		code, text, err = c.cmd("HELO " + name)
		if err != nil {
			return c.fail(err)
		}
		if code/100 != 2 {
			return &Error{Code: "EPROTOCOL", Msg: "Invalid response for EHLO/HELO: " + text}
		}
		c.ehlo, c.ext = []string{}, map[string]string{}
		return nil
	}
	lines := strings.Split(text, "\n")
	c.ehlo = []string{}
	c.ext = map[string]string{}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(replyPrefix.ReplaceAllString(l, ""))
		c.ehlo = append(c.ehlo, l)
		key, param, _ := strings.Cut(l, " ")
		if k, p, ok := strings.Cut(key, "="); ok && strings.EqualFold(k, "AUTH") {
			key, param = k, p+" "+param
		}
		key = strings.ToUpper(key)
		c.ext[key] = strings.TrimSpace(c.ext[key] + " " + param)
	}
	return nil
}

var replyPrefix = regexp.MustCompile(`^\d{3}[ -]`)

// clientName is the EHLO name nodemailer uses by default: the host name when it is fully
// qualified, else the loopback address literal.
func clientName() string {
	h, _ := os.Hostname()
	if !strings.Contains(h, ".") {
		return "[127.0.0.1]"
	}
	if net.ParseIP(h) != nil {
		return "[" + h + "]"
	}
	return h
}

// auth logs in with PLAIN, or LOGIN when the server offers only that.
func (c *conn) auth(s Server) error {
	methods := strings.Fields(strings.ToUpper(c.ext["AUTH"]))
	method := "PLAIN"
	if !contains(methods, "PLAIN") && contains(methods, "LOGIN") {
		method = "LOGIN"
	}
	invalid := func(text string) error { return &Error{Code: "EAUTH", Msg: "Invalid login: " + text} }
	if method == "PLAIN" {
		token := base64.StdEncoding.EncodeToString([]byte("\x00" + s.User + "\x00" + s.Password))
		code, text, err := c.cmd("AUTH PLAIN " + token)
		if err != nil {
			return c.fail(err)
		}
		if code != 235 {
			return invalid(text)
		}
		return nil
	}
	code, text, err := c.cmd("AUTH LOGIN")
	if err != nil {
		return c.fail(err)
	}
	for _, v := range []string{s.User, s.Password} {
		if code != 334 {
			return invalid(text)
		}
		if code, text, err = c.cmd(base64.StdEncoding.EncodeToString([]byte(v))); err != nil {
			return c.fail(err)
		}
	}
	if code != 235 {
		return invalid(text)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// cmd sends one command line and reads the reply.
func (c *conn) cmd(line string) (int, string, error) {
	_ = c.c.SetDeadline(time.Now().Add(commandTimeout))
	if _, err := c.w.WriteString(line + "\r\n"); err != nil {
		return 0, "", err
	}
	if err := c.w.Flush(); err != nil {
		return 0, "", err
	}
	return c.read()
}

// maxReply bounds one reply, so a hostile server cannot grow it without end.
const maxReply = 64 << 10

// read reads one reply, joining the lines of a multi-line reply with "\n".
func (c *conn) read() (int, string, error) {
	var lines []string
	size := 0
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			return 0, "", err
		}
		size += len(line)
		if size > maxReply {
			return 0, "", errors.New("reply too long")
		}
		line = strings.TrimRight(line, "\r\n")
		lines = append(lines, line)
		if len(line) < 4 || line[3] != '-' {
			code, _ := strconv.Atoi(line[:min(3, len(line))])
			return code, strings.Join(lines, "\n"), nil
		}
	}
}

// writeData writes the message with dot-stuffing and the final dot; it returns the bytes of
// the message as sent.
func (c *conn) writeData(data []byte) (int64, error) {
	_ = c.c.SetDeadline(time.Now().Add(commandTimeout))
	var n int64
	atLineStart := true
	for _, b := range data {
		if atLineStart && b == '.' {
			if err := c.w.WriteByte('.'); err != nil {
				return 0, err
			}
			n++
		}
		if err := c.w.WriteByte(b); err != nil {
			return 0, err
		}
		n++
		atLineStart = b == '\n'
	}
	end := "\r\n.\r\n"
	if atLineStart {
		end = ".\r\n"
	}
	if _, err := c.w.WriteString(end); err != nil {
		return 0, err
	}
	return n, c.w.Flush()
}

// fail words a broken session: cancellation as itself, timeouts and closed connections as
// nodemailer does.
func (c *conn) fail(err error) error {
	if c.ctx.Err() != nil {
		return c.ctx.Err()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{Code: "ETIMEDOUT", Msg: "Timeout"}
	}
	return &Error{Code: "ECONNECTION", Msg: "Connection closed unexpectedly"}
}

// dialError words a failed connection as Node.js does (connect ECONNREFUSED 127.0.0.1:25);
// an address the egress policy refuses keeps its own message.
func dialError(err error, s Server) error {
	if re, ok := egress.Refusal(err); ok {
		return re
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{Code: "EDNS", Msg: "getaddrinfo ENOTFOUND " + s.Host}
	}
	var opErr *net.OpError
	addr := net.JoinHostPort(s.Host, strconv.Itoa(s.Port))
	if errors.As(err, &opErr) && opErr.Addr != nil {
		addr = opErr.Addr.String()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{Code: "ETIMEDOUT", Msg: "Connection timeout"}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if strings.Contains(err.Error(), "connection refused") {
		return &Error{Code: "ESOCKET", Msg: "connect ECONNREFUSED " + addr}
	}
	return &Error{Code: "ESOCKET", Msg: err.Error()}
}

// ServerOf reads the data of an smtp credential; a port of 0 or none is 465, SSL/TLS is on
// unless set off, and Disable STARTTLS counts only with SSL/TLS off.
func ServerOf(c map[string]any) Server {
	port := 465
	if n, ok := workflow.Number(c["port"]); ok && n > 0 {
		port = int(n)
	}
	secure := true
	if v, ok := c["secure"].(bool); ok {
		secure = v
	}
	s := Server{
		Host: str(c["host"]), Port: port, Secure: secure, HostName: str(c["hostName"]),
		User: str(c["user"]), Password: str(c["password"]),
	}
	if !secure {
		s.DisableStartTLS, _ = c["disableStartTls"].(bool)
	}
	return s
}

// str is a credential value as text; empty when missing or null.
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
