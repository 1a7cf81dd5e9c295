package script

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
)

// Validation is n8n's ValidationError of the Code node: a message with the line and item it is
// about appended, and a description. ItemIndex and Line are -1 / 0 when unknown.
func Validation(message, description string, itemIndex, line int) *nodes.Error {
	switch {
	case line > 0 && itemIndex >= 0:
		message = fmt.Sprintf("%s [line %d, for item %d]", message, line, itemIndex)
	case line > 0:
		message = fmt.Sprintf("%s [line %d]", message, line)
	case itemIndex >= 0:
		message = fmt.Sprintf("%s [item %d]", message, itemIndex)
	}
	return &nodes.Error{Message: message, Description: description, ItemIndex: itemIndex}
}

// CodeError is n8n's ExecutionError of the Code node, built from a failed script: the text
// after the last colon of the error's first line, with "[line N]" (or "[line N, for item I]")
// appended, and the error's class (TypeError, …) as description. itemIndex is -1 when the
// script ran for all items. Cancellations and timeouts are returned as they are.
func CodeError(err error, itemIndex int) error {
	var ee *expr.Error
	if !errors.As(err, &ee) {
		return err
	}
	if ee.Unwrap() != nil {
		return &nodes.Error{Message: ee.Message, ItemIndex: itemIndex, Cause: err}
	}
	suffix := ""
	if ee.Line > 0 {
		if itemIndex >= 0 {
			suffix = fmt.Sprintf(" [line %d, for item %d]", ee.Line, itemIndex)
		} else {
			suffix = fmt.Sprintf(" [line %d]", ee.Line)
		}
	}
	first, _, _ := strings.Cut(ee.Message, "\n")
	out := &nodes.Error{ItemIndex: itemIndex, Cause: err}
	if !strings.Contains(first, "Error:") {
		// Errors raised by Go helpers and thrown non-Error values carry no class.
		out.Message = first + suffix
		return out
	}
	parts := strings.Split(first, ":")
	details := strings.TrimSpace(parts[len(parts)-1])
	if kind := strings.TrimSpace(parts[len(parts)-2]); kind != "Error" {
		out.Description = kind
	}
	if details == "" {
		out.Message = "Unknown error" + suffix
		return out
	}
	out.Message = details + suffix
	return out
}

// FunctionError is the message the Function and Function Item nodes give a failed script:
// the error's message with its line ("[Line 3]", "[Line 3 | Item Index: 0]") or, without a
// line, the item alone ("[Item Index: 0]"; nothing for Function). itemIndex is -1 for Function.
func FunctionError(err error, itemIndex int) error {
	var ee *expr.Error
	if !errors.As(err, &ee) {
		return err
	}
	if ee.Unwrap() != nil {
		return &nodes.Error{Message: ee.Message, ItemIndex: itemIndex, Cause: err}
	}
	msg := jsMessage(ee.Message)
	switch {
	case ee.Line > 0 && itemIndex >= 0:
		msg = fmt.Sprintf("%s [Line %d | Item Index: %d]", msg, ee.Line, itemIndex)
	case ee.Line > 0:
		msg = fmt.Sprintf("%s [Line %d]", msg, ee.Line)
	case itemIndex >= 0:
		msg = fmt.Sprintf("%s [Item Index: %d]", msg, itemIndex)
	}
	return &nodes.Error{Message: msg, ItemIndex: itemIndex, Cause: err}
}

// jsMessage is error.message of a thrown Error: expr gives "TypeError: x", JavaScript's
// message property is "x".
func jsMessage(m string) string {
	name, rest, ok := strings.Cut(m, ": ")
	if ok && strings.HasSuffix(name, "Error") && !strings.ContainsAny(name, " \n") {
		return rest
	}
	return m
}

// Message is error.message of a failed script, for continueOnFail items.
func Message(err error) string {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		return ne.Message
	}
	var ee *expr.Error
	if errors.As(err, &ee) {
		return jsMessage(ee.Message)
	}
	return err.Error()
}

// RawMessage is error.message of the error a script threw, before the Function nodes add its
// line; their continueOnFail items show it.
func RawMessage(err error) string {
	var ee *expr.Error
	if errors.As(err, &ee) {
		return jsMessage(ee.Message)
	}
	return Message(err)
}
