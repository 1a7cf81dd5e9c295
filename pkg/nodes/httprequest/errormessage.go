package httprequest

import (
	"strings"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// errorMessageKeys are where APIs put the reason of a failure, in the order n8n looks.
var errorMessageKeys = []string{"message", "Message", "msg", "messages", "description", "reason", "detail", "details",
	"errors", "errorMessage", "errorMessages", "ErrorMessage", "error_message", "errorDescription", "error_description",
	"error_summary", "title", "text", "error", "err"}

// description finds a readable reason in an error body: a message field (also nested under
// error), or the body text itself.
func (e *statusError) description() string {
	return findMessage(e.body, 0)
}

func findMessage(v any, depth int) string {
	if depth > 4 {
		return ""
	}
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case []any:
		var parts []string
		for _, el := range x {
			if s := findMessage(el, depth+1); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " | ")
	case *workflow.Object:
		return findMessage(x.ToMap(), depth)
	case map[string]any:
		for _, k := range errorMessageKeys {
			if el, ok := x[k]; ok {
				if s := findMessage(el, depth+1); s != "" {
					return s
				}
			}
		}
	}
	return ""
}
