// Package rssfeedreadtrigger is the RSS Feed Trigger node (version 1), a poll node: each poll
// reads the feed and starts the workflow with the entries published after the newest one the
// previous poll saw (kept in the node's static data); the first poll after activation counts
// from that moment. A manual run gives the feed's first entry.
package rssfeedreadtrigger

import (
	"context"
	_ "embed"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/nodes/rssfeedread"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindPoll, poll)
}

func poll(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	feedURL, err := ex.ParamString("feedUrl", 0)
	if err != nil {
		return nil, err
	}
	if feedURL == "" {
		return nil, nodes.Errorf(-1, `The parameter "URL" has to be set!`)
	}
	entries, err := rssfeedread.FetchForNode(ctx, ex, feedURL, false, -1)
	if err != nil {
		return nil, err
	}
	if ex.Mode() == workflow.ModeManual {
		if len(entries) == 0 {
			return [][]workflow.Item{{}}, nil
		}
		return [][]workflow.Item{{{JSON: entries[0]}}}, nil
	}
	static := ex.StaticData()
	since, ok := parseTime(static["lastItemDate"])
	if !ok {
		if since, ok = parseTime(static["lastTimeChecked"]); !ok {
			since = ex.Now().UTC().Truncate(time.Second)
		}
	}
	var fresh []workflow.Item
	var newest time.Time
	newestISO := ""
	for _, e := range entries {
		iso, _ := e.Get("isoDate").(string)
		t, ok := parseTime(iso)
		if !ok {
			continue
		}
		if t.After(since) {
			fresh = append(fresh, workflow.Item{JSON: e})
		}
		if newestISO == "" || t.After(newest) {
			newest, newestISO = t, iso
		}
	}
	if newestISO != "" {
		static["lastItemDate"] = newestISO
	}
	if len(fresh) == 0 {
		return nil, nil
	}
	return [][]workflow.Item{fresh}, nil
}

func parseTime(v any) (time.Time, bool) {
	s := jsv.ToString(jsv.Or(v, ""))
	if s == "" {
		return time.Time{}, false
	}
	return jsv.ParseDate(s)
}
