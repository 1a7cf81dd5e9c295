// Package emailreadimap is the Email Trigger (IMAP) node (versions 1, 2 and 2.1). n8n keeps an
// IMAP connection open and reacts to new mail; here the node is a poll trigger the scheduler
// runs every minute (one replica per tick, see pkg/trigger): each poll logs in, searches the
// mailbox with the node's search criteria past the highest UID it has passed on (kept in the
// node's static data with the mailbox's UIDVALIDITY), turns each new mail into one item, marks
// the mails as read when asked, and logs out.
package emailreadimap

import (
	"context"
	"crypto/tls"
	_ "embed"
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
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionV1 []byte

//go:embed v2.json
var descriptionV2 []byte

// TypeV1 returns version 1 for registration.
func TypeV1() nodes.Type { return nodes.Define(descriptionV1, nodes.KindPoll, execute) }

// TypeV2 returns versions 2 and 2.1 for registration.
func TypeV2() nodes.Type { return nodes.Define(descriptionV2, nodes.KindPoll, execute) }

// batchLimit bounds the mails one poll passes on; the rest come with the next polls, so a
// mailbox full of old unread mail cannot make one huge execution.
const batchLimit = 100

// connectTimeout bounds connecting and logging in, as n8n's authTimeout (20s).
const connectTimeout = 20 * time.Second

// settings are the node's parameters for one poll.
type settings struct {
	mailbox, action, format, prefix string
	attachments                     bool
	criteria                        *imap.SearchCriteria
	// track passes each mail on once (the UID watermark); false (v2, or Fetch Only New Emails
	// off) fetches every matching mail each time new mail has arrived, as n8n does.
	track bool
	// sinceToday limits the first poll to today's mail (v2.1 fetches from its activation on).
	sinceToday bool
}

func readSettings(ex *nodes.Execution) (*settings, bool, error) {
	s := &settings{}
	var err error
	if s.mailbox, err = ex.ParamString("mailbox", 0); err != nil {
		return nil, false, err
	}
	if s.action, err = ex.ParamString("postProcessAction", 0); err != nil {
		return nil, false, err
	}
	if s.format, err = ex.ParamString("format", 0); err != nil {
		return nil, false, err
	}
	if s.format == "simple" {
		if s.attachments, err = ex.ParamBool("downloadAttachments", 0); err != nil {
			return nil, false, err
		}
	}
	if s.format == "resolved" || s.attachments {
		if s.prefix, err = ex.ParamString("dataPropertyAttachmentsPrefixName", 0); err != nil {
			return nil, false, err
		}
	}
	opts, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, false, err
	}
	raw := `["UNSEEN"]`
	if v, ok := opts["customEmailConfig"]; ok {
		raw = fmt.Sprint(v)
	}
	if s.criteria, err = parseCriteria(raw); err != nil {
		return nil, false, err
	}
	v := ex.TypeVersion()
	track, _ := opts["trackLastMessageId"].(bool)
	if _, set := opts["trackLastMessageId"]; !set {
		track = true
	}
	s.track = v != 2 && track
	s.sinceToday = v >= 2.1 && s.track
	insecure, _ := opts["allowUnauthorizedCerts"].(bool)
	return s, insecure, nil
}

// account is the imap credential.
type account struct {
	user, password, host string
	port                 int
	secure, insecure     bool
}

func readAccount(ctx context.Context, ex *nodes.Execution, nodeInsecure bool) (*account, error) {
	c, err := ex.Credentials(ctx, "imap")
	if err != nil {
		return nil, err
	}
	a := &account{port: 993, secure: true}
	a.user, _ = c["user"].(string)
	a.password, _ = c["password"].(string)
	host, _ := c["host"].(string)
	a.host = strings.TrimSpace(host)
	switch p := c["port"].(type) {
	case float64:
		a.port = int(p)
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			a.port = n
		}
	}
	if v, ok := c["secure"].(bool); ok {
		a.secure = v
	}
	a.insecure, _ = c["allowUnauthorizedCerts"].(bool)
	if ex.TypeVersion() < 2 {
		// Version 1 decides certificate checks by its own option.
		a.insecure = nodeInsecure
	}
	if a.host == "" {
		return nil, nodes.Errorf(-1, "Credentials are not valid for imap node.")
	}
	return a, nil
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	s, nodeInsecure, err := readSettings(ex)
	if err != nil {
		return nil, err
	}
	a, err := readAccount(ctx, ex, nodeInsecure)
	if err != nil {
		return nil, err
	}
	c, err := connect(ctx, ex, a)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	items, err := poll(ctx, ex, c, s)
	if err != nil {
		return nil, err
	}
	_ = c.Logout().Wait()
	if len(items) == 0 {
		return nil, nil
	}
	return [][]workflow.Item{items}, nil
}

// connect dials the server through the egress policy, logs in and closes the connection when
// ctx ends.
func connect(ctx context.Context, ex *nodes.Execution, a *account) (*imapclient.Client, error) {
	addr := net.JoinHostPort(a.host, strconv.Itoa(a.port))
	dctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	conn, err := egress.PolicyOf(ex.HTTPClient()).DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, dialError(err, addr)
	}
	if a.secure {
		tc := tls.Client(conn, &tls.Config{ServerName: a.host, InsecureSkipVerify: a.insecure}) //nolint:gosec // only when the credential asks
		if err := tc.HandshakeContext(dctx); err != nil {
			_ = conn.Close()
			return nil, nodes.Errorf(-1, "%v", err)
		}
		conn = tc
	}
	c := imapclient.New(conn, nil)
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	go func() {
		<-c.Closed()
		stop()
	}()
	// Logging in is bounded like the dial: a server that never answers cannot hold the poll.
	done := context.AfterFunc(dctx, func() {
		if dctx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
			_ = c.Close()
		}
	})
	defer done()
	if err := c.WaitGreeting(); err != nil {
		_ = c.Close()
		return nil, connError(ctx, dctx, err)
	}
	if err := c.Login(a.user, a.password).Wait(); err != nil {
		_ = c.Close()
		return nil, connError(ctx, dctx, err)
	}
	return c, nil
}

func dialError(err error, addr string) error {
	if _, ok := egress.Refusal(err); ok {
		return nodes.Errorf(-1, "%v", err)
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return nodes.Errorf(-1, "connect ECONNREFUSED %s", addr)
	case errors.Is(err, context.DeadlineExceeded):
		return nodes.Errorf(-1, "Timed out while connecting to server")
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return nodes.Errorf(-1, "getaddrinfo ENOTFOUND %s", dns.Name)
	}
	return nodes.Errorf(-1, "%v", err)
}

// connError is n8n's message for a failed greeting or login: the server's own text.
func connError(ctx, dctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if dctx.Err() != nil {
		return nodes.Errorf(-1, "Timed out while authenticating with server")
	}
	var ie *imap.Error
	if errors.As(err, &ie) {
		return nodes.Errorf(-1, "%s", ie.Text)
	}
	return nodes.Errorf(-1, "%v", err)
}
