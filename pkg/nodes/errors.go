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
