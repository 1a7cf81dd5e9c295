package emailreadimap

import (
	"context"
	"errors"
	"slices"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/flowmill/flowmill/pkg/imapconn"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Static data keys: lastMessageUid is n8n's; uidValidity tells whether the UIDs still count
// (a mailbox deleted and created again numbers its mails anew).
const (
	keyLastUID     = "lastMessageUid"
	keyUIDValidity = "uidValidity"
)

func poll(ctx context.Context, ex *nodes.Execution, c *imapclient.Client, s *settings) ([]workflow.Item, error) {
	sel, err := c.Select(s.mailbox, nil).Wait()
	if err != nil {
		return nil, commandError(ctx, err)
	}
	static := ex.StaticData()
	last := uint32(0)
	if v, ok := static[keyUIDValidity].(float64); ok && uint32(v) == sel.UIDValidity {
		if l, ok := static[keyLastUID].(float64); ok && l > 0 {
			last = uint32(l)
		}
	}
	first := last == 0

	var uids []imap.UID
	highest := last
	if s.track {
		crit := *s.criteria
		if first && s.sinceToday {
			crit.Since = dayStart(ex.Now())
		}
		if !first {
			crit.UID = append(slices.Clone(crit.UID), imap.UIDSet{{Start: imap.UID(last + 1), Stop: 0}})
		}
		if uids, err = search(ctx, c, &crit, last); err != nil {
			return nil, err
		}
		if len(uids) > batchLimit {
			uids = uids[:batchLimit]
		}
		if len(uids) > 0 {
			highest = uint32(uids[len(uids)-1])
		}
	} else {
		// Without tracking n8n fetches every matching mail whenever new mail arrives: the
		// watermark only tells whether some has.
		fresh, err := search(ctx, c, &imap.SearchCriteria{UID: []imap.UIDSet{{{Start: imap.UID(last + 1), Stop: 0}}}}, last)
		if err != nil {
			return nil, err
		}
		if len(fresh) > 0 {
			highest = uint32(fresh[len(fresh)-1])
			if uids, err = search(ctx, c, s.criteria, 0); err != nil {
				return nil, err
			}
			if len(uids) > batchLimit {
				uids = uids[:batchLimit]
			}
		}
	}

	items, err := fetch(ctx, ex, c, s, uids)
	if err != nil {
		return nil, err
	}
	if s.action == "read" && len(uids) > 0 {
		set := imap.UIDSetNum(uids...)
		if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}, nil).Close(); err != nil {
			return nil, commandError(ctx, err)
		}
	}
	if highest != last || static[keyUIDValidity] != float64(sel.UIDValidity) {
		static[keyLastUID] = float64(highest)
		static[keyUIDValidity] = float64(sel.UIDValidity)
	}
	return items, nil
}

// search returns the UIDs above last that match, in ascending order. A "n:*" range always
// holds the mailbox's highest UID, even one below n, hence the filter.
func search(ctx context.Context, c *imapclient.Client, crit *imap.SearchCriteria, last uint32) ([]imap.UID, error) {
	data, err := c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return nil, commandError(ctx, err)
	}
	var out []imap.UID
	for _, u := range data.AllUIDs() {
		if uint32(u) > last {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out, nil
}

func fetch(ctx context.Context, ex *nodes.Execution, c *imapclient.Client, s *settings, uids []imap.UID) ([]workflow.Item, error) {
	if len(uids) == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	if s.format == "raw" {
		section = &imap.FetchItemBodySection{Specifier: imap.PartSpecifierText, Peek: true}
	}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, commandError(ctx, err)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	limit := ex.UnpackMaxBytes()
	items := make([]workflow.Item, 0, len(msgs))
	for _, m := range msgs {
		body := m.FindBodySection(section)
		if body == nil {
			return nil, nodes.Errorf(-1, "Email part could not be parsed.")
		}
		if int64(len(body)) > limit {
			return nil, nodes.Errorf(-1, "The email with UID %d is larger than the unpacking limit (FLOWMILL_UNPACK_MAX_SIZE)", m.UID)
		}
		if s.format == "raw" {
			items = append(items, workflow.Item{JSON: workflow.ObjectOf("raw", string(body))})
			continue
		}
		p, err := parseMessage(body, limit)
		if err != nil {
			var ne *nodes.Error
			if errors.As(err, &ne) {
				return nil, ne
			}
			if p == nil {
				return nil, nodes.Errorf(-1, "Email part could not be parsed.")
			}
		}
		if s.format == "resolved" {
			items = append(items, resolvedItem(uint32(m.UID), p, s.prefix))
		} else {
			items = append(items, simpleItem(uint32(m.UID), p, s.attachments, s.prefix))
		}
	}
	return items, nil
}

// commandError is a failed IMAP command's message: the server's text, or the cancellation.
func commandError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nodes.Errorf(-1, "%v", imapconn.Message(err))
}
