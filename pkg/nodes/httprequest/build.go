package httprequest

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// request is one item's request as n8n's request options describe it.
type request struct {
	method       string
	url          string
	qs           kvList
	headers      kvList
	body         any    // JSON or raw body; nil for none
	hasBody      bool   // body was given (it may be JSON null)
	bodyList     kvList // body parameters in the order given (key/value UI)
	form         kvList
	multipart    []part
	kind         string // json, raw, form, multipart
	json         bool   // JSON body and JSON response parsing, as request's json flag
	arrayFormat  string // how query lists are written (see stringifyQS)
	maxRedirects int    // 0 for the request helper's default
	page         int    // pagination: requests sent before this one for the same item
	timeout      time.Duration
	followGet    bool
	followAll    bool
	ignoreStatus bool
	proxy        string
	insecure     bool
	fullResponse bool
}

// part is one field or file of a multipart body.
type part struct {
	name, fileName, contentType string
	value                       []byte
	file                        bool
}

var bodyMethods = []string{"PATCH", "POST", "PUT"}

func buildRequest(ex *nodes.Execution, responseFormat string, i int) (*request, error) {
	r := &request{followGet: true, followAll: true, timeout: defaultTimeout}
	var err error
	if r.method, err = ex.ParamString("requestMethod", i); err != nil {
		return nil, err
	}
	if r.url, err = ex.ParamString("url", i); err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	insecure, err := ex.ParamBool("allowUnauthorizedCerts", i)
	if err != nil {
		return nil, err
	}
	r.insecure = insecure
	r.fullResponse, _ = options["fullResponse"].(bool)
	// n8n's request helper follows redirects unless these options are set to false.
	if b, ok := options["followRedirect"].(bool); ok {
		r.followGet = b
	}
	if b, ok := options["followAllRedirects"].(bool); ok {
		r.followAll = b
	}
	r.ignoreStatus, _ = options["ignoreResponseCode"].(bool)
	r.proxy, _ = options["proxy"].(string)
	if t, ok := options["timeout"].(float64); ok && t > 0 {
		r.timeout = time.Duration(t * float64(time.Millisecond))
	}
	if repeat, _ := options["useQueryString"].(bool); repeat {
		r.arrayFormat = arrayRepeat
	}
	contentType, _ := options["bodyContentType"].(string)

	jsonParams, err := ex.ParamBool("jsonParameters", i)
	if err != nil {
		return nil, err
	}
	if jsonParams {
		err = r.jsonParameters(ex, contentType, i)
	} else {
		err = r.uiParameters(ex, i)
	}
	if err != nil {
		return nil, err
	}

	r.kind = "json"
	if slices.Contains(bodyMethods, r.method) {
		switch contentType {
		case "multipart-form-data":
			if r.multipart == nil {
				r.multipart = fieldsToParts(r.orderedBody())
			}
			r.kind, r.body, r.hasBody = "multipart", nil, false
		case "form-urlencoded":
			r.form = r.orderedBody()
			r.kind, r.body, r.hasBody = "form", nil, false
		case "raw":
			r.kind = "raw"
		}
	}
	r.json = responseFormat != "file" && contentType != "raw"
	if responseFormat == "file" && r.kind == "json" && r.hasBody && slices.Contains(bodyMethods, r.method) {
		r.headers.set("Content-Type", "application/json")
	}
	if mime, _ := options["bodyContentCustomMimeType"].(string); mime != "" {
		r.headers.set("Content-Type", mime)
	}
	if !r.headers.hasFold("accept") {
		r.headers.set("accept", acceptFor(responseFormat))
	}
	return r, nil
}

func acceptFor(responseFormat string) string {
	switch responseFormat {
	case "json":
		return "application/json,text/*;q=0.99"
	case "string":
		return "application/json,text/html,application/xhtml+xml,application/xml,text/*;q=0.9, */*;q=0.1"
	}
	return "application/json,text/html,application/xhtml+xml,application/xml,text/*;q=0.9, image/*;q=0.8, */*;q=0.7"
}

var jsonParameterNames = []struct{ param, target, display string }{
	{"bodyParametersJson", "body", "Body Parameters"},
	{"headerParametersJson", "headers", "Headers"},
	{"queryParametersJson", "qs", "Query Paramters"},
}

