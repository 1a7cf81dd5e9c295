package workflow

import (
	"errors"
	"fmt"
)

// ErrInvalid is matched (errors.Is) by every error that says a workflow document is invalid.
var ErrInvalid = errors.New("invalid workflow")

// ValidationError says why a workflow document was rejected. Node names the offending node when
// there is one; Field names the field (for example "typeVersion" or "connections").
type ValidationError struct {
	Node    string
	Field   string
	Message string
	Err     error
}

func (e *ValidationError) Error() string {
	msg := e.Message
	if e.Field != "" {
		msg = e.Field + ": " + msg
	}
	if e.Node != "" {
		msg = fmt.Sprintf("node %q: %s", e.Node, msg)
	}
	return "invalid workflow: " + msg
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

func (e *ValidationError) Unwrap() error { return e.Err }

func invalid(node, field, format string, args ...any) *ValidationError {
	return &ValidationError{Node: node, Field: field, Message: fmt.Sprintf(format, args...)}
}
