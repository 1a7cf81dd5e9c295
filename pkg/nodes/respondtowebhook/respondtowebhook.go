// Package respondtowebhook is the Respond to Webhook node (version 1): it decides the answer to
// the request that started the workflow (Webhook node with responseMode "responseNode") and
// passes its input on. The answer is recorded in the node's context under ContextKey, where the
// webhook layer reads it with ResponseFrom; as in n8n, the first answer of an execution counts.
package respondtowebhook

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration. The node is effect-free: it only decides the
// answer (into its context) and passes its input on; the runner sends the answer, and an
// execution's first answer is the one kept, so running the node again changes nothing.
func Type() nodes.Type {
	return nodes.Type{Description: nodes.MustParseDescription(descriptionJSON), Kind: nodes.KindAction,
		Node: nodes.NodeFunc(execute), IconSVG: webhook.Icon(), EffectFree: true}
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

// webhookTypes are the nodes whose request a Respond to Webhook node can answer (1.1 and later
// refuse to run without one of them before it).
var webhookTypes = map[string]bool{"n8n-nodes-base.webhook": true, "n8n-nodes-base.formTrigger": true,
	"@n8n/n8n-nodes-langchain.chatTrigger": true, "n8n-nodes-base.wait": true}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	if ex.TypeVersion() >= 1.1 && !afterWebhook(ex) {
		return nil, &nodes.Error{Message: "No Webhook node found in the workflow", ItemIndex: -1,
			Description: "Insert a Webhook node to your workflow and set the “Respond” parameter to “Using Respond to Webhook Node” "}
	}
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
	code, hasCode := options["responseCode"].(float64)
	res := Response{StatusCode: 200, Headers: headers}
	if hasCode && code != 0 {
		res.StatusCode = int(code)
	}
	responseKey, _ := options["responseKey"].(string)
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
					return nil, &nodes.Error{Message: "Invalid JSON in 'Response Body' field",
						Description: "Check that the syntax of the JSON in the 'Response Body' parameter is valid"}
				}
				res.Body = v
			}
		} else {
			res.Body = body
		}
	case "jwt":
		token, err := signJWT(ctx, ex)
		if err != nil {
			return nil, err
		}
		res.Body = workflow.ObjectOf("token", token)
	case "allIncomingItems":
		all := make([]any, len(items))
		for i, it := range items {
			all[i] = it.JSON.Clone()
		}
		res.Body = underKey(responseKey, all)
	case "firstIncomingItem":
		res.Body = underKey(responseKey, items[0].JSON.Clone())
	case "text":
		if res.Body, err = ex.ParamString("responseBody", 0); err != nil {
			return nil, err
		}
	case "binary":
		if err := binaryBody(ex, items[0], &res); err != nil {
			return nil, err
		}
	case "redirect":
		if res.Headers["location"], err = ex.ParamString("redirectURL", 0); err != nil {
			return nil, err
		}
		if !hasCode {
			res.StatusCode = 307
		}
	case "noData":
	default:
		return nil, nodes.Errorf(-1, "The Response Data option %q is not supported!", respondWith)
	}
	nodeCtx := ex.Context()
	if _, sent := nodeCtx[ContextKey]; !sent {
		// Stored as JSON-like data, an ordered object so the body keeps its field order.
		b, _ := json.Marshal(res)
		stored, _ := workflow.DecodeJSONValue(b)
		nodeCtx[ContextKey] = stored
	}
	if responseOutput(ex) {
		return [][]workflow.Item{items, {{JSON: workflow.ObjectOf("response", res.item())}}}, nil
	}
	return [][]workflow.Item{items}, nil
}

// responseOutput reports whether the node has its second output, the response it sent: always
// in version 1.3, from 1.4 when enableResponseOutput is on.
func responseOutput(ex *nodes.Execution) bool {
	v := ex.TypeVersion()
	if v == 1.3 {
		return true
	}
	if v < 1.4 {
		return false
	}
	on, _ := ex.ParamBool("enableResponseOutput", 0)
	return on
}

// item is the response as the response output shows it: body (when there is one), headers and
// status code.
func (r Response) item() *workflow.Object {
	out := workflow.NewObject(3)
	switch {
	case r.Binary != nil:
		out.Set("body", base64.StdEncoding.EncodeToString(r.Binary))
	case r.Body != nil:
		out.Set("body", r.Body)
	}
	headers := workflow.NewObject(len(r.Headers))
	for _, k := range slices.Sorted(maps.Keys(r.Headers)) {
		headers.Set(k, r.Headers[k])
	}
	out.Set("headers", headers)
	out.Set("statusCode", float64(r.StatusCode))
	return out
}

// underKey puts a body under a dotted path of a new object (lodash's set), or leaves it as it is
// when key is empty.
func underKey(key string, body any) any {
	if key == "" {
		return body
	}
	root := workflow.NewObject(1)
	obj := root
	parts := strings.Split(key, ".")
	for _, p := range parts[:len(parts)-1] {
		next := workflow.NewObject(1)
		obj.Set(p, next)
		obj = next
	}
	obj.Set(parts[len(parts)-1], body)
	return root
}

// afterWebhook reports whether a node that starts from a request comes before this one. Without
// the workflow's graph (a node run on its own) it cannot tell, and does not refuse.
func afterWebhook(ex *nodes.Execution) bool {
	c := ex.ExprContext(0)
	if c == nil || c.Nodes == nil || c.ParentOutput == nil {
		return true
	}
	for name, info := range c.Nodes {
		if webhookTypes[info.Type] {
			if _, ok := c.ParentOutput(name); ok {
				return true
			}
		}
	}
	return false
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
