package emailreadimap_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"net"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/emailreadimap"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

// mailServer is a real IMAP server on 127.0.0.1 with one user (alice / secret) and an INBOX.
type mailServer struct {
	user *imapmemserver.User
	addr string
	port float64
}

func startServer(t *testing.T, secure bool) *mailServer {
	t.Helper()
	mem := imapmemserver.New()
	u := imapmemserver.NewUser("alice", "secret")
	require.NoError(t, u.Create("INBOX", nil))
	mem.AddUser(u)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		InsecureAuth: true,
		Logger:       discard{},
	})
	var ln net.Listener
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	if secure {
		// A self-signed certificate: the one httptest serves with.
		ts := httptest.NewUnstartedServer(nil)
		ts.StartTLS()
		cert := ts.TLS.Certificates[0]
		ts.Close()
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}})
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	p, _ := strconv.Atoi(port)
	return &mailServer{user: u, addr: ln.Addr().String(), port: float64(p)}
}

type discard struct{}

func (discard) Printf(string, ...any) {}

func (s *mailServer) deliver(t *testing.T, msg string, flags ...imap.Flag) {
	t.Helper()
	msg = strings.ReplaceAll(msg, "\n", "\r\n")
	_, err := s.user.Append("INBOX", bytes.NewReader([]byte(msg)), &imap.AppendOptions{Flags: flags, Time: time.Now()})
	require.NoError(t, err)
}

func (s *mailServer) unseen(t *testing.T) uint32 {
	t.Helper()
	st, err := s.user.Status("INBOX", &imap.StatusOptions{NumUnseen: true})
	require.NoError(t, err)
	return *st.NumUnseen
}

func (s *mailServer) cred(extra m) m {
	c := m{"user": "alice", "password": "secret", "host": "127.0.0.1", "port": s.port, "secure": false}
	for k, v := range extra {
		c[k] = v
	}
	return c
}

// poller runs the node as the poll of an active workflow: the same static data every time.
type poller struct {
	typ     nodes.Type
	version float64
	params  m
	cred    m
	static  map[string]any
}

func (p *poller) poll(t *testing.T) ([]workflow.Item, error) {
	t.Helper()
	params, err := workflow.ResolveParameters(p.typ.Description.Properties, p.params, p.version)
	require.NoError(t, err)
	node := &workflow.Node{Name: "Email Trigger (IMAP)", Type: p.typ.Description.Name, TypeVersion: p.version,
		Parameters: params, Credentials: map[string]any{"imap": m{"id": "1", "name": "mail"}}}
	if p.static == nil {
		p.static = map[string]any{}
	}
	ex := nodes.NewExecution(nodes.ExecutionConfig{Node: node, Type: &p.typ, Mode: workflow.ModeTrigger,
		Evaluator: nodetest.Evaluator(t), StaticData: p.static,
		Credentials: func(context.Context, nodes.CredentialRef) (map[string]any, error) { return p.cred, nil },
		Expr:        expr.Context{Execution: expr.ExecutionInfo{Mode: workflow.ModeTrigger}}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := p.typ.Node.Execute(ctx, ex)
	if err != nil || len(out) == 0 {
		return nil, err
	}
	return out[0], nil
}

const plainMail = `From: Bob Sender <bob@example.com>
To: alice@example.com
Subject: =?UTF-8?Q?Caf=C3=A9_menu?=
Date: Tue, 02 Jan 2024 10:00:00 +0000
Message-ID: <one@example.com>
X-Custom: yes
Content-Type: text/plain; charset=utf-8

Hello Alice
`

const multipartMail = `From: carol@example.com
To: Alice <alice@example.com>
Subject: Report
Date: Wed, 03 Jan 2024 11:30:00 +0000
Message-ID: <two@example.com>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary=XYZ

--XYZ
Content-Type: multipart/alternative; boundary=ALT

--ALT
Content-Type: text/plain; charset=utf-8

See attached.
--ALT
Content-Type: text/html; charset=utf-8

<p>See attached.</p>
--ALT--
--XYZ
Content-Type: text/csv; name=report.csv
Content-Disposition: attachment; filename=report.csv
Content-Transfer-Encoding: base64

YSxiCjEsMgo=
--XYZ--
`

func TestSimpleFormatMarksReadAndPassesEachMailOnce(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, plainMail)
	s.deliver(t, "From: x@example.com\nSubject: old\n\nalready read\n", imap.FlagSeen)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{}, cred: s.cred(nil)}

	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	j := items[0].JSON
	require.Equal(t, []string{"textHtml", "textPlain", "metadata", "attributes", "from", "to", "subject", "date"}, j.Keys())
	require.Equal(t, "", j.Get("textHtml"))
	require.Equal(t, "Hello Alice\r\n", j.Get("textPlain"))
	require.Equal(t, "Bob Sender <bob@example.com>", j.Get("from"))
	require.Equal(t, "Café menu", j.Get("subject"))
	require.Equal(t, "Tue, 02 Jan 2024 10:00:00 +0000", j.Get("date"))
	require.Equal(t, m{"message-id": "<one@example.com>", "x-custom": "yes", "content-type": "text/plain; charset=utf-8"},
		j.Get("metadata").(*workflow.Object).ToMap())
	require.Equal(t, m{"uid": 1.0}, j.Get("attributes").(*workflow.Object).ToMap())
	require.Nil(t, items[0].Binary)
	require.Zero(t, s.unseen(t), "marked as read")
	require.Equal(t, 1.0, p.static["lastMessageUid"])

	items, err = p.poll(t)
	require.NoError(t, err)
	require.Empty(t, items, "nothing new")

	s.deliver(t, multipartMail)
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, "Report", items[0].JSON.Get("subject"))
	require.Equal(t, "See attached.", items[0].JSON.Get("textPlain"))
	require.Equal(t, "<p>See attached.</p>", items[0].JSON.Get("textHtml"))
	require.Nil(t, items[0].Binary, "attachments only when asked")
}

