// Package graphql is the GraphQL node (versions 1 and 1.1): it sends a query to a GraphQL
// endpoint by GET (the query in the query string) or POST (a JSON body with query, variables
// and operationName, or the raw query), with the generic HTTP credentials, and returns the
// answer. A 200 answer with "errors" fails the node, as in n8n.
package graphql

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/httpauth"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

//go:embed graphql.svg
var iconSVG []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.IconSVG = iconSVG
	return t
}

// credentialTypes maps the authentication values to credential types.
var credentialTypes = map[string]string{
	"basicAuth": "httpBasicAuth", "customAuth": "httpCustomAuth", "digestAuth": "httpDigestAuth",
	"headerAuth": "httpHeaderAuth", "queryAuth": "httpQueryAuth", "oAuth1": "oAuth1Api", "oAuth2": "oAuth2Api",
}

// maxResponseBytes bounds the answer read into memory.
func maxResponseBytes(ex *nodes.Execution) int64 { return ex.UnpackMaxBytes() }

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	authentication, err := ex.ParamString("authentication", 0)
	if err != nil {
		return nil, err
	}
	auth, err := httprequest.CredentialAuth(ctx, ex, credentialTypes[authentication])
	if err != nil {
		return nil, err
	}
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		res, err := doItem(ctx, ex, auth, i)
		out = append(out, res...)
		if err != nil {
			if ctx.Err() != nil || !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}})
		}
	}
	return [][]workflow.Item{out}, nil
}

// request is what one item sends.
type request struct {
	method, endpoint, format string
	headers                  []httpauth.Param
	qs                       []httpauth.Param
	body                     []byte
	insecure                 bool
}

func doItem(ctx context.Context, ex *nodes.Execution, auth *httpauth.Auth, i int) ([]workflow.Item, error) {
	r, err := buildRequest(ex, auth, i)
	if err != nil {
		return nil, err
	}
	body, err := send(ctx, ex, auth, r)
	if err != nil {
		var ne *nodes.Error
		if errors.As(err, &ne) {
			return nil, err
		}
		return nil, &nodes.Error{Name: "NodeApiError", Message: err.Error(), ItemIndex: i, Cause: err}
	}
	responseFormat, err := ex.ParamString("responseFormat", 0)
	if err != nil {
		return nil, err
	}
	// A JSON request makes the answer parsed when it is JSON, whatever the response format.
	var response any = string(body)
	if r.format == "json" {
		if v, err := workflow.DecodeJSONValue(body); err == nil {
			response = v
		}
	}
	var out []workflow.Item
	if responseFormat == "string" {
		prop, err := ex.ParamString("dataPropertyName", 0)
		if err != nil {
			return nil, err
		}
		out = append(out, workflow.Item{JSON: workflow.ObjectOf(prop, response), PairedItem: &workflow.PairedItems{{Item: i}}})
	} else {
		if s, ok := response.(string); ok {
			v, err := workflow.DecodeJSONValue([]byte(s))
			if err != nil {
				return nil, nodes.Errorf(i, "Response body is not valid JSON. Change \"Response Format\" to \"String\"")
			}
			response = v
		}
		out = append(out, jsonItems(response, i)...)
	}

	// A string answer that holds errors is read for them too.
	if s, ok := response.(string); ok && strings.HasPrefix(s, `{"errors":`) {
		if v, err := workflow.DecodeJSONValue([]byte(s)); err == nil {
			if o, ok := v.(*workflow.Object); ok {
				if _, isList := o.Get("errors").([]any); isList {
					response = o
				}
			}
		}
	}
	if o, ok := response.(*workflow.Object); ok {
		if errs := o.Get("errors"); jsv.Truthy(errs) {
			return out, &nodes.Error{Name: "NodeApiError", Message: errorMessage(errs), ItemIndex: i}
		}
	}
	return out, nil
}

