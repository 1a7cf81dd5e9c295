package emailreadimap

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// parseCriteria reads the Custom Email Rules: node-imap's search criteria as JSON, a list whose
// entries are all ANDed; an entry is a keyword ("UNSEEN") or a list of a keyword and its
// arguments (["FROM", "a@b.c"], ["SINCE", "2024-01-31"], ["OR", c1, c2]); "!" before a keyword
// negates it.
func parseCriteria(raw string) (*imap.SearchCriteria, error) {
	var list []any
	if err := json.Unmarshal([]byte(raw), &list); err != nil {
		return nil, nodes.Errorf(-1, "Custom email config is not valid JSON.")
	}
	out := &imap.SearchCriteria{}
	for _, entry := range list {
		c, err := criterion(entry)
		if err != nil {
			return nil, err
		}
		out.And(c)
	}
	return out, nil
}

func criterion(entry any) (*imap.SearchCriteria, error) {
	var name string
	var args []any
	switch e := entry.(type) {
	case string:
		name = e
	case []any:
		if len(e) == 0 {
			return nil, nodes.Errorf(-1, "Empty nested search criteria")
		}
		s, ok := e[0].(string)
		if !ok {
			if len(e) == 1 {
				return criterion(e[0])
			}
			return nil, nodes.Errorf(-1, "Unexpected search option data type. Expected string but got %s", jsType(e[0]))
		}
		name, args = s, e[1:]
	default:
		return nil, nodes.Errorf(-1, "Unexpected search option data type. Expected string or array but got %s", jsType(entry))
	}
	up := strings.ToUpper(name)
	if strings.HasPrefix(up, "!") {
		inner, err := criterion(append([]any{up[1:]}, args...))
		if err != nil {
			return nil, err
		}
		return &imap.SearchCriteria{Not: []imap.SearchCriteria{*inner}}, nil
	}
	c := &imap.SearchCriteria{}
	flag := func(f imap.Flag, set bool) (*imap.SearchCriteria, error) {
		if set {
			c.Flag = []imap.Flag{f}
		} else {
			c.NotFlag = []imap.Flag{f}
		}
		return c, nil
	}
	str := func(i int) (string, error) {
		if i >= len(args) {
			return "", nodes.Errorf(-1, "Incorrect number of arguments for search option: %s", up)
		}
		switch v := args[i].(type) {
		case string:
			return v, nil
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64), nil
		}
		return "", nodes.Errorf(-1, "Incorrect number of arguments for search option: %s", up)
	}
	switch up {
	case "ALL":
		return c, nil
	case "ANSWERED":
		return flag(imap.FlagAnswered, true)
	case "UNANSWERED":
		return flag(imap.FlagAnswered, false)
	case "DELETED":
		return flag(imap.FlagDeleted, true)
	case "UNDELETED":
		return flag(imap.FlagDeleted, false)
	case "DRAFT":
		return flag(imap.FlagDraft, true)
	case "UNDRAFT":
		return flag(imap.FlagDraft, false)
	case "FLAGGED":
		return flag(imap.FlagFlagged, true)
	case "UNFLAGGED":
		return flag(imap.FlagFlagged, false)
	case "SEEN":
		return flag(imap.FlagSeen, true)
	case "UNSEEN":
		return flag(imap.FlagSeen, false)
	case "NEW":
		// \Recent cannot be searched for by this client (IMAP4rev2 dropped it): unread is
		// the nearest.
		return flag(imap.FlagSeen, false)
	case "OLD", "RECENT":
		return nil, nodes.Errorf(-1, "The search option %s is not supported", up)
	case "KEYWORD", "UNKEYWORD":
		k, err := str(0)
		if err != nil {
			return nil, err
		}
		return flag(imap.Flag(k), up == "KEYWORD")
	case "FROM", "TO", "CC", "BCC", "SUBJECT":
		v, err := str(0)
		if err != nil {
			return nil, err
		}
		c.Header = []imap.SearchCriteriaHeaderField{{Key: addressHeaders[up], Value: v}}
		return c, nil
	case "HEADER":
		k, err := str(0)
		if err != nil {
			return nil, err
		}
		v, err := str(1)
		if err != nil {
			return nil, err
		}
		c.Header = []imap.SearchCriteriaHeaderField{{Key: k, Value: v}}
		return c, nil
	case "BODY":
		v, err := str(0)
		if err != nil {
			return nil, err
		}
		c.Body = []string{v}
		return c, nil
	case "TEXT":
		v, err := str(0)
		if err != nil {
			return nil, err
		}
		c.Text = []string{v}
		return c, nil
	case "LARGER", "SMALLER":
		v, err := str(0)
		if err != nil {
			return nil, err
		}
		n, perr := strconv.ParseInt(v, 10, 64)
		if perr != nil {
			return nil, nodes.Errorf(-1, "Search option argument must be a number")
		}
		if up == "LARGER" {
			c.Larger = n
		} else {
			c.Smaller = n
		}
		return c, nil
	case "SINCE", "BEFORE", "ON", "SENTSINCE", "SENTBEFORE", "SENTON":
		v, err := str(0)
		if err != nil {
			return nil, err
		}
		d, ok := parseDate(v)
		if !ok {
			return nil, nodes.Errorf(-1, "Search option argument must be a Date object or a parseable date string")
		}
		switch up {
		case "SINCE":
			c.Since = d
		case "BEFORE":
			c.Before = d
		case "ON":
			c.Since, c.Before = d, d.AddDate(0, 0, 1)
		case "SENTSINCE":
			c.SentSince = d
		case "SENTBEFORE":
			c.SentBefore = d
		case "SENTON":
			c.SentSince, c.SentBefore = d, d.AddDate(0, 0, 1)
		}
		return c, nil
	case "UID":
		v, err := str(0)
		if err != nil {
			return nil, err
		}
		set, ok := parseUIDSet(v)
		if !ok {
			return nil, nodes.Errorf(-1, "Invalid UID set: %s", v)
		}
		c.UID = []imap.UIDSet{set}
		return c, nil
	case "OR":
		if len(args) != 2 {
			return nil, nodes.Errorf(-1, "OR must have exactly two arguments")
		}
		a, err := criterion(args[0])
		if err != nil {
			return nil, err
		}
		b, err := criterion(args[1])
		if err != nil {
			return nil, err
		}
		c.Or = [][2]imap.SearchCriteria{{*a, *b}}
		return c, nil
	}
	return nil, nodes.Errorf(-1, "Unexpected search option: %s", up)
}