func TestNothingLeavesMailUnreadButPassesItOnOnce(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, plainMail)
	p := &poller{typ: emailreadimap.TypeV1(), version: 1, params: m{"postProcessAction": "nothing"}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, uint32(1), s.unseen(t))
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Empty(t, items)
}

// Version 2 keeps n8n's behaviour of fetching every matching mail when new mail arrives.
func TestVersion2FetchesAllMatchingWhenNewMailArrives(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, plainMail)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2, params: m{"postProcessAction": "nothing"}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Empty(t, items, "no new mail: no run")
	s.deliver(t, multipartMail)
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 2, "the unread mail comes again with the new one")
}

func TestAttachmentsToBinary(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, multipartMail)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1,
		params: m{"downloadAttachments": true, "dataPropertyAttachmentsPrefixName": "file_"}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	b, ok := items[0].Binary["file_0"]
	require.True(t, ok, "binary keys %v", items[0].Binary)
	require.Equal(t, "report.csv", b.FileName)
	require.Equal(t, "csv", b.FileExtension)
	data, err := nodes.BinaryBytes(b)
	require.NoError(t, err)
	require.Equal(t, "a,b\n1,2\n", string(data))
}

func TestResolvedFormat(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, multipartMail)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"format": "resolved"}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	j := items[0].JSON
	require.Equal(t, []string{"headers", "html", "text", "textAsHtml", "subject", "date", "to", "from", "messageId", "attributes"}, j.Keys())
	require.Equal(t, "Subject: Report", j.Get("headers").(*workflow.Object).Get("subject"))
	require.Equal(t, "<p>See attached.</p>", j.Get("html"))
	require.Equal(t, "See attached.", j.Get("text"))
	require.Equal(t, "<p>See attached.</p>", j.Get("textAsHtml"))
	require.Equal(t, "2024-01-03T11:30:00.000Z", j.Get("date"))
	require.Equal(t, "<two@example.com>", j.Get("messageId"))
	to := j.Get("to").(*workflow.Object)
	require.Equal(t, "Alice <alice@example.com>", to.Get("text"))
	require.Equal(t, []any{m{"address": "alice@example.com", "name": "Alice"}}, workflow.DeepCopy(to.ToMap()["value"]))
	require.Contains(t, items[0].Binary, "attachment_0")
	require.Equal(t, "report.csv", items[0].Binary["attachment_0"].FileName)
}

