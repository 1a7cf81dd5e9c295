// Package markdown is the Markdown node (version 1): it converts Markdown to HTML and HTML to
// Markdown, writing the result to a field of each item.
package markdown

import (
	"context"
	_ "embed"

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
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		json, err := convert(ex, mode, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}})
			continue
		}
		out = append(out, workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

func convert(ex *nodes.Execution, mode string, item workflow.Item, i int) (*workflow.Object, error) {
	destination, err := ex.ParamString("destinationKey", i)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	var result string
	switch mode {
	case "htmlToMarkdown":
		html, err := ex.ParamString("html", i)
		if err != nil {
			return nil, err
		}
		o, err := htmlOptionsFrom(options)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		result, err = htmlToMarkdown(html, o)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
	case "markdownToHtml":
		md, err := ex.ParamString("markdown", i)
		if err != nil {
			return nil, err
		}
		result, err = markdownToHTML(md, markdownOptionsFrom(options))
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
	default:
		return nil, nodes.Errorf(i, "The operation %q is not known!", mode)
	}
	json := item.JSON.Clone()
	if json == nil {
		json = workflow.NewObject(1)
	}
	workflow.SetPath(json, destination, result)
	return json, nil
}
