package expr

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// ErrTimeout is matched (errors.Is) by an *Error raised because an evaluation or a script ran
// longer than its time limit.
var ErrTimeout = errors.New("time limit exceeded")

// Error is the error of a failed evaluation or script.
type Error struct {
	// Message is what n8n would show, for example "ReferenceError: foo is not defined",
	// "Referenced node is unexecuted" or "expression timed out after 1s".
	Message string
	// Description explains Message further; it may be empty.
	Description string
	// Expression is the parameter value that failed, with its leading "=" (for scripts: empty).
	Expression string
	// Parameter is the path of the parameter holding Expression, such as "options.url" or
	// "values.string[0].value". Resolve fills it in; callers of Evaluate may set it.
	Parameter string
	// Line and Column locate a script error in the script's code (1-based); 0 when unknown.
	Line, Column int
	// cause is the underlying error: ErrTimeout, ErrMemory, a context error, or a data-access
	// error.
	cause error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Message)
	switch {
	case e.Parameter != "" && e.Expression != "":
		fmt.Fprintf(&b, " (parameter %q, expression %q)", e.Parameter, e.Expression)
	case e.Expression != "":
		fmt.Fprintf(&b, " (expression %q)", e.Expression)
	case e.Line > 0:
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	return b.String()
}

// Unwrap returns ErrTimeout, ErrMemory, context.Canceled/DeadlineExceeded, or nil.
func (e *Error) Unwrap() error { return e.cause }

// dataError is raised by the data globals ($node, $(), $items, …) inside JavaScript, where
// code may catch it; its message reaches JavaScript as the Error's message.
type dataError struct {
	message     string
	description string
	// fatal errors fail the evaluation even with Options.LenientErrors, as n8n's
	// ExpressionErrors with failExecution did.
	fatal bool
}

func (e *dataError) Error() string { return e.message }

func newDataError(description, format string, args ...any) *dataError {
	return &dataError{message: fmt.Sprintf(format, args...), description: description}
}

// lenient reports whether err may be ignored under Options.LenientErrors: an exception
// thrown by the JavaScript of a segment, not a fatal data error, timeout or syntax error.
func lenient(err error) bool {
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		return false
	}
	var de *dataError
	return !errors.As(ex.Unwrap(), &de) || !de.fatal
}

// interrupt is the value passed to goja's Runtime.Interrupt.
type interrupt struct {
	cause error
	limit time.Duration // the time limit (ErrTimeout)
	bytes uint64        // the memory budget (ErrMemory)
	what  string        // "expression" or "script"
	// detail names the call a built-in guard refused (ErrMemory), e.g. "repeat to
	// 268435456 characters needs about 512 MiB".
	detail string
}

// message is what an evaluation stopped by ir fails with.
func (ir *interrupt) message() string {
	switch {
	case errors.Is(ir.cause, ErrMemory):
		m := memoryMessage(ir.what, ir.bytes)
		if ir.detail != "" {
			m += ": " + ir.detail
		}
		return m
	case errors.Is(ir.cause, ErrTimeout) && ir.what == "script":
		return "Script ran longer than " + formatLimit(ir.limit)
	case errors.Is(ir.cause, ErrTimeout):
		return fmt.Sprintf("%s timed out after %s", ir.what, ir.limit)
	default:
		return ir.what + " was cancelled: " + ir.cause.Error()
	}
}

// toError turns anything a goja run can return or panic with into an *Error.
func toError(err error, expression string) *Error {
	var e *Error
	if errors.As(err, &e) {
		if e.Expression == "" {
			e.Expression = expression
		}
		return e
	}
	out := &Error{Expression: expression}
	var (
		ex  *goja.Exception
		in  *goja.InterruptedError
		syn *goja.CompilerSyntaxError
		so  *goja.StackOverflowError
		de  *dataError
	)
	switch {
	case errors.As(err, &so):
		out.Message = "RangeError: Maximum call stack size exceeded"

	case errors.As(err, &in):
		if ir, ok := in.Value().(*interrupt); ok {
			out.Message, out.cause = ir.message(), ir.cause
		} else {
			out.Message = in.Error()
		}
	case errors.As(err, &de):
		out.Message, out.Description = de.message, de.description
	case errors.As(err, &ex):
		if errors.As(ex.Unwrap(), &de) {
			out.Message, out.Description = de.message, de.description
			break
		}
		out.Message = valueMessage(ex.Value())
		if st := ex.Stack(); len(st) > 0 {
			pos := st[0].Position()
			out.Line, out.Column = pos.Line, pos.Column
		}
	case errors.As(err, &syn):
		out.Message = "SyntaxError: " + syn.Message
		if m := syntaxPosition.FindStringSubmatch(syn.Message); m != nil {
			out.Message = "SyntaxError: " + m[3]
			out.Line, _ = strconv.Atoi(m[1])
			out.Column, _ = strconv.Atoi(m[2])
		}
	default:
		out.Message = err.Error()
	}
	return out
}

// syntaxPosition matches goja's parser messages, "name: Line 3:11 Unexpected token ;".
var syntaxPosition = regexp.MustCompile(`^\S+: Line (\d+):(\d+) (.*?)(?: \(and \d+ more errors\))?$`)

// valueMessage renders a thrown value as "Name: message" for Error objects, and as its
// string form otherwise, without goja's stack suffix.
func valueMessage(v goja.Value) string {
	if obj, ok := v.(*goja.Object); ok {
		msg := obj.Get("message")
		name := obj.Get("name")
		if msg != nil && !goja.IsUndefined(msg) {
			n := "Error"
			if name != nil && !goja.IsUndefined(name) {
				n = name.String()
			}
			if n == "GoError" {
				return msg.String()
			}
			if m := msg.String(); m != "" {
				return n + ": " + m
			}
			return n
		}
	}
	if v == nil {
		return "undefined"
	}
	return v.String()
}

// formatLimit writes a time limit as people set it: "60s", "90s", or "500ms" below a second.
func formatLimit(d time.Duration) string {
	if d >= time.Second && d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}
