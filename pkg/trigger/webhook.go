// Package trigger knows how workflows start by themselves: the webhooks their nodes register
// (paths, methods, response settings), the checks a workflow passes before it is activated, the
// schedules and polls the scheduler fires, and the activation notices and errors shared by every
// process through Redis.
package trigger

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Webhook is one webhook a node of a workflow registers.
type Webhook struct {
	// Method is the HTTP method in upper case.
	Method string
	// Path is the registered path without leading or trailing slashes. A dynamic path (with
	// ":name" segments) starts with the node's webhookId, as its URL does.
	Path string
	Node string
	// WebhookID is set for dynamic paths: the first segment of their URLs.
	WebhookID string
	// PathLength is the number of segments after WebhookID of a dynamic path.
	PathLength int
	// Restart marks the resume webhook of a Wait node (served under /webhook-waiting).
	Restart bool
	// Authentication is none, basicAuth or headerAuth (the credentials the node selected).
	Authentication string
	// IgnoreBots makes requests from link previewers and crawlers answer 403.
	IgnoreBots bool
	// OutputIndex is the node output a call of this method leaves by: the method's place in
	// the node's list of methods (Webhook 2's multipleMethods), else 0.
	OutputIndex int `json:",omitempty"`
	// AllowedOrigins is the node's comma-separated CORS origins; empty or "*" allows any.
	AllowedOrigins string `json:",omitempty"`
	// IPWhitelist is the node's comma-separated list of callers allowed; empty allows any.
	IPWhitelist string `json:",omitempty"`
	Response    Response
}

// Dynamic reports whether the path has ":name" segments.
func (w Webhook) Dynamic() bool { return w.WebhookID != "" }

// Response is how a webhook answers its caller, resolved from the node's description.
type Response struct {
	// Mode is onReceived (default), lastNode or responseNode.
	Mode string `json:"mode"`
	// Code is the status code of onReceived and lastNode answers. Default 200.
	Code int `json:"code"`
	// Data is, for lastNode, firstEntryJson (default), allEntries, firstEntryBinary or noData;
	// noData also turns off the body of onReceived answers.
	Data string `json:"data,omitempty"`
	// Body is the custom body of onReceived answers (the node's options.responseData).
	Body               string            `json:"body,omitempty"`
	BinaryPropertyName string            `json:"binaryPropertyName,omitempty"`
	ContentType        string            `json:"contentType,omitempty"`
	PropertyName       string            `json:"propertyName,omitempty"`
	Headers            map[string]string `json:"headers,omitempty"`
	// Token names the request waiting for the answer; the worker sends it back with the answer.
	Token string `json:"token,omitempty"`
	// Keep makes the worker keep the answer in the database even when it hands it to a call
	// waiting in its own process: the call had an Idempotency-Key, whose repeats read it there.
	Keep bool `json:"keep,omitempty"`
}

// Response modes.
const (
	ModeOnReceived   = "onReceived"
	ModeLastNode     = "lastNode"
	ModeResponseNode = "responseNode"
	// ModeStreaming (Webhook 2.1) answers as the run goes; without nodes that stream, the
	// caller gets the headers and an empty body once the run ends.
	ModeStreaming = "streaming"
)

// Webhooks lists the webhooks of the workflow's enabled nodes whose types the registry knows,
// with their expressions resolved against each node's parameters, in node order. The resume
// webhooks of Wait nodes are left out, as n8n leaves them out when it activates: they are not
// production or test webhooks, and their expressions read options that only exist in the
// webhook resume mode; NodeWebhooks resolves them for an execution that waits.
func Webhooks(wf *workflow.Workflow, reg *nodes.Registry, ev *expr.Evaluator) ([]Webhook, error) {
	var out []Webhook
	for i := range wf.Nodes {
		n := &wf.Nodes[i]
		if n.Disabled {
			continue
		}
		t, ok := reg.Get(n.Type, n.TypeVersion)
		if !ok || len(t.Description.Webhooks) == 0 {
			continue
		}
		hooks, err := nodeWebhooks(wf, n, t, ev, false)
		if err != nil {
			return nil, err
		}
		out = append(out, hooks...)
	}
	return out, nil
}

// NodeWebhooks resolves the webhooks one node registers, its resume webhooks included.
func NodeWebhooks(wf *workflow.Workflow, n *workflow.Node, t *nodes.Type, ev *expr.Evaluator) ([]Webhook, error) {
	return nodeWebhooks(wf, n, t, ev, true)
}

