package emailsend_test

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"context"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/emailsend"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// received is one message the test server accepted.
type received struct {
	from string
	rcpt []string
	data []byte
	tls  bool
}

// mailServer is a real SMTP server on 127.0.0.1 that takes AUTH PLAIN as user/secret.
type mailServer struct {
	addr string
	port int
	mu   sync.Mutex
	msgs []received
}

type session struct {
	srv  *mailServer
	conn *smtp.Conn
	cur  received
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }
func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != "user" || pass != "secret" {
			return smtp.ErrAuthFailed
		}
		return nil
	}), nil
}
func (s *session) Mail(from string, _ *smtp.MailOptions) error { s.cur.from = from; return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasPrefix(to, "nobody@") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	}
	s.cur.rcpt = append(s.cur.rcpt, to)
	return nil
}
func (s *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.cur.data = b
	_, s.cur.tls = s.conn.TLSConnectionState()
	s.srv.mu.Lock()
	s.srv.msgs = append(s.srv.msgs, s.cur)
	s.srv.mu.Unlock()
	return nil
}
func (s *session) Reset()        { s.cur = received{} }
func (s *session) Logout() error { return nil }

// startServer serves SMTP; with starttls it offers STARTTLS, with implicit it speaks TLS from
// the start.
func startServer(t *testing.T, starttls, implicit bool) *mailServer {
	t.Helper()
	ms := &mailServer{}
	be := smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{srv: ms, conn: c}, nil })
	s := smtp.NewServer(be)
	s.Domain = "mail.test"
	s.AllowInsecureAuth = true
	s.ReadTimeout, s.WriteTimeout = 10*time.Second, 10*time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	if starttls || implicit {
		s.TLSConfig = &tls.Config{Certificates: []tls.Certificate{testCert(t)}}
	}
	if implicit {
		ln = tls.NewListener(ln, s.TLSConfig)
	}
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	ms.addr = ln.Addr().String()
	ms.port = ln.Addr().(*net.TCPAddr).Port
	return ms
}

func (ms *mailServer) messages() []received {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]received(nil), ms.msgs...)
}