// jsonParameters reads body, headers and query given as JSON (or a raw body).
func (r *request) jsonParameters(ex *nodes.Execution, contentType string, i int) error {
	sendBinary, err := ex.ParamBool("sendBinaryData", i)
	if err != nil {
		return err
	}
	for _, p := range jsonParameterNames {
		if p.target == "body" && sendBinary {
			if err := r.binaryBody(ex, contentType, i); err != nil {
				return err
			}
			continue
		}
		v, err := ex.ParamOr(p.param, i, "")
		if err != nil {
			return err
		}
		if s, ok := v.(string); ok {
			if s == "" {
				continue
			}
			if !(p.target == "body" && contentType == "raw") {
				parsed, err := workflow.DecodeJSONValue([]byte(s))
				if err != nil {
					return nodes.Errorf(i, "The data in %q is no valid JSON. Set Body Content Type to \"RAW/Custom\" for XML or other types of payloads", p.display)
				}
				v = parsed
			}
		}
		switch p.target {
		case "body":
			r.body, r.hasBody = v, true
		case "headers":
			r.headers = toKV(v)
		case "qs":
			r.qs = toKV(v)
		}
	}
	return nil
}

// uiParameters reads body, headers and query given as name/value lists. Repeated query names
// become lists; header names are lower-cased.
func (r *request) uiParameters(ex *nodes.Execution, i int) error {
	for _, name := range []string{"bodyParametersUi", "headerParametersUi", "queryParametersUi"} {
		entries, err := ex.ParamList(name+".parameter", i)
		if err != nil {
			return err
		}
		set, err := ex.Param(name+".parameter", i)
		if err != nil {
			return err
		}
		if set == nil {
			continue
		}
		var list kvList
		for _, e := range entries {
			key := fmt.Sprint(cmp.Or(e["name"], any("")))
			v := e["value"]
			switch name {
			case "queryParametersUi":
				if old, ok := list.get(key); ok {
					if l, isList := old.([]any); isList {
						v = append(l, v)
					} else if s, isStr := old.(string); isStr {
						v = []any{s, v}
					}
				}
			case "headerParametersUi":
				key = strings.ToLower(key)
			}
			list.set(key, v)
		}
		switch name {
		case "bodyParametersUi":
			body := make(map[string]any, len(list))
			for _, kv := range list {
				body[kv.key] = kv.val
			}
			r.body, r.hasBody = body, true
			r.bodyList = list
		case "headerParametersUi":
			r.headers = list
		default:
			r.qs = list
		}
	}
	return nil
}

// binaryBody sends binary properties of the item: the whole body (raw) or multipart files
// ("name:property" pairs, or one property sent as "file").
func (r *request) binaryBody(ex *nodes.Execution, contentType string, i int) error {
	if contentType != "raw" && contentType != "multipart-form-data" {
		return nodes.Errorf(i, "Sending binary data is only supported when option \"Body Content Type\" is set to \"RAW/CUSTOM\" or \"FORM-DATA/MULTIPART\"!")
	}
	item := ex.InputData(0)[i]
	if item.Binary == nil {
		return nodes.Errorf(i, "No binary data exists on item!")
	}
	prop, err := ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return err
	}
	read := func(name string) (part, error) {
		b, ok := item.Binary[name]
		if !ok {
			return part{}, nodes.Errorf(i, "No binary data property %q does not exists on item!", name)
		}
		data, err := nodes.BinaryBytes(b)
		if err != nil {
			return part{}, nodes.Errorf(i, "%v", err)
		}
		return part{fileName: b.FileName, contentType: b.MimeType, value: data, file: true}, nil
	}
	if contentType == "raw" {
		p, err := read(prop)
		if err != nil {
			return err
		}
		r.body, r.hasBody = p.value, true
		return nil
	}
	names := strings.Split(prop, ",")
	r.multipart = []part{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		field, property := "file", n
		if k, v, ok := strings.Cut(n, ":"); ok {
			field, property = k, v
		} else if len(names) > 1 {
			return nodes.Errorf(i, "If more than one property should be send it is needed to define the in the format:<code>\"sendKey1:binaryProperty1,sendKey2:binaryProperty2\"</code>")
		}
		p, err := read(property)
		if err != nil {
			return err
		}
		p.name = field
		r.multipart = append(r.multipart, p)
	}
	return nil
}

func (r *request) orderedBody() kvList {
	if r.bodyList != nil {
		return r.bodyList
	}
	return toKV(r.body)
}

// fieldsToParts turns body parameters into multipart fields.
func fieldsToParts(body kvList) []part {
	var parts []part
	for _, kv := range body {
		for _, v := range asList(kv.val) {
			parts = append(parts, part{name: kv.key, value: []byte(jsString(v))})
		}
	}
	return parts
}

func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return []any{v}
}
