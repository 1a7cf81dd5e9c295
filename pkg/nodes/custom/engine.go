package custom

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// request is the request one item's parameters build, as n8n's DeclarativeRestApiSettings.
type request struct {
	method, baseURL, url string
	headers, qs          *workflow.Object
	body                 any
	ignoreStatus         bool
	user, password       string
	hasAuth              bool
	paginate             bool
	maxResults           int
	postReceive          []action
	pagination           *pagination
}

// response is what $response shows: body, headers and statusCode.
type response struct {
	status  int
	headers http.Header
	raw     []byte
	body    any
}

func (r *response) asJSON() map[string]any {
	h := map[string]any{}
	for k := range r.headers {
		h[strings.ToLower(k)] = r.headers.Get(k)
	}
	return map[string]any{"body": r.body, "headers": h, "statusCode": r.status}
}

// run is one item's evaluation state.
type run struct {
	ctx   context.Context
	ex    *nodes.Execution
	i     int
	creds map[string]any
}

func (r *run) eval(v any, extra map[string]any) (any, error) {
	add := map[string]any{"$credentials": r.creds, "$version": r.ex.TypeVersion()}
	maps.Copy(add, extra)
	return r.ex.EvaluateWith(v, r.i, add)
}

// execute is the generic declarative engine: per item it builds the request from
// requestDefaults and the routing of every shown property, authenticates it with the
// credential type's authenticate block, sends it (paginating when asked) through the egress
// policy, and turns the answers into items with the postReceive actions.
func execute(s *spec) nodes.NodeFunc {
	return func(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
		var out []workflow.Item
		for i := range ex.InputData(0) {
			items, err := executeItem(ctx, ex, s, i)
			if err != nil {
				if ex.ContinueOnFail() {
					out = append(out, ex.ErrorItem(err, i))
					continue
				}
				return nil, err
			}
			for n := range items {
				items[n].PairedItem = &workflow.PairedItems{{Item: i}}
			}
			out = append(out, items...)
		}
		return [][]workflow.Item{out}, nil
	}
}

func executeItem(ctx context.Context, ex *nodes.Execution, s *spec, i int) ([]workflow.Item, error) {
	r := &run{ctx: ctx, ex: ex, i: i}
	use, err := pickCredential(ex, s)
	if err != nil {
		return nil, err
	}
	var auth *Authenticate
	if use != nil {
		data, err := ex.Credentials(ctx, use.Name)
		switch {
		case err == nil:
			r.creds = data
			if a, ok := authenticators.Load(use.Name); ok {
				auth, _ = a.(*Authenticate)
			}
		case use.Required:
			return nil, err
		}
	}
	req := &request{method: http.MethodGet, headers: workflow.NewObject(0), qs: workflow.NewObject(0)}
	if s.RequestDefaults != nil {
		defaults, err := r.eval(s.RequestDefaults, nil)
		if err != nil {
			return nil, err
		}
		req.merge(defaults)
	}
	if s.RequestOperations != nil {
		req.pagination = s.RequestOperations.Pagination
	}
	params := ex.Node().Parameters
	for _, p := range s.Properties {
		if _, shown := params[p.Name]; !shown {
			continue
		}
		v, err := ex.Param(p.Name, i)
		if err != nil {
			return nil, err
		}
		if err := r.apply(req, p, v, nil); err != nil {
			return nil, err
		}
	}
	if auth != nil {
		if err := r.authenticate(req, auth); err != nil {
			return nil, err
		}
	}
	return r.send(req)
}

// pickCredential is the credential the node authenticates with, as n8n's routing node picks
// it: the only one described, else the one shown for the authentication parameter's value.
func pickCredential(ex *nodes.Execution, s *spec) (*credentialUse, error) {
	switch len(s.Credentials) {
	case 0:
		return nil, nil
	case 1:
		return &s.Credentials[0], nil
	}
	method := ex.Node().Parameters["authentication"]
	for n, c := range s.Credentials {
		if slices.ContainsFunc(c.DisplayOptions.Show.Authentication, func(v any) bool { return sameValue(v, method) }) {
			return &s.Credentials[n], nil
		}
	}
	return nil, nodes.Errorf(-1, "Node type \"%s\" does not have any credentials of type \"%v\" defined", ex.Node().Type, method)
}

