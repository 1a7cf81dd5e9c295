// Package htmlextract is the HTML Extract node (version 1): it reads HTML from a JSON property
// (dot notation reaches nested keys; a list of strings gives one item each) or from a binary
// property and extracts values with CSS selectors, one output item per document.
package htmlextract

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/htmlx"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		extracted, err := extractItem(ex, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		out = append(out, extracted...)
	}
	return [][]workflow.Item{out}, nil
}

func extractItem(ex *nodes.Execution, item workflow.Item, i int) ([]workflow.Item, error) {
	property, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return nil, err
	}
	source, err := ex.ParamString("sourceData", i)
	if err != nil {
		return nil, err
	}
	rows, err := ex.ParamList("extractionValues.values", i)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	docs, err := Documents(item, source, property, i)
	if err != nil {
		return nil, err
	}
	opts := htmlx.Options{TrimValues: options["trimValues"] != false}
	values := htmlx.ValuesFromParams(rows)
	out := make([]workflow.Item, 0, len(docs))
	for _, html := range docs {
		json, err := htmlx.Extract(html, values, opts)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		out = append(out, workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return out, nil
}

// Documents returns the HTML documents of an item: the JSON property's string (or each string
// of its list), or the binary property's content read as UTF-8.
func Documents(item workflow.Item, source, property string, i int) ([]string, error) {
	if source == "binary" {
		if item.Binary == nil {
			return nil, nodes.Errorf(i, "No item does not contain binary data!")
		}
		bin, ok := item.Binary[property]
		if !ok {
			return nil, nodes.Errorf(i, "No property named %q exists!", property)
		}
		data, err := nodes.BinaryBytes(bin)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		return []string{string(data)}, nil
	}
	v, ok := workflow.LookupPath(item.JSON, property)
	if !ok {
		return nil, nodes.Errorf(i, "No property named %q exists!", property)
	}
	if list, ok := v.([]any); ok {
		docs := make([]string, 0, len(list))
		for _, e := range list {
			docs = append(docs, htmlString(e))
		}
		return docs, nil
	}
	return []string{htmlString(v)}, nil
}

// htmlString is the text cheerio.load sees for a value: strings as they are, others in their
// JavaScript string form.
func htmlString(v any) string {
	if v == nil {
		return ""
	}
	return jsv.ToString(v)
}
