// Package respondtowebhook is the Respond to Webhook node (version 1): it decides the answer to
// the request that started the workflow (Webhook node with responseMode "responseNode") and
// passes its input on. The answer is recorded in the node's context under ContextKey, where the
// webhook layer reads it with ResponseFrom; as in n8n, the first answer of an execution counts.
package respondtowebhook

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Type{Description: nodes.MustParseDescription(descriptionJSON), Kind: nodes.KindAction,
		Node: nodes.NodeFunc(execute), IconSVG: webhook.Icon()}
}

// ContextKey is the key of the recorded response in the node's context data.
const ContextKey = "webhookResponse"

// Response is the answer the node decided. Body is JSON-like data for json and
// firstIncomingItem, a string for text, nil for noData; Binary holds the bytes for binary.
type Response struct {
	StatusCode int               `json:"statusCode"`
	Headers    map[string]string `json:"headers"`
	Body       any               `json:"body,omitempty"`
	Binary     []byte            `json:"binary,omitempty"`
}

// ResponseFrom reads the response recorded in a node's context data.
func ResponseFrom(nodeContext map[string]any) (*Response, bool) {
	raw, ok := nodeContext[ContextKey]
	if !ok {
		return nil, false
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, false
	}
	var r struct {
		Response
		Body json.RawMessage `json:"body,omitempty"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, false
	}
	if len(r.Body) > 0 {
		// The body is answered with its fields in the order they were written.
		if r.Response.Body, err = workflow.DecodeJSONValue(r.Body); err != nil {
			return nil, false
		}
	}
	return &r.Response, true
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	respondWith, err := ex.ParamString("respondWith", 0)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	headers := map[string]string{}
	if rh, ok := options["responseHeaders"].(map[string]any); ok {
		entries, _ := rh["entries"].([]any)
		for _, e := range entries {
			h, _ := e.(map[string]any)
			headers[strings.ToLower(jsv.ToString(h["name"]))] = jsv.ToString(h["value"])
		}
	}
	res := Response{StatusCode: 200, Headers: headers}
	if code, ok := options["responseCode"].(float64); ok && code != 0 {
		res.StatusCode = int(code)
	}
	switch respondWith {
	case "json":
		body, err := ex.Param("responseBody", 0)
		if err != nil {
			return nil, err
		}
		if s, ok := body.(string); ok {
			if s != "" {
				v, err := workflow.DecodeJSONValue([]byte(s))
				if err != nil {
					return nil, nodes.Errorf(0, "Invalid JSON in 'Response Body' field")
				}
				res.Body = v
			}
		} else {
			res.Body = body
		}
	case "firstIncomingItem":
		res.Body = items[0].JSON.Clone()
	case "text":
		if res.Body, err = ex.ParamString("responseBody", 0); err != nil {
			return nil, err
		}
	case "binary":
		if err := binaryBody(ex, items[0], &res); err != nil {
			return nil, err
		}
	case "noData":
	default:
		return nil, nodes.Errorf(-1, "The Response Data option %q is not supported!", respondWith)
	}
	ctx := ex.Context()
	if _, sent := ctx[ContextKey]; !sent {
		// Stored as JSON-like data, an ordered object so the body keeps its field order.
		b, _ := json.Marshal(res)
		stored, _ := workflow.DecodeJSONValue(b)
		ctx[ContextKey] = stored
	}
	return [][]workflow.Item{items}, nil
}

func binaryBody(ex *nodes.Execution, item workflow.Item, res *Response) error {
	if len(item.Binary) == 0 {
		return nodes.Errorf(0, "No binary data exists on the first item!")
	}
	source, err := ex.ParamString("responseDataSource", 0)
	if err != nil {
		return err
	}
	var name string
	if source == "set" {
		if name, err = ex.ParamString("inputFieldName", 0); err != nil {
			return err
		}
	} else {
		for k := range item.Binary {
			if name == "" || k < name { // Go maps have no order; the first name keeps it stable
				name = k
			}
		}
	}
	bin, ok := item.Binary[name]
	if !ok {
		return nodes.Errorf(0, "No binary data property %q does not exists on item!", name)
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return nodes.Errorf(0, "binary data %q: %v", name, err)
	}
	if _, set := res.Headers["content-type"]; !set && bin.MimeType != "" {
		res.Headers["content-type"] = bin.MimeType
	}
	res.Binary = data
	return nil
}
