package httprequest

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/filetype"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// toItems turns one response into output items as the node's response format says.
func toItems(ex *nodes.Execution, res *response, format string, in workflow.Item, i int) ([]workflow.Item, error) {
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	full, _ := options["fullResponse"].(bool)
	paired := &workflow.PairedItems{{Item: i}}
	switch format {
	case "file":
		prop, err := ex.ParamString("dataPropertyName", 0)
		if err != nil {
			return nil, err
		}
		item := workflow.Item{PairedItem: paired, Binary: map[string]workflow.BinaryData{}}
		for k, v := range in.Binary {
			item.Binary[k] = v
		}
		if full {
			item.JSON = workflow.ObjectOf("headers", headerJSON(res.header), "statusCode", float64(res.status), "statusMessage", res.statusText)
		} else {
			item.JSON = in.JSON.Clone()
			if item.JSON == nil {
				item.JSON = workflow.NewObject(0)
			}
		}
		item.Binary[prop] = fileBinary(res)
		return []workflow.Item{item}, nil
	case "string":
		prop, err := ex.ParamString("dataPropertyName", 0)
		if err != nil {
			return nil, err
		}
		j := workflow.ObjectOf(prop, string(res.body))
		if full {
			j.Set("headers", headerJSON(res.header))
			j.Set("statusCode", float64(res.status))
			j.Set("statusMessage", res.statusText)
		}
		return []workflow.Item{{JSON: j, PairedItem: paired}}, nil
	}
	body, err := jsonBody(res.body)
	if err != nil {
		return nil, nodes.Errorf(i, "Response body is not valid JSON. Change \"Response Format\" to \"String\"")
	}
	if full {
		if body == nil {
			body = workflow.NewObject(0)
		}
		return []workflow.Item{{JSON: workflow.ObjectOf(
			"body", body,
			"headers", headerJSON(res.header),
			"statusCode", float64(res.status),
			"statusMessage", res.statusText,
		), PairedItem: paired}}, nil
	}
	if list, ok := body.([]any); ok {
		out := make([]workflow.Item, 0, len(list))
		for _, e := range list {
			out = append(out, workflow.Item{JSON: asObject(e), PairedItem: &workflow.PairedItems{{Item: i}}})
		}
		return out, nil
	}
	return []workflow.Item{{JSON: asObject(body), PairedItem: paired}}, nil
}

// jsonBody parses a JSON response; an empty body is no data.
func jsonBody(b []byte) (any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	// Objects keep the order of the response document.
	return workflow.DecodeJSONValue(b)
}

// asObject makes a JSON value an item's json: null is {} (n8n's replaceNullValues) and other
// non-objects are kept under "data".
func asObject(v any) *workflow.Object {
	switch x := v.(type) {
	case *workflow.Object:
		if x != nil {
			return x
		}
	case map[string]any:
		return workflow.ObjectFromMap(x)
	case nil:
		return workflow.NewObject(0)
	}
	return workflow.ObjectOf("data", v)
}

// headerJSON gives response headers as Node.js does: lower-case names, repeated values joined
// with ", ", set-cookie as a list. Go does not keep the order headers came in, so names are
// sorted.
func headerJSON(h http.Header) *workflow.Object {
	out := make(map[string]any, len(h))
	for k, v := range h {
		name := strings.ToLower(k)
		if name == "set-cookie" {
			l := make([]any, len(v))
			for i, s := range v {
				l[i] = s
			}
			out[name] = l
			continue
		}
		out[name] = strings.Join(v, ", ")
	}
	return workflow.ObjectFromMap(out)
}

// fileBinary stores a response body as binary data named after the URL's last path segment,
// typed as n8n's prepareBinaryData types it.
func fileBinary(res *response) workflow.BinaryData {
	name := res.url[strings.LastIndex(res.url, "/")+1:]
	return nodes.NewBinary(res.body, name, filetype.Detect(name, res.body))
}
