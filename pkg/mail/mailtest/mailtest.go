// Package mailtest runs an in-process SMTP server for tests: it accepts every message (with or
// without TLS and AUTH PLAIN) and hands it over on a channel.
package mailtest

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Message is one delivered mail.
type Message struct {
	From, To string
	// Auth is "user:password" when the client signed in, else empty.
	Auth    string
	Subject string
	// Text is the decoded text/plain part.
	Text string
	// HTML is the decoded text/html part.
	HTML string
	Raw  string
}

var linkPattern = regexp.MustCompile(`https?://[^\s"<>]+`)

// Links returns the URLs in the text part, in order.
func (m Message) Links() []string { return linkPattern.FindAllString(m.Text, -1) }

// Server is a running test SMTP server.
type Server struct {
	Host string
	Port int
	// Messages receives every delivered mail.
	Messages chan Message
	// RootCAs trusts the server's certificate (TLS servers only).
	RootCAs *x509.CertPool
	ln      net.Listener
	tlsCfg  *tls.Config
	wg      sync.WaitGroup
}

// Start runs a plain-text server (no STARTTLS) until the test ends.
func Start(t testing.TB) *Server { return start(t, false) }

// StartTLS runs a server that speaks TLS from the first byte, with a self-signed certificate
// for 127.0.0.1 that RootCAs trusts.
func StartTLS(t testing.TB) *Server { return start(t, true) }

func start(t testing.TB, useTLS bool) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port, Messages: make(chan Message, 16), ln: ln}
	if useTLS {
		s.tlsCfg, s.RootCAs = selfSigned(t)
	}
	s.wg.Add(1)
	go s.accept()
	t.Cleanup(func() {
		ln.Close()
		s.wg.Wait()
	})
	return s
}

// Next waits up to 10 s for the next mail.
func (s *Server) Next(t testing.TB) Message {
	t.Helper()
	select {
	case m := <-s.Messages:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no mail arrived within 10s")
		return Message{}
	}
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		if s.tlsCfg != nil {
			conn = tls.Server(conn, s.tlsCfg)
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
			s.session(conn)
		}()
	}
}

func (s *Server) session(conn net.Conn) {
	r := bufio.NewReader(conn)
	reply := func(line string) { _, _ = io.WriteString(conn, line+"\r\n") }
	reply("220 mailtest ready")
	var m Message
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.TrimRight(line, "\r\n")
		verb := strings.ToUpper(strings.SplitN(cmd, " ", 2)[0])
		switch verb {
		case "EHLO", "HELO":
			reply("250-mailtest")
			reply("250 AUTH PLAIN")
		case "AUTH":
			parts := strings.Fields(cmd)
			if len(parts) < 3 || strings.ToUpper(parts[1]) != "PLAIN" {
				reply("504 only AUTH PLAIN with an initial response")
				continue
			}
			raw, err := base64.StdEncoding.DecodeString(parts[2])
			fields := strings.Split(string(raw), "\x00")
			if err != nil || len(fields) != 3 {
				reply("501 bad AUTH PLAIN response")
				continue
			}
			m.Auth = fields[1] + ":" + fields[2]
			reply("235 signed in")
		case "MAIL":
			m.From = addressOf(cmd)
			reply("250 ok")
		case "RCPT":
			m.To = addressOf(cmd)
			reply("250 ok")
		case "DATA":
			reply("354 go ahead")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			m.Raw = data.String()
			decode(&m)
			s.Messages <- m
			m = Message{Auth: m.Auth}
			reply("250 queued")
		case "RSET", "NOOP":
			reply("250 ok")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

func addressOf(cmd string) string {
	if i, j := strings.Index(cmd, "<"), strings.LastIndex(cmd, ">"); i >= 0 && j > i {
		return cmd[i+1 : j]
	}
	return ""
}

// decode fills Subject, Text and HTML from the raw message.
func decode(m *Message) {
	msg, err := mail.ReadMessage(strings.NewReader(m.Raw))
	if err != nil {
		return
	}
	m.Subject, _ = new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextRawPart()
		if err != nil {
			return
		}
		b, _ := io.ReadAll(quotedprintable.NewReader(p))
		switch {
		case strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain"):
			m.Text = string(b)
		case strings.HasPrefix(p.Header.Get("Content-Type"), "text/html"):
			m.HTML = string(b)
		}
	}
}

func selfSigned(t testing.TB) (*tls.Config, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}
