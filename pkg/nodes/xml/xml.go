// Package xml is the XML node (version 1): it converts an XML string in each item to JSON, or
// each item's JSON to an XML string, with the options and output shapes of n8n's xml2js-based
// node.
package xml

import (
	"context"
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
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
	property, err := ex.ParamString("dataPropertyName", 0)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var json *workflow.Object
		switch mode {
		case "xmlToJson":
			json, err = toJSON(item, property, options, i)
		case "jsonToxml":
			json, err = toXML(item, property, options, i)
		default:
			err = nodes.Errorf(i, "The operation %q is not known!", mode)
		}
		if err != nil {
			// n8n's node replaces the failed input item and outputs nothing for it.
			if ex.ContinueOnFail() {
				continue
			}
			return nil, err
		}
		out = append(out, workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

func toJSON(item workflow.Item, property string, options map[string]any, i int) (*workflow.Object, error) {
	var value any
	ok := false
	if item.JSON != nil {
		value, ok = item.JSON.Lookup(property)
	}
	if !ok || jsv.IsUndefined(value) {
		return nil, nodes.Errorf(i, "Item has no JSON property called %q", property)
	}
	o := parseOptions{
		attrKey:       stringOption(options, "attrkey", "$"),
		charKey:       stringOption(options, "charkey", "_"),
		explicitArray: boolOption(options, "explicitArray", false),
		explicitRoot:  boolOption(options, "explicitRoot", true),
		ignoreAttrs:   boolOption(options, "ignoreAttrs", false),
		mergeAttrs:    boolOption(options, "mergeAttrs", true),
		normalize:     boolOption(options, "normalize", false),
		normalizeTags: boolOption(options, "normalizeTags", false),
		trim:          boolOption(options, "trim", false),
	}
	result, err := parse(jsv.ToString(value), o)
	if err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	if obj, ok := result.(*workflow.Object); ok {
		return obj, nil
	}
	// A blank document, or a text-only root without Explicit Root, is no object.
	return workflow.NewObject(0), nil
}

func toXML(item workflow.Item, property string, options map[string]any, i int) (*workflow.Object, error) {
	o := buildOptions{
		attrKey:             stringOption(options, "attrkey", "$"),
		charKey:             stringOption(options, "charkey", "_"),
		rootName:            stringOption(options, "rootName", "root"),
		headless:            boolOption(options, "headless", false),
		cdata:               boolOption(options, "cdata", false),
		allowSurrogateChars: boolOption(options, "allowSurrogateChars", false),
	}
	data := item.JSON
	if data == nil {
		data = workflow.NewObject(0)
	}
	doc, err := build(data, o)
	if err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	return workflow.ObjectOf(property, doc), nil
}

func stringOption(options map[string]any, key, fallback string) string {
	v, ok := options[key]
	if !ok || v == nil {
		return fallback
	}
	return jsv.ToString(v)
}

func boolOption(options map[string]any, key string, fallback bool) bool {
	v, ok := options[key]
	if !ok || v == nil {
		return fallback
	}
	return workflow.Truthy(v)
}
