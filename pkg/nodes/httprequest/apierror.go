package httprequest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// networkMessages are n8n's messages for Node.js network error codes.
var networkMessages = map[string]string{
	"ECONNREFUSED": "The service refused the connection - perhaps it is offline",
	"ECONNRESET":   "The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.",
	"ENOTFOUND":    "The connection cannot be established, this usually occurs due to an incorrect host (domain) value",
	"ETIMEDOUT":    "The connection timed out, consider setting the 'Retry on Fail' option in the node settings",
	"ECONNABORTED": "The connection was aborted, perhaps the server is offline",
	"EHOSTUNREACH": "The host is unreachable, perhaps the server is offline",
}

// tooManyRequests replaces the message of a 429 answer, as n8n does.
const tooManyRequests = "Try spacing your requests out using the batching settings under 'Options'"

// errorMessageKeys3 and nestedErrorKeys are where NodeApiError looks for a readable reason, in
// order.
var (
	errorMessageKeys3 = []string{"cause", "error", "message", "Message", "msg", "messages", "description", "reason",
		"detail", "details", "errors", "errorMessage", "errorMessages", "ErrorMessage", "error_message", "_error_message",
		"errorDescription", "error_description", "error_summary", "error_info", "title", "text", "field", "err", "type"}
	nestedErrorKeys = []string{"Error", "error", "err", "response", "body", "data"}
)

// networkError is a failure before any answer, with the Node.js code n8n would name.
type networkError struct {
	code, message string
}

func (e *networkError) Error() string { return e.message }

// classify names a transport failure as Node.js does.
func classify(err error, host string) error {
	var ne net.Error
	var dns *net.DNSError
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		host = op.Addr.String()
	}
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return &networkError{"ECONNABORTED", err.Error()}
	case errors.As(err, &dns):
		return &networkError{"ENOTFOUND", "getaddrinfo ENOTFOUND " + dns.Name}
	case errors.Is(err, syscall.ECONNREFUSED):
		return &networkError{"ECONNREFUSED", "connect ECONNREFUSED " + host}
	case errors.Is(err, syscall.ECONNRESET):
		return &networkError{"ECONNRESET", "read ECONNRESET"}
	case errors.Is(err, syscall.EHOSTUNREACH):
		return &networkError{"EHOSTUNREACH", "connect EHOSTUNREACH " + host}
	}
	return err
}

// statusMessageOf is the error message of a status error: the status and the body as JSON.
func (e *statusError) message3() string {
	if e.status == 429 {
		return tooManyRequests
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(e.body)
	return fmt.Sprintf("%d - %s", e.status, strings.TrimSpace(b.String()))
}

// apiError is the error a failed request fails the node with (n8n's NodeApiError).
func apiError(err error, i int) error {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		if ne.ItemIndex < 0 {
			ne.ItemIndex = i
		}
		return ne
	}
	var se *statusError
	if errors.As(err, &se) {
		code := strconv.Itoa(se.status)
		msg := nodes.APIStatusMessage(code)
		desc := findProperty(map[string]any{"error": se.body, "message": se.message3()}, errorMessageKeys3, nestedErrorKeys, 0)
		if msg == "" {
			msg, desc = cmpOr(se.message3(), desc), ""
		}
		if msg == desc {
			desc = ""
		}
		return &nodes.Error{Name: "NodeApiError", Message: msg, Description: desc, HTTPCode: code, ItemIndex: i, Cause: err}
	}
	var nw *networkError
	if errors.As(err, &nw) {
		msg, ok := networkMessages[nw.code]
		if !ok {
			msg = nw.message
		}
		return &nodes.Error{Name: "NodeApiError", Message: msg, ItemIndex: i, Cause: err}
	}
	return &nodes.Error{Name: "NodeApiError", Message: err.Error(), ItemIndex: i, Cause: err}
}

// errorJSON is a failed request as n8n's continue-on-fail item shows it: the request
// library's error, as it serializes.
func errorJSON(err error) any {
	var ne *nodes.Error
	var se *statusError
	var nw *networkError
	switch {
	case errors.As(err, &ne):
		return ne.Message
	case errors.As(err, &se) && se.paginated:
		// Pagination raises a plain Error whose own fields are these.
		return workflow.ObjectOf("statusCode", float64(se.status), "error", se.bodyText(), "isAxiosError", true,
			"response", workflow.ObjectOf("headers", headerJSON(se.res.header), "status", float64(se.status),
				"statusText", se.res.statusText))
	case errors.As(err, &se):
		code := "ERR_BAD_REQUEST"
		if se.status >= 500 {
			code = "ERR_BAD_RESPONSE"
		}
		return workflow.ObjectOf("message", se.message3(), "name", "AxiosError", "code", code, "status", float64(se.status))
	case errors.As(err, &nw):
		return workflow.ObjectOf("message", nw.message, "name", "AxiosError", "code", nw.code)
	}
	return workflow.ObjectOf("message", err.Error(), "name", "Error")
}

// bodyText is the body as pagination's error carries it: text, or objects as JSON.
func (e *statusError) bodyText() string {
	if s, ok := e.body.(string); ok {
		return s
	}
	b, _ := json.Marshal(e.body)
	return string(b)
}

// findProperty is NodeApiError's search for a reason: the first of keys holding a string, a
// number, a list of such or an object holding one; then the same inside the nested objects.
func findProperty(v map[string]any, keys, nestedKeys []string, depth int) string {
	if depth > 8 {
		return ""
	}
	for _, k := range keys {
		val, ok := v[k]
		if !ok || !truthy(val) {
			continue
		}
		switch x := val.(type) {
		case string:
			return x
		case float64, int, int64:
			return fmt.Sprint(x)
		case []any:
			var parts []string
			for _, e := range x {
				switch y := e.(type) {
				case string:
					parts = append(parts, y)
				case float64, int, int64:
					parts = append(parts, fmt.Sprint(y))
				default:
					if m, ok := traversable(e); ok {
						if s := findProperty(m, keys, nil, depth+1); s != "" {
							parts = append(parts, s)
						}
					}
				}
			}
			if len(parts) == 0 {
				return ""
			}
			return strings.Join(parts, " | ")
		default:
			if m, ok := traversable(val); ok {
				if s := findProperty(m, keys, nil, depth+1); s != "" {
					return s
				}
			}
		}
	}
	for _, k := range nestedKeys {
		if m, ok := traversable(v[k]); ok {
			if s := findProperty(m, keys, nestedKeys, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

func traversable(v any) (map[string]any, bool) {
	m, ok := asMap(v)
	return m, ok && len(m) > 0
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case bool:
		return x
	case float64:
		return x != 0
	}
	return true
}