// errorMessage words the errors field of an answer as n8n does: the messages of an errors list
// joined by ", ", an errors object's message, or the field itself as text.
func errorMessage(errs any) string {
	switch v := errs.(type) {
	case []any:
		msgs := make([]string, len(v))
		for k, e := range v {
			if o, ok := e.(*workflow.Object); ok {
				if m := o.Get("message"); m != nil {
					msgs[k] = jsv.ToString(m)
				}
			}
		}
		if msg := strings.Join(msgs, ", "); msg != "" {
			return msg
		}
	case *workflow.Object:
		if m, ok := v.Get("message").(string); ok && m != "" {
			return m
		}
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	case string:
		if v != "" {
			return v
		}
	default:
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return "Unexpected error"
}

// jsonItems makes items of a JSON answer: one per element of a list, else one.
func jsonItems(v any, i int) []workflow.Item {
	list, isList := v.([]any)
	if !isList {
		list = []any{v}
	}
	out := make([]workflow.Item, 0, len(list))
	for _, e := range list {
		o, ok := e.(*workflow.Object)
		if !ok {
			o = workflow.ObjectOf("data", e)
		}
		out = append(out, workflow.Item{JSON: o, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return out
}

func buildRequest(ex *nodes.Execution, auth *httpauth.Auth, i int) (*request, error) {
	r := &request{}
	var err error
	if r.method, err = paramOr(ex, "requestMethod", i, "POST"); err != nil {
		return nil, err
	}
	if r.endpoint, err = paramOr(ex, "endpoint", i, ""); err != nil {
		return nil, err
	}
	// GET shows no request format: the code's fallback, JSON, applies.
	if r.format, err = paramOr(ex, "requestFormat", i, "json"); err != nil {
		return nil, err
	}
	if r.insecure, err = ex.ParamBool("allowUnauthorizedCerts", i); err != nil {
		return nil, err
	}
	r.headers = append(r.headers, httpauth.Param{Name: "content-type", Value: "application/" + r.format})
	params, err := ex.ParamList("headerParametersUi.parameter", i)
	if err != nil {
		return nil, err
	}
	for _, p := range params {
		r.headers = append(r.headers, httpauth.Param{Name: str(p["name"]), Value: str(p["value"])})
	}

	// Custom Auth may add body fields to a JSON body; httpauth adds its headers and qs.
	var customBody *workflow.Object
	if auth.Kind == httpauth.Custom {
		if customBody, auth, err = splitCustomBody(auth); err != nil {
			return nil, nodes.Errorf(i, "%s", err.Error())
		}
	}
	headers, qs, err := auth.Params()
	if errors.Is(err, httpauth.ErrNotConnected) {
		return nil, nodes.Errorf(i, "OAuth credentials not connected")
	}
	if err != nil {
		return nil, nodes.Errorf(i, "%s", err.Error())
	}
	r.headers = append(r.headers, headers...)
	r.qs = append(r.qs, qs...)

	query, err := paramOr(ex, "query", i, "")
	if err != nil {
		return nil, err
	}
	if r.method == http.MethodGet {
		r.qs = append(r.qs, httpauth.Param{Name: "query", Value: query})
	}
	if r.format != "json" {
		r.body = []byte(query)
		return r, nil
	}
	variables, err := ex.ParamOr("variables", i, map[string]any{})
	if err != nil {
		return nil, err
	}
	var parsed any
	switch v := variables.(type) {
	case string:
		if v == "" {
			v = "{}"
		}
		if parsed, err = workflow.DecodeJSONValue([]byte(v)); err != nil {
			return nil, nodes.Errorf(i, "Using variables failed:\n%s\n\nWith error message:\n%v", v, err)
		}
	case map[string]any, *workflow.Object, []any:
		parsed = v
	default:
		return nil, nodes.Errorf(i, "Using variables failed:\n%s\n\nGraphQL variables should be either an object or a string.", jsv.ToString(v))
	}
	operationName, err := paramOr(ex, "operationName", i, "")
	if err != nil {
		return nil, err
	}
	body := workflow.NewObject(3)
	if customBody != nil {
		for k, v := range customBody.All() {
			body.Set(k, v)
		}
	}
	body.Set("query", query)
	body.Set("variables", parsed)
	if operationName == "" {
		body.Set("operationName", nil)
	} else {
		body.Set("operationName", operationName)
	}
	if r.body, err = json.Marshal(body); err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	return r, nil
}

// splitCustomBody takes the body fields out of a Custom Auth credential's JSON and returns the
// credential with only its headers and qs.
func splitCustomBody(auth *httpauth.Auth) (*workflow.Object, *httpauth.Auth, error) {
	text := httpauth.Str(auth.Data, "json")
	if strings.TrimSpace(text) == "" {
		text = "{}"
	}
	v, err := workflow.DecodeJSONValue([]byte(text))
	o, ok := v.(*workflow.Object)
	if err != nil || !ok {
		return nil, nil, errors.New("Invalid Custom Auth JSON")
	}
	body, _ := o.Get("body").(*workflow.Object)
	rest := workflow.NewObject(2)
	for k, val := range o.All() {
		if k != "body" {
			rest.Set(k, val)
		}
	}
	restJSON, err := json.Marshal(rest)
	if err != nil {
		return nil, nil, err
	}
	data := make(map[string]any, len(auth.Data))
	for k, val := range auth.Data {
		data[k] = val
	}
	data["json"] = string(restJSON)
	return body, &httpauth.Auth{Kind: auth.Kind, Data: data}, nil
}

func paramOr(ex *nodes.Execution, name string, i int, fallback string) (string, error) {
	v, err := ex.ParamOr(name, i, fallback)
	if err != nil {
		return "", err
	}
	return str(v), nil
}

func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	default:
		return jsv.ToString(x)
	}
}

// send sends the request through the instance's egress policy and returns the body of the
// answer, whatever its status (n8n sends GraphQL requests with simple: false).
func send(ctx context.Context, ex *nodes.Execution, auth *httpauth.Auth, r *request) ([]byte, error) {
	u, err := url.Parse(r.endpoint)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("Invalid URL: %s", r.endpoint)
	}
	var q []string
	for _, p := range r.qs {
		q = append(q, httpauth.EncodeComponent(p.Name)+"="+httpauth.EncodeComponent(p.Value))
	}
	if len(q) > 0 {
		if u.RawQuery != "" {
			u.RawQuery += "&"
		}
		u.RawQuery += strings.Join(q, "&")
	}
	policy := egress.PolicyOf(ex.HTTPClient())
	if policy == nil {
		return nil, errors.New("the instance's HTTP client does not apply the egress policy")
	}
	transport := policy.Transport(egress.Options{InsecureSkipVerify: r.insecure})
	client := &http.Client{Transport: transport}
	defer client.CloseIdleConnections()
	newReq := func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, r.method, u.String(), bytes.NewReader(r.body))
		if err != nil {
			return nil, err
		}
		for _, h := range r.headers {
			if h.Name != "" {
				req.Header.Set(h.Name, h.Value)
			}
		}
		return req, nil
	}
	res, err := auth.Do(client, nil, newReq)
	if err != nil {
		return nil, transportError(err)
	}
	defer res.Body.Close()
	limit := maxResponseBytes(ex)
	body, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, transportError(err)
	}
	if int64(len(body)) > limit {
		return nil, fmt.Errorf("The response is larger than %d bytes (FLOWMILL_UNPACK_MAX_SIZE)", limit)
	}
	return body, nil
}

// transportError words a failed request; an address the egress policy refuses is named with
// the setting that decides.
func transportError(err error) error {
	if re, ok := egress.Refusal(err); ok {
		return re
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return errors.New("The request timed out")
		}
		return ue.Err
	}
	return err
}
