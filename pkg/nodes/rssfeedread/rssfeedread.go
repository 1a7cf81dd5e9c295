// Package rssfeedread is the RSS Read node (versions 1 and 1.1): it fetches an RSS or Atom feed
// through the instance's egress policy and returns one item per feed entry with the fields and
// order of rss-parser, which n8n uses. Version 1 reads the feed once for all input items;
// version 1.1 once per input item.
package rssfeedread

import (
	"context"
	_ "embed"
	"errors"
	"net/url"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	runs := min(len(items), 1)
	var fallback workflow.PairedItems
	if ex.TypeVersion() >= 1.1 {
		runs = len(items)
	} else {
		for i := range items {
			fallback = append(fallback, workflow.PairedItem{Item: i})
		}
	}
	out := []workflow.Item{}
	for i := range runs {
		paired := fallback
		if paired == nil {
			paired = workflow.PairedItems{{Item: i}}
		}
		entries, err := read(ctx, ex, i)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if ex.ContinueOnFail() {
				out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: clone(paired)})
				continue
			}
			return nil, err
		}
		for _, e := range entries {
			out = append(out, workflow.Item{JSON: e, PairedItem: clone(paired)})
		}
	}
	return [][]workflow.Item{out}, nil
}

func clone(p workflow.PairedItems) *workflow.PairedItems {
	c := append(workflow.PairedItems(nil), p...)
	return &c
}

func read(ctx context.Context, ex *nodes.Execution, i int) ([]*workflow.Object, error) {
	rawURL, err := ex.ParamString("url", i)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	insecure, _ := options["ignoreSSL"].(bool)
	return FetchForNode(ctx, ex, rawURL, insecure, i)
}

// FetchForNode checks the URL and reads the feed, failing with n8n's messages for the node.
func FetchForNode(ctx context.Context, ex *nodes.Execution, rawURL string, insecure bool, i int) ([]*workflow.Object, error) {
	if rawURL == "" {
		return nil, nodes.Errorf(i, `The parameter "URL" has to be set!`)
	}
	if u, err := url.Parse(rawURL); err != nil || u.Scheme == "" || u.Host == "" && u.Opaque == "" {
		return nil, nodes.Errorf(i, `The provided "URL" is not valid!`)
	}
	entries, err := Fetch(ctx, ex.HTTPClient(), rawURL, insecure, ex.UnpackMaxBytes())
	if err != nil {
		var fe *FetchError
		if errors.As(err, &fe) {
			if fe.Refused {
				return nil, nodes.Errorf(i, `It was not possible to connect to the URL. Please make sure the URL "%s" it is valid!`, rawURL)
			}
			return nil, &nodes.Error{Message: fe.Msg, ItemIndex: i, Cause: err}
		}
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: i, Cause: err}
	}
	return entries, nil
}
