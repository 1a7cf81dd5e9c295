package httprequest

import (
	"context"
	"crypto/md5"
	"encoding/base64"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/httpauth"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// paginationSpec is the Pagination option as n8n's request helper receives it: expressions
// kept unevaluated, resolved before each request with $response, $request and $pageCount.
type paginationSpec struct {
	mode string
	// request holds url (next URL mode) or qs, headers and body values (parameter mode).
	request     map[string]any
	continueOn  string // expression: another request is made while it is true
	maxRequests any    // nil when pages are not limited
	interval    any
	binary      bool // file responses: bodies are not read for $response
}

// readPagination reads the Pagination option of item 0 (n8n reads it once, unevaluated); nil
// when it is off.
func readPagination(ex *nodes.Execution, ro responseOptions) (*paginationSpec, error) {
	raw, _ := workflow.LookupPath(ex.Node().Parameters, "options.pagination.pagination")
	p, ok := asMap(raw)
	if !ok {
		return nil, nil
	}
	str := func(k, def string) string {
		if s, ok := p[k].(string); ok && s != "" {
			return s
		}
		return def
	}
	spec := &paginationSpec{mode: str("paginationMode", "updateAParameterInEachRequest"), request: map[string]any{},
		interval: p["requestInterval"], binary: ro.format == "file"}
	if spec.mode == "off" {
		return nil, nil
	}
	switch str("paginationCompleteWhen", "responseIsEmpty") {
	case "receiveSpecificStatusCodes":
		var codes []string
		for _, c := range strings.Split(str("statusCodesWhenComplete", ""), ",") {
			if n, err := strconv.Atoi(leadingDigits(strings.TrimSpace(c))); err == nil {
				codes = append(codes, strconv.Itoa(n))
			} else {
				codes = append(codes, "null")
			}
		}
		spec.continueOn = fmt.Sprintf("={{ ![%s].includes($response.statusCode) }}", strings.Join(codes, ","))
	case "responseIsEmpty":
		spec.continueOn = "={{ Array.isArray($response.body) ? $response.body.length : !!$response.body }}"
	default:
		expr := str("completeExpression", "")
		if !strings.HasPrefix(expr, "=") {
			return nil, nodes.Errorf(-1, "Invalid or empty Complete Expression")
		}
		expr = strings.TrimSpace(expr)
		inner := ""
		if len(expr) >= 5 {
			inner = expr[3 : len(expr)-2]
		}
		if ro.neverError {
			spec.continueOn = "={{ !(" + inner + ") }}"
		} else {
			// Without Never Error an answer outside 2xx ends in an error rather than a last page.
			spec.continueOn = "={{ !(" + inner + ") || ($response.statusCode < 200 || $response.statusCode >= 300) }}"
		}
	}
	if spec.mode == "updateAParameterInEachRequest" {
		list, _ := workflow.LookupPath(p, "parameters.parameters")
		entries, _ := list.([]any)
		if len(entries) == 1 {
			if e, ok := asMap(entries[0]); ok && jsString(e["name"]) == "" && jsString(e["value"]) == "" {
				return nil, nodes.Errorf(-1, "At least one entry with 'Name' and 'Value' filled must be included in 'Parameters' to use 'Update a Parameter in Each Request' mode ")
			}
		}
		for n, raw := range entries {
			e, _ := asMap(raw)
			name := jsString(e["name"])
			if name == "" {
				return nil, nodes.Errorf(-1, "Parameter name must be set for parameter [%d] in pagination settings", n+1)
			}
			typ := jsString(e["type"])
			if typ == "" {
				typ = "qs"
			}
			if typ != "body" && typ != "headers" && typ != "qs" {
				return nil, nodes.Errorf(-1, "Parameter type must be one of: body, headers, qs for parameter [%d] in pagination settings", n+1)
			}
			if e["value"] == nil || e["value"] == "" {
				return nil, nodes.Errorf(-1, "Some value must be provided for parameter [%d] in pagination settings, omitting it will result in an infinite loop", n+1)
			}
			group, _ := spec.request[typ].(map[string]any)
			if group == nil {
				group = map[string]any{}
				spec.request[typ] = group
			}
			group[name] = e["value"]
		}
	} else if spec.mode == "responseContainsNextURL" {
		spec.request["url"] = p["nextURL"]
	}
	if limit, _ := p["limitPagesFetched"].(bool); limit {
		spec.maxRequests = p["maxRequests"]
		if spec.maxRequests == nil {
			spec.maxRequests = float64(100)
		}
	}
	return spec, nil
}

func leadingDigits(s string) string {
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && (s[end] == '-' || s[end] == '+')) {
		end++
	}
	return s[:end]
}

