package engine

import (
	"encoding/json"
	"errors"
	"math"
	"strings"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
)

// PreviewKind says why a preview has no value.
type PreviewKind string

// Kinds of a failed preview.
const (
	// PreviewInvalid is a syntax or runtime error; the message says which.
	PreviewInvalid PreviewKind = "invalid"
	// PreviewNotFound is an expression that gives undefined.
	PreviewNotFound PreviewKind = "notFound"
)

// PreviewResult is what evaluating an expression outside a run gave: a value (OK, possibly nil
// for null), or the kind of failure and a message.
type PreviewResult struct {
	OK    bool
	Value any
	// Kind and Message are set when OK is false.
	Kind    PreviewKind
	Message string
}

// Preview evaluates one expression (a parameter value with its leading "=") for a node of a
// workflow as the engine would while running that node in manual mode, in the context
// PreviewContext builds. The evaluation has the evaluator's time limit. An error or undefined
// is a PreviewResult, not an error; NaN and the infinities come back as the text JavaScript
// writes for them. It fails with a *StartError when the node does not exist or its parameters
// cannot be resolved.
func (e *Engine) Preview(req PreviewRequest, expression string) (PreviewResult, error) {
	if e.opts.Evaluator == nil {
		return PreviewResult{}, errors.New("engine: no expression evaluator")
	}
	c, err := e.PreviewContext(req)
	if err != nil {
		return PreviewResult{}, err
	}
	out, err := e.opts.Evaluator.Evaluate(expression, c)
	if err != nil {
		msg := err.Error()
		var ee *expr.Error
		if errors.As(err, &ee) {
			msg = ee.Message
		}
		return PreviewResult{Kind: PreviewInvalid, Message: msg}, nil
	}
	if out == nil && isUndefined(e.opts.Evaluator, expression, c) {
		return PreviewResult{Kind: PreviewNotFound, Message: "The expression gives undefined"}, nil
	}
	if f, ok := out.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		out = jsNumberText(f)
	}
	return PreviewResult{OK: true, Value: out}, nil
}

// isUndefined reports whether an expression that gave nil gave undefined rather than null.
// Only a template that is one {{ }} segment can give either (text around a segment makes a
// string); its code is evaluated again inside a test for undefined, as an expression and, for
// code made of statements, through eval as the evaluator itself runs such code.
func isUndefined(ev nodes.Evaluator, expression string, c *expr.Context) bool {
	code, lone := loneSegment(expression)
	if !lone {
		return false
	}
	if strings.TrimSpace(code) == "" {
		return true
	}
	quoted, _ := json.Marshal(code)
	for _, probe := range []string{
		"={{ (" + code + "\n) === undefined }}",
		"={{ (function () { return eval(" + string(quoted) + ") })() === undefined }}",
	} {
		if v, err := ev.Evaluate(probe, c); err == nil {
			return v == true
		}
	}
	return false
}

// loneSegment returns the code of a template that is a single {{ }} segment with only
// whitespace around it.
func loneSegment(expression string) (string, bool) {
	t := strings.TrimSpace(strings.TrimPrefix(expression, "="))
	if !strings.HasPrefix(t, "{{") || !strings.HasSuffix(t, "}}") || strings.Count(t, "{{") != 1 || strings.Count(t, "}}") != 1 {
		return "", false
	}
	return t[2 : len(t)-2], true
}

// jsNumberText writes NaN and the infinities as JavaScript does; JSON has no such numbers.
func jsNumberText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case f > 0:
		return "Infinity"
	}
	return "-Infinity"
}
