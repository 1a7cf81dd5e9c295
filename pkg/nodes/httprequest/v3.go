package httprequest

import (
	"context"
	_ "embed"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v3.json
var v3JSON []byte

// TypeV3 returns versions 3 to 4.2 (n8n's HttpRequestV3): query, headers and body each given as
// fields or JSON, the response format detected from its content type, batching, pagination and
// Never Error. 4 follows redirects by default and sets nested JSON body fields by path; 4.1
// stops non-GET requests following redirects when they are turned off; 4.2 sends form-data
// fields in order, repeated names included.
func TypeV3() nodes.Type {
	return nodes.Define(v3JSON, nodes.KindAction, executeV3)
}

// v3DefaultTimeout applies when the timeout option is not set.
const v3DefaultTimeout = 5 * time.Minute

// responseOptions are the node's "Response" option, read for item 0 as n8n does when it turns
// responses into items.
type responseOptions struct {
	format       string // autodetect, file, json or text
	full         bool
	neverError   bool
	outputField  string
	rawBodyParse bool // the request was sent without JSON parsing of the answer (raw body)
}

func readResponseOptions(options map[string]any) responseOptions {
	r, _ := nested(options, "response", "response")
	o := responseOptions{format: "autodetect", outputField: "data"}
	if f, _ := r["responseFormat"].(string); f != "" {
		o.format = f
	}
	o.full, _ = r["fullResponse"].(bool)
	o.neverError, _ = r["neverError"].(bool)
	if f, _ := r["outputPropertyName"].(string); f != "" {
		o.outputField = f
	}
	return o
}

// optionsV3 evaluates the options for an item but for Pagination, whose expressions refer to
// answers and are resolved for each page.
func optionsV3(ex *nodes.Execution, i int) (map[string]any, error) {
	raw, _ := workflow.LookupPath(ex.Node().Parameters, "options")
	m, ok := asMap(raw)
	if !ok {
		return map[string]any{}, nil
	}
	rest := make(map[string]any, len(m))
	for k, v := range m {
		if k != "pagination" {
			rest[k] = v
		}
	}
	v, err := ex.Evaluate(rest, i)
	if err != nil {
		return nil, &nodes.Error{Name: "ExpressionError", Message: err.Error(), Parameter: "options", ItemIndex: i, Cause: err}
	}
	out, _ := asMap(v)
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// nested reads a fixedCollection option's values: options[name][group].
func nested(options map[string]any, name, group string) (map[string]any, bool) {
	outer, ok := asMap(options[name])
	if !ok {
		return nil, false
	}
	inner, ok := asMap(outer[group])
	return inner, ok
}

func asMap(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case *workflow.Object:
		return x.ToMap(), true
	}
	return nil, false
}

func executeV3(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	auth, err := loadAuth(ctx, ex)
	if err != nil {
		return nil, err
	}
	options0, err := optionsV3(ex, 0)
	if err != nil {
		return nil, err
	}
	ro := readResponseOptions(options0)
	pag, err := readPagination(ex, ro)
	if err != nil {
		return nil, err
	}
	out := make([]workflow.Item, 0, len(items))
	for i := range items {
		fail := func(err error, item any) error {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !ex.ContinueOnFail() {
				return err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", item), PairedItem: &workflow.PairedItems{{Item: i}}})
			return nil
		}
		req, err := buildRequestV3(ctx, ex, i)
		if err != nil {
			if err := fail(itemError(err, i), err.Error()); err != nil {
				return nil, err
			}
			continue
		}
		var pages []*response
		if pag != nil {
			pages, err = paginate(ctx, ex, auth, req, pag, i)
		} else {
			var res *response
			res, err = sendItem(ctx, ex, auth, req, i)
			pages = []*response{res}
		}
		if err != nil {
			if se, ok := err.(*statusError); ok && !req.json && !se.paginated {
				// The request helper hands over an answer it did not parse as text.
				se.body = string(se.res.body)
			}
			if err := fail(apiError(err, i), errorJSON(err)); err != nil {
				return nil, err
			}
			continue
		}
		for _, res := range pages {
			produced, err := responseItems(ro, res, req, pag != nil, items[i], i)
			if err != nil {
				if err := fail(itemError(err, i), err.Error()); err != nil {
					return nil, err
				}
				break
			}
			out = append(out, produced...)
		}
	}
	return [][]workflow.Item{out}, nil
}

// itemError names the item on an error that does not yet name one.
func itemError(err error, i int) error {
	if ne, ok := err.(*nodes.Error); ok && ne.ItemIndex < 0 {
		ne.ItemIndex = i
	}
	return err
}

// buildRequestV3 reads one item's request, waiting first when batching says so.
func buildRequestV3(ctx context.Context, ex *nodes.Execution, i int) (*request, error) {
	version := ex.TypeVersion()
	options, err := optionsV3(ex, i)
	if err != nil {
		return nil, err
	}
	if err := batchPauseV3(ctx, ex, options, i); err != nil {
		return nil, err
	}
	if on, _ := ex.Node().Parameters["provideSslCertificates"].(bool); on {
		return nil, nodes.Errorf(i, "SSL client certificates (the httpSslAuth credential) are not supported")
	}
	rawURL, err := ex.Param("url", i)
	if err != nil {
		return nil, err
	}
	u, ok := rawURL.(string)
	if !ok {
		kind := "null"
		if rawURL != nil {
			kind = jsTypeOf(rawURL)
		}
		return nil, nodes.Errorf(i, "URL parameter must be a string, got %s", kind)
	}
	u = strings.TrimSpace(u)
	if u == "" {
		return nil, nodes.Errorf(i, "URL parameter cannot be empty")
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return nil, nodes.Errorf(i, "Invalid URL: %s. URL must start with \"http\" or \"https\".", u)
	}
	method, err := ex.ParamString("method", i)
	if err != nil {
		return nil, err
	}
	r := &request{method: cmpOr(method, "GET"), url: u, timeout: v3DefaultTimeout, arrayFormat: arrayBrackets, kind: "json"}
	r.insecure, _ = options["allowUnauthorizedCerts"].(bool)
	r.proxy, _ = options["proxy"].(string)
	if t, ok := workflow.Number(options["timeout"]); ok && t > 0 {
		r.timeout = time.Duration(t * float64(time.Millisecond))
	}
	// Version 3 follows redirects only when told to; 4 and later unless told not to.
	redirect, hasRedirect := nested(options, "redirect", "redirect")
	follow := version >= 4
	if hasRedirect {
		if b, ok := redirect["followRedirects"].(bool); ok {
			follow = b
		}
		if n, ok := workflow.Number(redirect["maxRedirects"]); ok && n > 0 {
			r.maxRedirects = int(n)
		}
	}
	r.followGet, r.followAll = follow, follow
	ro := readResponseOptions(options)
	r.ignoreStatus = ro.neverError

	sendQuery, _ := ex.ParamBool("sendQuery", i)
	if sendQuery {
		if f, _ := options["queryParameterArrays"].(string); f != "" {
			r.arrayFormat = map[string]string{"indices": arrayIndices, "brackets": arrayBrackets, "repeat": arrayRepeat}[f]
		}
		if r.qs, err = keypairOrJSON(ex, i, "specifyQuery", "queryParameters.parameters", "jsonQuery", "JSON Query Parameters"); err != nil {
			return nil, err
		}
	}
	if sendHeaders, _ := ex.ParamBool("sendHeaders", i); sendHeaders {
		headers, err := keypairOrJSON(ex, i, "specifyHeaders", "headerParameters.parameters", "jsonHeaders", "JSON Headers")
		if err != nil {
			return nil, err
		}
		lower, set := options["lowercaseHeaders"].(bool)
		for _, h := range headers {
			if !set || lower {
				h.key = strings.ToLower(h.key)
			}
			r.headers.set(h.key, h.val)
		}
	}
	if sendBody, _ := ex.ParamBool("sendBody", i); sendBody {
		if err := r.bodyV3(ex, version, i); err != nil {
			return nil, err
		}
	}
	// The answer is parsed as JSON when asked for JSON or text; else it is read as bytes.
	r.json = !(ro.format == "autodetect" || ro.format == "file" || r.kind == "raw")
	if !r.headers.hasFold("accept") {
		format := ro.format
		if format == "text" {
			format = "string"
		}
		r.headers.set("accept", acceptFor(format))
	}
	return r, nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// jsTypeOf is JavaScript's typeof for parameter values.
func jsTypeOf(v any) string {
	switch v.(type) {
	case bool:
		return "boolean"
	case string:
		return "string"
	case nil:
		return "undefined"
	}
	if _, ok := workflow.Number(v); ok {
		return "number"
	}
	return "object"
}

// batchPauseV3 waits batchInterval ms before every batchSize-th item; a batch size below 1
// counts as 1, as in n8n.
func batchPauseV3(ctx context.Context, ex *nodes.Execution, options map[string]any, i int) error {
	batch, ok := nested(options, "batching", "batch")
	if !ok || i == 0 {
		return nil
	}
	size, _ := workflow.Number(batch["batchSize"])
	interval, _ := workflow.Number(batch["batchInterval"])
	if size < 1 {
		size = 1
	}
	if interval <= 0 || i%int(size) != 0 {
		return nil
	}
	return ex.Sleep(ctx, time.Duration(interval*float64(time.Millisecond)))
}

// keypairOrJSON reads query parameters or headers given as name/value fields (a later name
// replaces an earlier one) or as JSON.
func keypairOrJSON(ex *nodes.Execution, i int, specifyParam, listParam, jsonParam, display string) (kvList, error) {
	specify, err := ex.ParamString(specifyParam, i)
	if err != nil {
		return nil, err
	}
	if specify == "json" {
		v, err := ex.ParamOr(jsonParam, i, "")
		if err != nil {
			return nil, err
		}
		parsed, err := parseJSONParam(v, display, i)
		if err != nil {
			return nil, err
		}
		return toKV(parsed), nil
	}
	entries, err := ex.ParamList(listParam, i)
	if err != nil {
		return nil, err
	}
	var l kvList
	for _, e := range entries {
		name := jsString(e["name"])
		if name == "" && listParam == "headerParameters.parameters" {
			continue
		}
		l.set(name, e["value"])
	}
	return l, nil
}

// parseJSONParam parses a JSON field; a value an expression already made an object is kept.
func parseJSONParam(v any, display string, i int) (any, error) {
	s, ok := v.(string)
	if !ok {
		return v, nil
	}
	parsed, err := workflow.DecodeJSONValue([]byte(s))
	if err != nil {
		return nil, &nodes.Error{Message: fmt.Sprintf("The value in the %q field is not valid JSON", display),
			Description: jsonErrorText(err), ItemIndex: i}
	}
	return parsed, nil
}

func jsonErrorText(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// bodyV3 reads the body: JSON (fields or text), form-urlencoded (fields or one query string),
// form-data fields and files, a binary property, or raw text with its content type.
func (r *request) bodyV3(ex *nodes.Execution, version float64, i int) error {
	contentType, err := ex.ParamString("contentType", i)
	if err != nil {
		return err
	}
	contentType = cmpOr(contentType, "json")
	specify, err := ex.ParamString("specifyBody", i)
	if err != nil {
		return err
	}
	fields, err := ex.ParamList("bodyParameters.parameters", i)
	if err != nil {
		return err
	}
	var body any
	hasBody := true
	switch {
	case contentType == "multipart-form-data":
		if r.multipart, err = formDataParts(ex, fields, version, i); err != nil {
			return err
		}
	case specify == "keypair":
		if contentType == "json" && version >= 4 {
			obj := workflow.NewObject(len(fields))
			for _, f := range fields {
				setPath(obj, jsString(f["name"]), f["value"])
			}
			body = obj
		} else {
			var l kvList
			for _, f := range fields {
				l.set(jsString(f["name"]), f["value"])
			}
			body = kvObject(l)
		}
	case specify == "json":
		v, err := ex.ParamOr("jsonBody", i, "")
		if err != nil {
			return err
		}
		if body, err = parseJSONParam(v, "JSON Body", i); err != nil {
			return err
		}
	case specify == "string":
		text, err := ex.ParamString("body", i)
		if err != nil {
			return err
		}
		// As URLSearchParams reads it: a later name replaces an earlier one.
		var l kvList
		for _, pair := range strings.Split(text, "&") {
			if pair == "" {
				continue
			}
			k, v, _ := strings.Cut(pair, "=")
			l.set(formUnescape(k), formUnescape(v))
		}
		body = kvObject(l)
	default:
		hasBody = false
	}

	// n8n changes how the body is sent only for these methods; others send it as JSON.
	switch r.method {
	case "PATCH", "POST", "PUT", "GET":
	default:
		if contentType == "multipart-form-data" {
			body = partsObject(r.multipart)
			r.multipart = nil
		}
		contentType = "json"
	}
	switch contentType {
	case "multipart-form-data":
		r.kind = "multipart"
	case "form-urlencoded":
		r.kind = "form"
		r.form = toKV(body)
	case "binaryData":
		field, err := ex.ParamString("inputDataFieldName", i)
		if err != nil {
			return err
		}
		b, data, err := inputBinary(ex, field, i)
		if err != nil {
			return err
		}
		r.kind, r.body, r.hasBody = "raw", data, true
		r.headers.set("content-type", cmpOr(b.MimeType, "application/octet-stream"))
	case "raw":
		text, err := ex.ParamString("body", i)
		if err != nil {
			return err
		}
		rawType, err := ex.ParamString("rawContentType", i)
		if err != nil {
			return err
		}
		r.kind, r.body, r.hasBody = "raw", []byte(text), true
		if rawType != "" {
			r.headers.set("content-type", rawType)
		}
	default:
		if hasBody && body != nil {
			r.kind, r.body, r.hasBody = "json", body, true
		}
	}
	return nil
}

// formUnescape decodes a form component; a broken escape is kept as written.
func formUnescape(s string) string {
	s = strings.ReplaceAll(s, "+", " ")
	if out, err := url.PathUnescape(s); err == nil {
		return out
	}
	return s
}

// kvObject makes an ordered list an object, for JSON bodies.
func kvObject(l kvList) *workflow.Object {
	o := workflow.NewObject(len(l))
	for _, e := range l {
		o.Set(e.key, e.val)
	}
	return o
}

// partsObject is form-data fields sent as a JSON body (methods n8n sends no form-data with).
func partsObject(parts []part) *workflow.Object {
	o := workflow.NewObject(len(parts))
	for _, p := range parts {
		if !p.file {
			o.Set(p.name, string(p.value))
		}
	}
	return o
}

// formDataParts reads form-data fields and files. From 4.2 every field is sent in order, a
// repeated name included; before, a later field replaces an earlier one of the same name.
func formDataParts(ex *nodes.Execution, fields []map[string]any, version float64, i int) ([]part, error) {
	parts := []part{}
	for _, f := range fields {
		name := jsString(f["name"])
		var p part
		if f["parameterType"] == "formBinaryData" {
			field := jsString(f["inputDataFieldName"])
			if field == "" {
				continue
			}
			b, data, err := inputBinary(ex, field, i)
			if err != nil {
				return nil, err
			}
			p = part{name: name, fileName: cmpOr(b.FileName, "file"), contentType: b.MimeType, value: data, file: true}
		} else {
			p = part{name: name, value: []byte(jsString(f["value"]))}
		}
		if version < 4.2 {
			if at := indexPart(parts, name); at >= 0 {
				parts[at] = p
				continue
			}
		}
		parts = append(parts, p)
	}
	return parts, nil
}

func indexPart(parts []part, name string) int {
	for i, p := range parts {
		if p.name == name {
			return i
		}
	}
	return -1
}

// inputBinary reads a binary property of the item, with n8n's assertBinaryData errors.
func inputBinary(ex *nodes.Execution, field string, i int) (workflow.BinaryData, []byte, error) {
	item := ex.InputData(0)[i]
	if item.Binary == nil {
		return workflow.BinaryData{}, nil, nodes.Errorf(i, "No binary data exists on item!")
	}
	b, ok := item.Binary[field]
	if !ok {
		return workflow.BinaryData{}, nil, nodes.Errorf(i, "Item has no binary property called %q", field)
	}
	data, err := nodes.BinaryBytes(b)
	if err != nil {
		return workflow.BinaryData{}, nil, nodes.Errorf(i, "%v", err)
	}
	return b, data, nil
}

// setPath sets a value at a lodash path ("a.b", "a[0].c") in obj, making objects and lists on
// the way, as lodash's set does.
func setPath(obj *workflow.Object, path string, v any) {
	keys := splitPath(path)
	if len(keys) == 0 {
		keys = []string{""}
	}
	setIn(obj, keys, v)
}

// setIn sets keys' value in container and returns the container (a list may have grown).
func setIn(container any, keys []string, v any) any {
	k := keys[0]
	if len(keys) == 1 {
		return assign(container, k, v)
	}
	child := lookup(container, k)
	if !isContainer(child) {
		if isIndex(keys[1]) {
			child = []any{}
		} else {
			child = workflow.NewObject(0)
		}
	}
	return assign(container, k, setIn(child, keys[1:], v))
}

func lookup(container any, k string) any {
	switch c := container.(type) {
	case *workflow.Object:
		return c.Get(k)
	case []any:
		if n := atoi(k); isIndex(k) && n < len(c) {
			return c[n]
		}
	}
	return nil
}

func assign(container any, k string, v any) any {
	switch c := container.(type) {
	case *workflow.Object:
		c.Set(k, v)
	case []any:
		if !isIndex(k) {
			return c
		}
		n := atoi(k)
		for len(c) <= n {
			c = append(c, nil)
		}
		c[n] = v
		return c
	}
	return container
}

func isContainer(v any) bool {
	switch v.(type) {
	case *workflow.Object, []any:
		return true
	}
	return false
}

// isIndex tells a list index in a path; indexes past 9999 are taken as object keys, so a path
// cannot make the node build a huge list.
func isIndex(k string) bool {
	if k == "" || len(k) > 4 {
		return false
	}
	for _, c := range k {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// splitPath splits a lodash path: dots and [index] or ["key"] brackets.
func splitPath(path string) []string {
	var keys []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			keys = append(keys, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(path); i++ {
		switch c := path[i]; c {
		case '.':
			flush()
		case '[':
			flush()
			end := strings.IndexByte(path[i:], ']')
			if end < 0 {
				cur.WriteString(path[i:])
				i = len(path)
				continue
			}
			inner := path[i+1 : i+end]
			inner = strings.Trim(inner, `"'`)
			keys = append(keys, inner)
			i += end
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return keys
}