func nodeWebhooks(wf *workflow.Workflow, n *workflow.Node, t *nodes.Type, ev *expr.Evaluator, withRestart bool) ([]Webhook, error) {
	params, err := workflow.ResolveParameters(t.Description.Properties, n.Parameters, n.TypeVersion)
	if err != nil {
		return nil, fmt.Errorf("node %q: %w", n.Name, err)
	}
	c := &expr.Context{NodeName: n.Name, NodeType: n.Type, NodeParameters: params,
		Workflow: expr.WorkflowInfo{ID: wf.ID, Name: wf.Name, Active: wf.Active}, Timezone: wf.Settings.Timezone()}
	var out []Webhook
	for _, d := range t.Description.Webhooks {
		if !withRestart && nodes.RestartsWebhook(d) {
			continue
		}
		get := func(key string) (any, error) {
			v, err := ev.Evaluate(d[key], c)
			if err != nil {
				return nil, fmt.Errorf("node %q: webhook %s: %w", n.Name, key, err)
			}
			return v, nil
		}
		str := func(key string) (string, error) {
			v, err := get(key)
			if v == nil || err != nil {
				return "", err
			}
			if s, ok := v.(string); ok {
				return s, nil
			}
			return fmt.Sprint(v), nil
		}
		var h Webhook
		h.Node = n.Name
		h.Restart = nodes.RestartsWebhook(d)
		fullPath, _ := d["isFullPath"].(bool)
		methodValue, err := get("httpMethod")
		if err != nil {
			return nil, err
		}
		methods := webhookMethods(methodValue)
		path, err := str("path")
		if err != nil {
			return nil, err
		}
		h.Path = nodePath(wf.ID, n, path, fullPath, h.Restart)
		if strings.Contains(h.Path, ":") && !h.Restart && n.WebhookID != "" {
			h.WebhookID = n.WebhookID
			h.PathLength = len(strings.Split(h.Path, "/"))
			h.Path = n.WebhookID + "/" + h.Path
		}
		r := &h.Response
		if r.Mode, err = str("responseMode"); err != nil {
			return nil, err
		}
		r.Mode = cmp.Or(r.Mode, ModeOnReceived)
		code, err := get("responseCode")
		if err != nil {
			return nil, err
		}
		r.Code = 200
		if c, ok := statusCode(code); ok {
			r.Code = c
		}
		for key, dst := range map[string]*string{"responseData": &r.Data, "responseBinaryPropertyName": &r.BinaryPropertyName,
			"responseContentType": &r.ContentType, "responsePropertyName": &r.PropertyName} {
			if *dst, err = str(key); err != nil {
				return nil, err
			}
		}
		headers, err := get("responseHeaders")
		if err != nil {
			return nil, err
		}
		r.Headers = headerEntries(headers)
		opts, _ := params["options"].(map[string]any)
		r.Body, _ = opts["responseData"].(string)
		h.IgnoreBots, _ = opts["ignoreBots"].(bool)
		h.AllowedOrigins, _ = opts["allowedOrigins"].(string)
		h.IPWhitelist, _ = opts["ipWhitelist"].(string)
		h.Authentication, _ = params["authentication"].(string)
		if a, ok := params["incomingAuthentication"].(string); ok {
			h.Authentication = a
		}
		// A node listening to several methods registers one webhook per method, as n8n does;
		// each leaves the node by the output of the method's place in the list.
		for _, m := range methods {
			one := h
			one.Method, one.OutputIndex = m.method, m.output
			out = append(out, one)
		}
	}
	return out, nil
}

// methodAt is a method a webhook listens to and the node output its calls leave by.
type methodAt struct {
	method string
	output int
}

// webhookMethods reads a webhook's httpMethod: one method, or the list Webhook 2 keeps when it
// listens to several (upper case; a repeat keeps its first place). Nothing means GET.
func webhookMethods(v any) []methodAt {
	var out []methodAt
	add := func(x any, output int) {
		if x == nil {
			return
		}
		s, ok := x.(string)
		if !ok {
			s = fmt.Sprint(x)
		}
		s = strings.ToUpper(strings.TrimSpace(s))
		if s == "" || slices.ContainsFunc(out, func(m methodAt) bool { return m.method == s }) {
			return
		}
		out = append(out, methodAt{s, output})
	}
	if l, ok := v.([]any); ok {
		for i, x := range l {
			add(x, i)
		}
	} else {
		add(v, 0)
	}
	if len(out) == 0 {
		out = []methodAt{{"GET", 0}}
	}
	return out
}

// nodePath is n8n's getNodeWebhookPath, trimmed of slashes: the path of a node without a
// webhookId is prefixed with the workflow id and the node name; a full path stands alone.
func nodePath(workflowID string, n *workflow.Node, path string, fullPath, restart bool) string {
	var p string
	switch {
	case restart:
		p = path
	case n.WebhookID == "":
		p = workflowID + "/" + url.PathEscape(strings.ToLower(n.Name)) + "/" + path
	case fullPath:
		p = cmp.Or(path, n.WebhookID)
	default:
		p = n.WebhookID + "/" + path
	}
	return strings.Trim(p, "/")
}

// headerEntries reads the responseHeaders option ({entries: [{name, value}]}).
func headerEntries(v any) map[string]string {
	m, _ := v.(map[string]any)
	entries, _ := m["entries"].([]any)
	if len(entries) == 0 {
		return nil
	}
	out := map[string]string{}
	for _, e := range entries {
		h, _ := e.(map[string]any)
		name, _ := h["name"].(string)
		if name == "" {
			continue
		}
		switch v := h["value"].(type) {
		case string:
			out[name] = v
		case float64:
			out[name] = strconv.FormatFloat(v, 'f', -1, 64)
		case nil:
			out[name] = ""
		default:
			out[name] = fmt.Sprint(v)
		}
	}
	return out
}

// statusCode reads a response code an expression gave as any kind of number.
func statusCode(v any) (int, bool) {
	var c int
	switch x := v.(type) {
	case float64:
		c = int(x)
	case int64:
		c = int(x)
	case int:
		c = x
	case string:
		n, err := strconv.Atoi(x)
		if err != nil {
			return 0, false
		}
		c = n
	default:
		return 0, false
	}
	return c, c >= 100 && c < 600
}