var addressHeaders = map[string]string{"FROM": "From", "TO": "To", "CC": "Cc", "BCC": "Bcc", "SUBJECT": "Subject"}

var dateLayouts = []string{"2006-01-02", time.RFC3339, "2006-01-02T15:04:05", "02-Jan-2006", "January 2, 2006", "Jan 2, 2006", "2 January 2006", time.RFC1123Z, time.RFC1123}

// parseDate reads a date argument; IMAP dates have no time, so only the day counts.
func parseDate(s string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
			y, m, d := t.Date()
			return time.Date(y, m, d, 0, 0, 0, 0, time.UTC), true
		}
	}
	return time.Time{}, false
}

func jsType(v any) string {
	switch v.(type) {
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case nil:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// parseUIDSet reads a UID set such as "4", "4:9", "4:*" or "1,3:5".
func parseUIDSet(s string) (imap.UIDSet, bool) {
	var set imap.UIDSet
	num := func(p string) (imap.UID, bool) {
		if p == "*" {
			return 0, true
		}
		n, err := strconv.ParseUint(p, 10, 32)
		return imap.UID(n), err == nil && n > 0
	}
	for _, r := range strings.Split(strings.TrimSpace(s), ",") {
		lo, hi, isRange := strings.Cut(r, ":")
		a, ok := num(lo)
		if !ok {
			return nil, false
		}
		b := a
		if isRange {
			if b, ok = num(hi); !ok {
				return nil, false
			}
		}
		set = append(set, imap.UIDRange{Start: a, Stop: b})
	}
	return set, true
}
