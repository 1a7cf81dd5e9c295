package nodes

import (
	"fmt"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Error is an error raised by a node (n8n's NodeOperationError). The engine records it on the
// node's run as a workflow.ExecutionError.
type Error struct {
	// Name is the error class shown by the editor; empty means "NodeOperationError".
	Name        string
	Message     string
	Description string
	// ItemIndex is the input item being processed, -1 when the error is not about one item.
	ItemIndex int
	// Parameter is the path of the parameter the error is about, if any.
	Parameter string
	// HTTPCode is the status code of a failed HTTP call (n8n's NodeApiError), empty otherwise.
	HTTPCode string
	Cause    error
}

// Errorf returns an *Error about the given item (-1 for none).
func Errorf(itemIndex int, format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...), ItemIndex: itemIndex}
}

func (e *Error) Error() string { return e.Message }

func (e *Error) Unwrap() error { return e.Cause }

// ExecutionError converts the error for run data.
func (e *Error) ExecutionError(node string, runIndex int, now int64) *workflow.ExecutionError {
	name := e.Name
	if name == "" {
		name = "NodeOperationError"
	}
	ctx := map[string]any{"runIndex": runIndex}
	if e.ItemIndex >= 0 {
		ctx["itemIndex"] = e.ItemIndex
	}
	if e.Parameter != "" {
		ctx["parameter"] = e.Parameter
	}
	return &workflow.ExecutionError{
		Name:        name,
		Message:     e.Message,
		Description: e.Description,
		HTTPCode:    e.HTTPCode,
		Timestamp:   now,
		Context:     ctx,
		Node:        node,
	}
}

// APIStatusMessage is n8n's NodeApiError message for an HTTP status code ("404"), or for its
// class ("4XX") when the code has none of its own; "" for codes outside 4xx and 5xx.
func APIStatusMessage(code string) string {
	if msg, ok := apiStatusMessages[code]; ok {
		return msg
	}
	if code == "" {
		return ""
	}
	return apiStatusMessages[code[:1]+"XX"]
}

// apiStatusMessages are n8n's NodeApiError messages for HTTP status codes.
var apiStatusMessages = map[string]string{
	"4XX": "Your request is invalid or could not be processed by the service",
	"400": "Bad request - please check your parameters",
	"401": "Authorization failed - please check your credentials",
	"402": "Payment required - perhaps check your payment details?",
	"403": "Forbidden - perhaps check your credentials?",
	"404": "The resource you are requesting could not be found",
	"405": "Method not allowed - please check you are using the right HTTP method",
	"429": "The service is receiving too many requests from you",
	"5XX": "The service failed to process your request",
	"500": "The service was not able to process your request",
	"502": "Bad gateway - the service failed to handle your request",
	"503": "Service unavailable - try again later or consider setting this node to retry automatically (in the node settings)",
	"504": "Gateway timed out - perhaps try again later?",
}
