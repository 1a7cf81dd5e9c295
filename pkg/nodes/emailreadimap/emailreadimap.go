// Package emailreadimap is the Email Trigger (IMAP) node (versions 1, 2 and 2.1). n8n keeps an
// IMAP connection open and reacts to new mail; here the node is a poll trigger the scheduler
// runs every minute (one replica per tick, see pkg/trigger): each poll logs in, searches the
// mailbox with the node's search criteria past the highest UID it has passed on (kept in the
// node's static data with the mailbox's UIDVALIDITY), turns each new mail into one item, marks
// the mails as read when asked, and logs out.
package emailreadimap

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/emersion/go-imap/v2"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/imapconn"
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

func readAccount(ctx context.Context, ex *nodes.Execution, nodeInsecure bool) (imapconn.Account, error) {
	c, err := ex.Credentials(ctx, "imap")
	if err != nil {
		return imapconn.Account{}, err
	}
	a := imapconn.FromCredential(c)
	if ex.TypeVersion() < 2 {
		// Version 1 decides certificate checks by its own option.
		a.Insecure = nodeInsecure
	}
	if a.Host == "" {
		return a, nodes.Errorf(-1, "Credentials are not valid for imap node.")
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
	c, err := imapconn.Login(ctx, egress.PolicyOf(ex.HTTPClient()), a)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
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