// maxIdenticalPages stops pagination that keeps getting the same answer.
const maxIdenticalPages = 2

// paginate sends an item's request, then further ones with the pagination parameters, until
// the completion rule or the page limit says stop; it returns every answer.
func paginate(ctx context.Context, ex *nodes.Execution, auth *httpauth.Auth, base *request, spec *paginationSpec, i int) ([]*response, error) {
	additional := map[string]any{
		"$request":   base.asJSON(),
		"$response":  map[string]any{},
		"$version":   ex.TypeVersion(),
		"$pageCount": 0,
	}
	var pages []*response
	var prevLength, identical int
	prevHash := ""
	for {
		resolved, err := ex.EvaluateWith(spec.request, i, additional)
		if err != nil {
			return nil, err
		}
		req, err := base.withPagination(resolved)
		if err != nil {
			field := "URL"
			if spec.mode == "responseContainsNextURL" {
				field = "Next URL"
			}
			return nil, &nodes.Error{Message: err.Error(), Description: fmt.Sprintf("Make sure the %q parameter evaluates to a valid URL.", field), ItemIndex: i}
		}
		req.ignoreStatus, req.page = true, len(pages)
		res, err := sendItem(ctx, ex, auth, req, i)
		if err != nil {
			return nil, err
		}
		var body any
		switch {
		case spec.binary:
			body = string(res.body)
		case base.json:
			body = parsedBody(res.body)
		default:
			body = resolvedBody(res)
		}
		if !spec.binary || res.header.Get("Etag") != "" {
			length, _ := strconv.Atoi(res.header.Get("Content-Length"))
			if length == prevLength {
				hash := res.header.Get("Etag")
				if hash == "" {
					sum := md5.Sum(res.body)
					hash = base64.StdEncoding.EncodeToString(sum[:])
				}
				if hash == prevHash {
					identical++
					if identical > maxIdenticalPages {
						return nil, &nodes.Error{Message: "The returned response was identical 5x, so requests got stopped",
							Description: "Check if \"Pagination Completed When\" has been configured correctly.", ItemIndex: i}
					}
				} else {
					identical = 0
				}
				prevHash = hash
			} else {
				identical = 0
			}
			prevLength = length
		}
		pages = append(pages, res)
		additional["$response"] = map[string]any{"body": body, "headers": headerJSON(res.header), "statusCode": float64(res.status)}
		additional["$pageCount"] = len(pages)

		if spec.maxRequests != nil {
			limit, err := ex.EvaluateWith(spec.maxRequests, i, additional)
			if err != nil {
				return nil, err
			}
			if n, ok := workflow.Number(limit); ok && n > 0 && float64(len(pages)) >= n {
				break
			}
		}
		more, err := ex.EvaluateWith(spec.continueOn, i, additional)
		if err != nil {
			return nil, err
		}
		if !jsTruthy(more) {
			break
		}
		if spec.interval != nil {
			wait, err := ex.EvaluateWith(spec.interval, i, additional)
			if err != nil {
				return nil, err
			}
			if ms, ok := workflow.Number(wait); ok && ms > 0 {
				if err := ex.Sleep(ctx, time.Duration(ms*float64(time.Millisecond))); err != nil {
					return nil, err
				}
			}
		}
		if res.status < 200 || res.status >= 300 {
			var errBody any = string(res.body)
			if base.json {
				errBody = parsedBody(res.body)
			}
			return nil, &statusError{status: res.status, body: errBody, res: res, paginated: true}
		}
	}
	return pages, nil
}