func TestRawFormat(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, plainMail)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"format": "raw"}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, m{"raw": "Hello Alice\r\n"}, items[0].JSON.ToMap())
}

func TestCustomSearchCriteria(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	s.deliver(t, plainMail, imap.FlagSeen)
	s.deliver(t, multipartMail, imap.FlagSeen)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1,
		params: m{"options": m{"customEmailConfig": `["SEEN", ["FROM", "carol@example.com"]]`}}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, "Report", items[0].JSON.Get("subject"))

	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"options": m{"customEmailConfig": `[["OR", ["FROM", "bob@example.com"], ["SUBJECT", "Report"]], "!UNSEEN", ["SINCE", "2000-01-01"], ["LARGER", 10]]`}}, cred: s.cred(nil)}
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 2)
	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"options": m{"customEmailConfig": `[["HEADER", "Message-ID", "<two@example.com>"], ["UID", "1:*"]]`}}, cred: s.cred(nil)}
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, "Report", items[0].JSON.Get("subject"))

	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"options": m{"customEmailConfig": `["UNSEEN"`}}, cred: s.cred(nil)}
	_, err = p.poll(t)
	require.EqualError(t, err, "Custom email config is not valid JSON.")
	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"options": m{"customEmailConfig": `["BOGUS"]`}}, cred: s.cred(nil)}
	_, err = p.poll(t)
	require.EqualError(t, err, "Unexpected search option: BOGUS")
}

func TestTLSAndCertificates(t *testing.T) {
	t.Parallel()
	s := startServer(t, true)
	s.deliver(t, plainMail)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{}, cred: s.cred(m{"secure": true})}
	_, err := p.poll(t)
	require.ErrorContains(t, err, "certificate")
	p.cred = s.cred(m{"secure": true, "allowUnauthorizedCerts": true})
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)

	// Version 1 decides by its own option.
	v1 := &poller{typ: emailreadimap.TypeV1(), version: 1, params: m{"options": m{"allowUnauthorizedCerts": true}},
		cred: s.cred(m{"secure": true})}
	_, err = v1.poll(t)
	require.NoError(t, err)
}

func TestConnectionErrors(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{}, cred: s.cred(m{"password": "wrong"})}
	_, err := p.poll(t)
	ne := nodetest.NodeError(t, err)
	require.Contains(t, ne.Message, "uthentication failed")

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	_, port, _ := net.SplitHostPort(addr)
	pn, _ := strconv.Atoi(port)
	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{}, cred: s.cred(m{"port": float64(pn)})}
	_, err = p.poll(t)
	require.EqualError(t, err, "connect ECONNREFUSED "+addr)

	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"mailbox": "Nope"}, cred: s.cred(nil)}
	_, err = p.poll(t)
	require.Error(t, err)

	// The egress policy's built-in refusals hold for mail servers too.
	p = &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{}, cred: s.cred(m{"host": "169.254.169.254"})}
	_, err = p.poll(t)
	require.ErrorContains(t, err, "is not allowed")
}

func TestBatchLimitAndNewUIDValidity(t *testing.T) {
	t.Parallel()
	s := startServer(t, false)
	for range 105 {
		s.deliver(t, plainMail)
	}
	p := &poller{typ: emailreadimap.TypeV2(), version: 2.1, params: m{"format": "raw"}, cred: s.cred(nil)}
	items, err := p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 100, "one poll passes on at most 100 mails")
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 5, "the rest come with the next poll")

	// A mailbox created anew numbers its mails from 1 again under a new UIDVALIDITY.
	require.NoError(t, s.user.Delete("INBOX"))
	require.NoError(t, s.user.Create("INBOX", nil))
	s.deliver(t, plainMail)
	items, err = p.poll(t)
	require.NoError(t, err)
	require.Len(t, items, 1)
	require.Equal(t, 1.0, p.static["lastMessageUid"])
}