func testCert(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mail.test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func creds(data m) nodes.CredentialsFunc {
	return func(context.Context, nodes.CredentialRef) (map[string]any, error) { return data, nil }
}

func smtpCreds(port int, secure bool, extra m) m {
	c := m{"user": "user", "password": "secret", "host": "127.0.0.1", "port": float64(port), "secure": secure}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

func run(t *testing.T, typ nodes.Type, version float64, params m, cred m, items ...workflow.Item) ([][]workflow.Item, error) {
	t.Helper()
	if len(items) == 0 {
		items = nodetest.Items(m{})
	}
	return nodetest.Run(t, typ, nodetest.Node{
		Version: version, Parameters: params,
		Credentials:    m{"smtp": m{"id": "1", "name": "SMTP"}},
		CredentialData: creds(cred),
	}, items)
}

// leaf is one non-multipart part of a parsed message.
type leaf struct {
	contentType, disposition, fileName, cid string
	body                                    []byte
}

func parseMessage(t *testing.T, data []byte) (*mail.Message, string, []leaf) {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	require.NoError(t, err)
	var leaves []leaf
	var walk func(h map[string][]string, body io.Reader) string
	walk = func(h map[string][]string, body io.Reader) string {
		get := func(k string) string {
			if v := h[k]; len(v) > 0 {
				return v[0]
			}
			return ""
		}
		mt, params, err := mime.ParseMediaType(get("Content-Type"))
		require.NoError(t, err)
		if strings.HasPrefix(mt, "multipart/") {
			r := multipart.NewReader(body, params["boundary"])
			var subs []string
			for {
				p, err := r.NextRawPart()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				subs = append(subs, walk(p.Header, p))
			}
			return mt + "[" + strings.Join(subs, ",") + "]"
		}
		var rd io.Reader = body
		switch strings.ToLower(get("Content-Transfer-Encoding")) {
		case "base64":
			rd = base64.NewDecoder(base64.StdEncoding, body)
		case "quoted-printable":
			rd = quotedprintable.NewReader(body)
		}
		b, err := io.ReadAll(rd)
		require.NoError(t, err)
		l := leaf{contentType: mt, body: b, cid: get("Content-Id")}
		if d, dp, err := mime.ParseMediaType(get("Content-Disposition")); err == nil {
			l.disposition, l.fileName = d, dp["filename"]
		}
		leaves = append(leaves, l)
		return mt
	}
	shape := walk(msg.Header, msg.Body)
	return msg, shape, leaves
}

func fileItem(name, fileName string, content []byte) workflow.Item {
	return workflow.Item{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{name: nodes.NewBinary(content, fileName, "")}}
}

func TestSendV21HTMLWithAttachmentOverSTARTTLS(t *testing.T) {
	t.Parallel()
	srv := startServer(t, true, false)
	sheet := []byte("PK\x03\x04 not really a workbook")
	out, err := run(t, emailsend.TypeV2(), 2.1, m{
		"fromEmail": "Flow Mill <bot@example.com>", "toEmail": "ann@example.com, Bob <bob@example.com>",
		"subject": "Report für März", "emailFormat": "html", "html": "<p>See the sheet</p>",
		"options": m{"ccEmail": "cc@example.com", "bccEmail": "hidden@example.com", "replyTo": "reply@example.com",
			"attachments": "data", "allowUnauthorizedCerts": true},
	}, smtpCreds(srv.port, false, nil), fileItem("data", "report.xlsx", sheet))
	require.NoError(t, err)
	require.Len(t, out[0], 1)
	j := out[0][0].JSON
	require.Equal(t, []string{"accepted", "rejected", "ehlo", "envelopeTime", "messageTime", "messageSize", "response", "envelope", "messageId"}, j.Keys())
	require.Equal(t, []any{"ann@example.com", "bob@example.com", "cc@example.com", "hidden@example.com"}, j.Get("accepted"))
	require.Equal(t, []any{}, j.Get("rejected"))
	require.Contains(t, j.Get("ehlo"), "8BITMIME")
	require.True(t, strings.HasPrefix(j.Get("response").(string), "250 "), j.Get("response"))
	env := j.Get("envelope").(*workflow.Object)
	require.Equal(t, "bot@example.com", env.Get("from"))
	msgID := j.Get("messageId").(string)
	require.True(t, strings.HasSuffix(msgID, "@example.com>"), msgID)

	msgs := srv.messages()
	require.Len(t, msgs, 1)
	got := msgs[0]
	require.True(t, got.tls, "STARTTLS was used")
	require.Equal(t, "bot@example.com", got.from)
	require.Equal(t, []string{"ann@example.com", "bob@example.com", "cc@example.com", "hidden@example.com"}, got.rcpt)
	msg, shape, leaves := parseMessage(t, got.data)
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	require.NoError(t, err)
	require.Equal(t, "Report für März", subject)
	require.Equal(t, "Flow Mill <bot@example.com>", msg.Header.Get("From"))
	require.Equal(t, "ann@example.com, Bob <bob@example.com>", msg.Header.Get("To"))
	require.Equal(t, "cc@example.com", msg.Header.Get("Cc"))
	require.Empty(t, msg.Header.Get("Bcc"))
	require.Equal(t, "reply@example.com", msg.Header.Get("Reply-To"))
	require.Equal(t, msgID, msg.Header.Get("Message-Id"))
	// Version 2 gives every attachment a content ID, so next to HTML they are related parts.
	require.Equal(t, "multipart/related[text/html,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet]", shape)
	require.Contains(t, string(leaves[0].body), "<p>See the sheet</p>")
	require.Contains(t, string(leaves[0].body), "<em>This email was sent automatically with Flowmill</em>")
	require.Equal(t, "report.xlsx", leaves[1].fileName)
	require.Equal(t, "attachment", leaves[1].disposition)
	require.Equal(t, "<data>", leaves[1].cid)
	require.Equal(t, sheet, leaves[1].body)
}

func TestSendFormats(t *testing.T) {
	t.Parallel()
	srv := startServer(t, false, false)
	cases := []struct {
		name    string
		version float64
		params  m
		item    workflow.Item
		shape   string
		bodies  []string
	}{
		{"v1 text and html", 1, m{"text": "plain words", "html": "<b>bold</b>", "attachments": "missing"},
			fileItem("data", "a.txt", []byte("x")), "multipart/alternative[text/plain,text/html]", []string{"plain words", "<b>bold</b>"}},
		{"v1 attachment", 1, m{"text": "see file", "attachments": "data, other"},
			fileItem("data", "notes.csv", []byte("a,b\n1,2\n")), "multipart/mixed[text/plain,text/csv]", []string{"see file", "a,b\n1,2"}},
		{"v2 text no attribution", 2, m{"emailFormat": "text", "text": "hello"},
			nodetest.Items(m{})[0], "text/plain", []string{"hello"}},
		{"v2.1 text attribution", 2.1, m{"emailFormat": "text", "text": "hello"},
			nodetest.Items(m{})[0], "text/plain", []string{"hello\n\n---\nThis email was sent automatically with Flowmill"}},
		{"v2.1 both without attribution", 2.1, m{"emailFormat": "both", "text": "t", "html": "<i>h</i>", "options": m{"appendAttribution": false}},
			nodetest.Items(m{})[0], "multipart/alternative[text/plain,text/html]", []string{"t", "<i>h</i>"}},
		{"v2 defaults to text", 2, m{"text": "plain", "html": "<b>unused</b>"},
			nodetest.Items(m{})[0], "text/plain", []string{"plain"}},
		{"v2.1 defaults to html", 2.1, m{"text": "unused", "html": "<b>h</b>", "options": m{"appendAttribution": false}},
			nodetest.Items(m{})[0], "text/html", []string{"<b>h</b>"}},
		{"v2 text attachment goes mixed", 2, m{"emailFormat": "text", "text": "x", "options": m{"attachments": "data"}},
			fileItem("data", "pic.png", []byte("\x89PNG")), "multipart/mixed[text/plain,image/png]", []string{"x", "\x89PNG"}},
	}
	for _, c := range cases {
		params := m{"fromEmail": "bot@example.com", "toEmail": "ann@example.com", "subject": c.name}
		for k, v := range c.params {
			params[k] = v
		}
		typ := emailsend.TypeV2()
		if c.version == 1 {
			typ = emailsend.TypeV1()
		}
		_, err := run(t, typ, c.version, params, smtpCreds(srv.port, false, m{"user": "", "password": ""}), c.item)
		require.NoError(t, err, c.name)
		msgs := srv.messages()
		got := msgs[len(msgs)-1]
		msg, shape, leaves := parseMessage(t, got.data)
		require.Equal(t, c.name, msg.Header.Get("Subject"))
		require.Equal(t, c.shape, shape, c.name)
		for i, want := range c.bodies {
			// The single part of a message ends with the line break before the final dot.
			require.Equal(t, want, strings.TrimSuffix(strings.ReplaceAll(string(leaves[i].body), "\r\n", "\n"), "\n"), c.name)
		}
	}
}

func TestSendFailures(t *testing.T) {
	t.Parallel()
	srv := startServer(t, false, false)
	tlsSrv := startServer(t, false, true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closedPort := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	refused := "connect ECONNREFUSED 127.0.0.1:" + strconv.Itoa(closedPort)
	params := m{"fromEmail": "bot@example.com", "toEmail": "ann@example.com", "subject": "s", "emailFormat": "text", "text": "t"}

	_, err = run(t, emailsend.TypeV2(), 2.1, params, smtpCreds(srv.port, false, m{"password": "wrong"}))
	e := nodetest.NodeError(t, err)
	require.Equal(t, "Invalid login: 535 5.7.8 Authentication failed", e.Message)
	require.Equal(t, "NodeApiError", e.Name)

	_, err = run(t, emailsend.TypeV2(), 2.1, params, smtpCreds(closedPort, false, nil))
	e = nodetest.NodeError(t, err)
	require.Equal(t, "The service refused the connection - perhaps it is offline", e.Message)
	require.Equal(t, refused, e.Description)

	_, err = run(t, emailsend.TypeV1(), 1, params, smtpCreds(closedPort, false, nil))
	require.Equal(t, refused, nodetest.NodeError(t, err).Message)

	_, err = run(t, emailsend.TypeV2(), 2.1, m{"fromEmail": "a@b.c", "toEmail": "nobody@example.com", "emailFormat": "text"}, smtpCreds(srv.port, false, nil))
	require.Equal(t, "Can't send mail - all recipients were rejected: 550 5.1.1 No such user", nodetest.NodeError(t, err).Message)

	// A self-signed certificate fails unless Ignore SSL Issues is on.
	_, err = run(t, emailsend.TypeV2(), 2.1, params, smtpCreds(tlsSrv.port, true, nil))
	require.ErrorContains(t, err, "certificate")
	params["options"] = m{"allowUnauthorizedCerts": true}
	_, err = run(t, emailsend.TypeV2(), 2.1, params, smtpCreds(tlsSrv.port, true, nil))
	require.NoError(t, err)
	require.Len(t, tlsSrv.messages(), 1)
	require.True(t, tlsSrv.messages()[0].tls)

	_, err = run(t, emailsend.TypeV2(), 2.1, m{"operation": "sendAndWait", "fromEmail": "a@b.c", "toEmail": "d@e.f"}, smtpCreds(srv.port, false, nil))
	require.Equal(t, `The operation "sendAndWait" is not supported`, nodetest.NodeError(t, err).Message)

	// Continue on fail gives the error as the item.
	out, err := nodetest.Run(t, emailsend.TypeV2(), nodetest.Node{
		Version: 2.1, Parameters: params, ContinueOnFail: true,
		Credentials: m{"smtp": m{"id": "1", "name": "SMTP"}}, CredentialData: creds(smtpCreds(closedPort, false, nil)),
	}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": refused}}, nodetest.JSONs(out[0]))
}

func TestSendHonoursCancel(t *testing.T) {
	t.Parallel()
	// A server that accepts and never greets.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = c.Close() })
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err = nodetest.Run(t, emailsend.TypeV2(), nodetest.Node{
		Version: 2.1, Context: ctx, Parameters: m{"fromEmail": "a@b.c", "toEmail": "d@e.f"},
		Credentials: m{"smtp": m{"id": "1", "name": "SMTP"}}, CredentialData: creds(smtpCreds(ln.Addr().(*net.TCPAddr).Port, false, nil)),
	}, nodetest.Items(m{}))
	require.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
}
