package webhook

import (
	"errors"
	"fmt"
)

// errNoWebhook is the lookups' answer when no webhook fits a call; Serve turns it into a
// NotFound Error with the texts of the call's kind.
var errNoWebhook = errors.New("webhook: not registered")

// ErrorKind says what went wrong with a webhook call; the HTTP layer maps it to a status.
type ErrorKind int

// The kinds of Error.
const (
	// NotFound: no webhook is registered for the call (or the execution it names is not waiting).
	NotFound ErrorKind = iota + 1
	// Conflict: the webhook cannot take the call now (execution finished or running, test path
	// taken by another workflow).
	Conflict
	// Invalid: the workflow's webhooks cannot be resolved.
	Invalid
	// BadRequest: the request cannot be read into the webhook node's item.
	BadRequest
	// Unauthorized: the caller sent no credentials the node asks for.
	Unauthorized
	// Forbidden: the caller's credentials are wrong, or the caller is a bot the node ignores.
	Forbidden
	// NoAuthData: the node asks for authentication but its credentials cannot be read.
	NoAuthData
	// NoAnswer: the run ended without giving an answer.
	NoAnswer
	// NotYet: the execution's outcome is not known yet (not started because Redis is
	// unreachable, its worker stopped and it waits for another, the database unreachable); a
	// later call, with the same Idempotency-Key, gets the answer.
	NotYet
	// Unavailable: the server is shutting down.
	Unavailable
	// Timeout: the workflow did not answer within the response timeout.
	Timeout
	// IPRefused: the caller's address is not on the node's IP whitelist.
	IPRefused
	// NotStarted: the webhook node refused to start the run (Webhook 2 whose response mode
	// does not fit the Respond to Webhook nodes after it).
	NotStarted
)

// Error is a webhook call that cannot be served, with the texts its caller sees.
type Error struct {
	Kind    ErrorKind
	Message string
	Hint    string
	cause   error
}

// Error returns the message the caller sees.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the error behind it, if any (a credential lookup, a parse failure).
func (e *Error) Unwrap() error { return e.cause }

// AuthFailure reports whether the error is a failed caller authentication, which n8n answers
// as plain text with a WWW-Authenticate challenge.
func (e *Error) AuthFailure() bool {
	return e.Kind == Unauthorized || e.Kind == Forbidden || e.Kind == NoAuthData
}

// RunFailure reports whether the error is a run that gave no answer, which is answered like a
// workflow's answer (any origin may read it).
func (e *Error) RunFailure() bool {
	return e.Kind == NoAnswer || e.Kind == NotYet || e.Kind == Unavailable || e.Kind == Timeout || e.Kind == NotStarted
}

func newError(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}