func jsTruthy(v any) bool {
	switch x := v.(type) {
	case nil, undefinedValue:
		return false
	case bool:
		return x
	case string:
		return x != ""
	}
	if n, ok := workflow.Number(v); ok {
		return n != 0 && n == n
	}
	return true
}

// asJSON is the request as $request shows it.
func (r *request) asJSON() map[string]any {
	qs := map[string]any{}
	for _, e := range r.qs {
		qs[e.key] = e.val
	}
	headers := map[string]any{}
	for _, e := range r.headers {
		headers[e.key] = e.val
	}
	out := map[string]any{"method": r.method, "uri": r.url, "qs": qs, "headers": headers}
	switch {
	case r.kind == "form":
		out["form"] = kvObject(r.form)
	case r.kind == "multipart":
		out["formData"] = partsObject(r.multipart)
	case r.hasBody:
		if b, ok := r.body.([]byte); ok {
			out["body"] = string(b)
		} else {
			out["body"] = r.body
		}
	}
	return out
}

// withPagination is a copy of the request with the resolved pagination values merged in: a
// next URL, or query, header and body values. Values that resolved to undefined change nothing.
func (r *request) withPagination(resolved any) (*request, error) {
	c := *r
	c.qs = append(kvList(nil), r.qs...)
	c.headers = append(kvList(nil), r.headers...)
	c.form = append(kvList(nil), r.form...)
	c.multipart = append([]part(nil), r.multipart...)
	m, _ := asMap(resolved)
	if u, ok := m["url"]; ok && u != nil {
		s := jsString(u)
		if p, err := url.Parse(s); err != nil || p.Scheme == "" || p.Host == "" {
			return nil, fmt.Errorf("'%s' is not a valid URL.", s)
		}
		c.url = s
		// A full next URL brings its own query: drop the same names from the parameters.
		if p, _ := url.Parse(s); p != nil {
			for name := range p.Query() {
				c.qs = removeKey(c.qs, name)
			}
		}
	}
	if qs, ok := asMap(m["qs"]); ok {
		for _, e := range toKV(qs) {
			c.qs.set(e.key, e.val)
		}
	}
	if h, ok := asMap(m["headers"]); ok {
		for _, e := range toKV(h) {
			c.headers.set(e.key, e.val)
		}
	}
	if b, ok := asMap(m["body"]); ok {
		switch c.kind {
		case "form":
			for _, e := range toKV(b) {
				c.form.set(e.key, e.val)
			}
		case "multipart":
			for _, e := range toKV(b) {
				p := part{name: e.key, value: []byte(jsString(e.val))}
				if at := indexPart(c.multipart, e.key); at >= 0 {
					c.multipart[at] = p
				} else {
					c.multipart = append(c.multipart, p)
				}
			}
		default:
			obj := workflow.NewObject(0)
			if cur, ok := c.body.(*workflow.Object); ok && c.hasBody {
				obj = cur.Clone()
			} else if cur, ok := asMap(c.body); ok && c.hasBody {
				obj = workflow.ObjectFromMap(cur)
			}
			for _, e := range toKV(b) {
				obj.Set(e.key, e.val)
			}
			c.body, c.hasBody, c.kind = obj, true, "json"
		}
	}
	return &c, nil
}

func removeKey(l kvList, key string) kvList {
	out := l[:0:0]
	for _, e := range l {
		if e.key != key {
			out = append(out, e)
		}
	}
	return out
}