// apply adds a property's routing, and that of the option or children its value selects.
// scope holds the keys a fixedCollection entry adds ($parent, $index).
func (r *run) apply(req *request, p prop, v any, scope map[string]any) error {
	if p.Routing != nil {
		if err := r.route(req, p.Routing, v, scope); err != nil {
			return err
		}
	}
	switch p.Type {
	case "options":
		for _, o := range p.Options {
			if o.Routing != nil && sameValue(o.Value, v) {
				if err := r.route(req, o.Routing, v, scope); err != nil {
					return err
				}
			}
		}
	case "collection":
		return r.applyChildren(req, p.Options, v, scope)
	case "fixedCollection":
		for _, group := range p.Options {
			gv, ok := workflow.LookupPath(v, group.Name)
			if !ok {
				continue
			}
			entries, isList := gv.([]any)
			if !isList {
				entries = []any{gv}
			}
			for n, e := range entries {
				if err := r.applyChildren(req, group.Values, e, map[string]any{"$parent": e, "$index": n}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *run) applyChildren(req *request, children []prop, v any, scope map[string]any) error {
	for _, c := range children {
		cv, ok := workflow.LookupPath(v, c.Name)
		if !ok || c.Name == "" {
			continue
		}
		if err := r.apply(req, c, cv, scope); err != nil {
			return err
		}
	}
	return nil
}

func sameValue(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// route applies one routing block with $value set to the property's value.
func (r *run) route(req *request, rt *routing, v any, scope map[string]any) error {
	extra := map[string]any{"$value": v}
	maps.Copy(extra, scope)
	if rt.Request != nil {
		m, err := r.eval(rt.Request, extra)
		if err != nil {
			return err
		}
		req.merge(m)
	}
	if sd := rt.Send; sd != nil {
		value := v
		if sd.Value != nil {
			var err error
			if value, err = r.eval(sd.Value, extra); err != nil {
				return err
			}
		}
		if sd.Paginate != nil {
			pg, err := r.eval(sd.Paginate, extra)
			if err != nil {
				return err
			}
			if workflow.Truthy(pg) {
				req.paginate = true
			}
		}
		name, err := r.eval(sd.Property, extra)
		if err != nil {
			return err
		}
		if key := fmt.Sprint(cmp.Or[any](name, "")); key != "" {
			dotted := sd.PropertyInDotNotation == nil || *sd.PropertyInDotNotation
			// As n8n: a send without type "body" goes to the query.
			if sd.Type == "body" {
				body, ok := req.body.(*workflow.Object)
				if !ok {
					body = workflow.NewObject(1)
					req.body = body
				}
				setKey(body, key, value, dotted)
			} else {
				setKey(req.qs, key, value, dotted)
			}
		}
	}
	if o := rt.Output; o != nil {
		for _, a := range o.PostReceive {
			a.value = v
			req.postReceive = append(req.postReceive, a)
		}
		if o.MaxResults != nil {
			m, err := r.eval(o.MaxResults, extra)
			if err != nil {
				return err
			}
			if f, ok := number(m); ok {
				req.maxResults = int(f)
			}
		}
	}
	if rt.Operations != nil && rt.Operations.Pagination != nil {
		req.pagination = rt.Operations.Pagination
	}
	return nil
}

func setKey(o *workflow.Object, key string, v any, dotted bool) {
	if dotted {
		workflow.SetPath(o, key, v)
		return
	}
	o.Set(key, v)
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// merge folds request options (an evaluated routing.request or requestDefaults) into req:
// scalars replace, headers, qs and body objects merge key by key.
func (req *request) merge(v any) {
	m, ok := workflow.AsObject(v)
	if !ok {
		if mm, isMap := v.(map[string]any); isMap {
			m = workflow.ObjectFromMap(mm)
		} else {
			return
		}
	}
	for k, val := range m.All() {
		switch k {
		case "method":
			req.method = strings.ToUpper(fmt.Sprint(val))
		case "url":
			req.url = fmt.Sprint(val)
		case "baseURL":
			req.baseURL = fmt.Sprint(val)
		case "headers":
			mergeInto(req.headers, val)
		case "qs":
			mergeInto(req.qs, val)
		case "body":
			if b, isObj := toObject(val); isObj {
				have, ok := req.body.(*workflow.Object)
				if !ok {
					have = workflow.NewObject(b.Len())
					req.body = have
				}
				mergeInto(have, b)
			} else {
				req.body = val
			}
		case "ignoreHttpStatusErrors":
			req.ignoreStatus = workflow.Truthy(val)
		}
	}
}

func toObject(v any) (*workflow.Object, bool) {
	if o, ok := workflow.AsObject(v); ok {
		return o, true
	}
	if m, ok := v.(map[string]any); ok {
		return workflow.ObjectFromMap(m), true
	}
	return nil, false
}

func mergeInto(dst *workflow.Object, v any) {
	src, ok := toObject(v)
	if !ok {
		return
	}
	for k, val := range src.All() {
		dst.Set(k, val)
	}
}

// authenticate adds a generic authenticate block's headers, qs, body and basic auth.
func (r *run) authenticate(req *request, a *Authenticate) error {
	if a.Type != "generic" {
		return nil
	}
	p := a.Properties
	for _, part := range []struct {
		dst *workflow.Object
		src map[string]string
	}{{req.headers, p.Headers}, {req.qs, p.QS}} {
		for _, k := range slices.Sorted(maps.Keys(part.src)) {
			name, err := r.eval(k, nil)
			if err != nil {
				return err
			}
			value, err := r.eval(part.src[k], nil)
			if err != nil {
				return err
			}
			part.dst.Set(fmt.Sprint(name), value)
		}
	}
	if len(p.Body) > 0 {
		b, err := r.eval(p.Body, nil)
		if err != nil {
			return err
		}
		req.merge(map[string]any{"body": b})
	}
	if p.Auth != nil {
		user, err := r.eval(p.Auth["username"], nil)
		if err != nil {
			return err
		}
		pass, err := r.eval(p.Auth["password"], nil)
		if err != nil {
			return err
		}
		req.user, req.password, req.hasAuth = fmt.Sprint(cmp.Or[any](user, "")), fmt.Sprint(cmp.Or[any](pass, "")), true
	}
	return nil
}

// maxPages bounds a pagination whose continue expression never turns false.
const maxPages = 1000

// send makes the request, paginating when a property asked for it, and returns the items.
func (r *run) send(req *request) ([]workflow.Item, error) {
	pg := req.pagination
	if !req.paginate || pg == nil {
		res, err := r.do(req)
		if err != nil {
			return nil, err
		}
		items, err := r.postReceive(req, res)
		if err != nil {
			return nil, err
		}
		return limit(items, req.maxResults), nil
	}
	if pg.Type == "offset" {
		return r.offsetPages(req, pg)
	}
	// As n8n: before every request (the first too, with an empty $response) the pagination's
	// request is evaluated and its keys replace the request's; continue decides on another.
	var all []workflow.Item
	last := map[string]any{}
	for page := 0; page < maxPages; page++ {
		extra := map[string]any{"$response": last, "$request": req.asJSON()}
		next, err := r.eval(pg.Properties["request"], extra)
		if err != nil {
			return nil, err
		}
		res, err := r.do(req.with(next))
		if err != nil {
			return nil, err
		}
		items, err := r.postReceive(req, res)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if req.maxResults > 0 && len(all) >= req.maxResults {
			return all[:req.maxResults], nil
		}
		last = res.asJSON()
		extra["$response"] = last
		more, err := r.eval(pg.Properties["continue"], extra)
		if err != nil {
			return nil, err
		}
		if !workflow.Truthy(more) {
			break
		}
	}
	return all, nil
}

// with returns a copy of req whose options named in v (evaluated pagination request options)
// replace its own whole, as n8n spreads them over the request.
func (req *request) with(v any) *request {
	out := *req
	out.headers, out.qs = req.headers.Clone(), req.qs.Clone()
	o, ok := toObject(v)
	if !ok {
		return &out
	}
	for k := range o.All() {
		switch k {
		case "headers":
			out.headers = workflow.NewObject(0)
		case "qs":
			out.qs = workflow.NewObject(0)
		case "body":
			out.body = nil
		}
	}
	out.merge(o)
	return &out
}

// asJSON is $request: the request options so far.
func (req *request) asJSON() map[string]any {
	return map[string]any{"method": req.method, "baseURL": req.baseURL, "url": req.url,
		"headers": req.headers, "qs": req.qs, "body": req.body}
}

// offsetPages is n8n's offset pagination: limitParameter and offsetParameter in the query or
// body, pageSize at a time, until a page comes back short.
func (r *run) offsetPages(req *request, pg *pagination) ([]workflow.Item, error) {
	props := pg.Properties
	size, _ := number(props["pageSize"])
	if size <= 0 {
		return nil, nodes.Errorf(r.i, "The pagination's pageSize must be a positive number")
	}
	limitName, offsetName := fmt.Sprint(props["limitParameter"]), fmt.Sprint(props["offsetParameter"])
	root, _ := props["rootProperty"].(string)
	var all []workflow.Item
	for offset := 0; offset < maxPages*int(size); offset += int(size) {
		pageLimit := int(size)
		if req.maxResults > 0 {
			missing := req.maxResults - len(all)
			if missing < 1 {
				break
			}
			pageLimit = min(pageLimit, missing)
		}
		if props["type"] == "body" {
			req.merge(map[string]any{"body": map[string]any{limitName: pageLimit, offsetName: offset}})
		} else {
			req.qs.Set(limitName, pageLimit)
			req.qs.Set(offsetName, offset)
		}
		res, err := r.do(req)
		if err != nil {
			return nil, err
		}
		items, err := r.postReceive(req, res)
		if err != nil {
			return nil, err
		}
		if root != "" {
			var v any
			if len(items) > 0 {
				v, _ = workflow.LookupPath(items[0].JSON, root)
			}
			list, ok := v.([]any)
			if !ok {
				return nil, nodes.Errorf(r.i, "The rootProperty \"%s\" could not be found on item.", root)
			}
			items = toItems(list)
		}
		all = append(all, items...)
		if len(items) == 0 || len(items) != int(size) {
			break
		}
	}
	return limit(all, req.maxResults), nil
}

func limit(items []workflow.Item, n int) []workflow.Item {
	if n > 0 && len(items) > n {
		return items[:n]
	}
	return items
}

func (req *request) target() (string, error) {
	u := req.url
	if req.baseURL != "" && !strings.Contains(u, "://") {
		u = strings.TrimSuffix(req.baseURL, "/") + "/" + strings.TrimPrefix(u, "/")
	}
	parsed, err := url.Parse(u)
	if err != nil || parsed.Host == "" {
		return "", fmt.Errorf("Invalid URL: %s", u)
	}
	q := parsed.Query()
	for k, v := range req.qs.All() {
		if v == nil { // undefined in n8n: left out
			continue
		}
		if list, ok := v.([]any); ok {
			for _, e := range list {
				q.Add(k, scalar(e))
			}
			continue
		}
		q.Set(k, scalar(v))
	}
	parsed.RawQuery = q.Encode()
	return parsed.String(), nil
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// do sends req once through the instance's HTTP client (the egress policy).
func (r *run) do(req *request) (*response, error) {
	target, err := req.target()
	if err != nil {
		return nil, nodes.Errorf(r.i, "%s", err.Error())
	}
	var body io.Reader
	if req.body != nil && req.method != http.MethodGet && req.method != http.MethodHead {
		b, err := json.Marshal(req.body)
		if err != nil {
			return nil, nodes.Errorf(r.i, "The request body cannot be encoded: %s", err)
		}
		body = bytes.NewReader(b)
	}
	hr, err := http.NewRequestWithContext(r.ctx, req.method, target, body)
	if err != nil {
		return nil, nodes.Errorf(r.i, "%s", err.Error())
	}
	hr.Header.Set("Accept", "application/json,text/*;q=0.99")
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.headers.All() {
		if v != nil {
			hr.Header.Set(k, scalar(v))
		}
	}
	if req.hasAuth {
		hr.SetBasicAuth(req.user, req.password)
	}
	res, err := r.ex.HTTPClient().Do(hr)
	if err != nil {
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: r.i, Cause: err}
	}
	defer res.Body.Close()
	maxBytes := r.ex.UnpackMaxBytes()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxBytes+1))
	if err != nil {
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: r.i, Cause: err}
	}
	if int64(len(raw)) > maxBytes {
		return nil, nodes.Errorf(r.i, "The response is larger than %d bytes", maxBytes)
	}
	out := &response{status: res.StatusCode, headers: res.Header, raw: raw}
	if v, err := workflow.DecodeJSONValue(raw); err == nil {
		out.body = v
	} else {
		out.body = string(raw)
	}
	if !req.ignoreStatus && (res.StatusCode < 200 || res.StatusCode > 299) {
		return nil, apiError(out, r.i)
	}
	return out, nil
}

// postReceive turns a response into items and runs the postReceive actions on them, with
// $response, $value (the items so far) and $responseItem (filter, setKeyValue) set.
func (r *run) postReceive(req *request, res *response) ([]workflow.Item, error) {
	items := toItems(res.body)
	for _, a := range req.postReceive {
		if a.Enabled != nil {
			on, err := r.eval(a.Enabled, map[string]any{"$response": res.asJSON(), "$value": a.value})
			if err != nil {
				return nil, err
			}
			if !workflow.Truthy(on) {
				continue
			}
		}
		var err error
		if items, err = r.runAction(a, items, res); err != nil {
			return nil, err
		}
	}
	return items, nil
}

func toItems(body any) []workflow.Item {
	switch b := body.(type) {
	case []any:
		out := make([]workflow.Item, 0, len(b))
		for _, e := range b {
			out = append(out, item(e))
		}
		return out
	case nil:
		return []workflow.Item{{JSON: workflow.NewObject(0)}}
	}
	return []workflow.Item{item(body)}
}

func item(v any) workflow.Item {
	if o, ok := toObject(v); ok {
		return workflow.Item{JSON: o}
	}
	return workflow.Item{JSON: workflow.ObjectOf("data", v)}
}

func (r *run) runAction(a action, items []workflow.Item, res *response) ([]workflow.Item, error) {
	props := a.Properties
	base := map[string]any{"$response": res.asJSON(), "$value": a.value}
	str := func(key string) (string, error) {
		v, err := r.eval(props[key], base)
		return fmt.Sprint(cmp.Or[any](v, "")), err
	}
	switch a.Type {
	case "rootProperty":
		key, err := str("property")
		if err != nil {
			return nil, err
		}
		var out []workflow.Item
		for _, it := range items {
			v, _ := workflow.LookupPath(it.JSON, key)
			if list, ok := v.([]any); ok {
				for _, e := range list {
					out = append(out, item(e))
				}
				continue
			}
			out = append(out, item(v))
		}
		return out, nil
	case "set":
		v, err := r.eval(props["value"], base)
		if err != nil {
			return nil, err
		}
		return []workflow.Item{item(v)}, nil
	case "setKeyValue":
		out := make([]workflow.Item, 0, len(items))
		for _, it := range items {
			o := workflow.NewObject(len(props))
			for _, k := range a.keys {
				v, err := r.eval(props[k], map[string]any{"$response": base["$response"], "$value": a.value, "$responseItem": it.JSON})
				if err != nil {
					return nil, err
				}
				o.Set(k, v)
			}
			out = append(out, workflow.Item{JSON: o})
		}
		return out, nil
	case "filter":
		var out []workflow.Item
		for _, it := range items {
			pass, err := r.eval(props["pass"], map[string]any{"$response": base["$response"], "$value": a.value, "$responseItem": it.JSON})
			if err != nil {
				return nil, err
			}
			if workflow.Truthy(pass) {
				out = append(out, it)
			}
		}
		return out, nil
	case "limit":
		m, err := r.eval(props["maxResults"], base)
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(leadingDigits(scalar(m)))
		if err != nil {
			return nil, nodes.Errorf(r.i, "The limit's maxResults %v is not a number", m)
		}
		return items[:min(max(n, 0), len(items))], nil
	case "sort":
		// As n8n: the top-level key's value as lower-case text, the key itself not evaluated.
		key := fmt.Sprint(props["key"])
		text := func(it workflow.Item) string {
			v, ok := it.JSON.Lookup(key)
			if !ok || v == nil {
				return ""
			}
			return strings.ToLower(scalar(v))
		}
		out := slices.Clone(items)
		slices.SortStableFunc(out, func(a, b workflow.Item) int { return strings.Compare(text(a), text(b)) })
		return out, nil
	case "binaryData":
		dest, err := str("destinationProperty")
		if err != nil {
			return nil, err
		}
		bin := nodes.NewBinary(res.raw, "", res.headers.Get("Content-Type"))
		out := make([]workflow.Item, 0, len(items))
		for _, it := range items {
			if _, isText := res.body.(string); isText {
				it.JSON = workflow.NewObject(0)
			}
			it.Binary = map[string]workflow.BinaryData{dest: bin}
			out = append(out, it)
		}
		return out, nil
	}
	return items, nil
}

// leadingDigits is what parseInt reads of s.
func leadingDigits(s string) string {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && s[end] == '-') {
		end++
	}
	return s[:end]
}

// apiError is the error an answer outside 2xx fails the node with (n8n's NodeApiError): the
// status's message, and the answer's own message (or text) as the description. A 429 gets
// the routing node's advice instead.
func apiError(res *response, i int) error {
	code := strconv.Itoa(res.status)
	msg := nodes.APIStatusMessage(code)
	if res.status == http.StatusTooManyRequests {
		msg = "Try spacing your requests out using the batching settings under 'Options'"
	}
	desc := strings.TrimSpace(string(res.raw[:min(len(res.raw), 1000)]))
	if o, ok := workflow.AsObject(res.body); ok {
		for _, key := range []string{"message", "error", "description", "detail"} {
			if v, ok := o.Lookup(key); ok {
				if s, isText := v.(string); isText && s != "" {
					desc = s
					break
				}
			}
		}
	}
	if msg == "" {
		msg, desc = fmt.Sprintf("%s - %s", code, desc), ""
	}
	return &nodes.Error{Name: "NodeApiError", Message: msg, Description: desc, HTTPCode: code, ItemIndex: i}
}
