package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// evaluateRequest is the body of POST /rest/expressions/evaluate.
type evaluateRequest struct {
	WorkflowData json.RawMessage  `json:"workflowData"`
	RunData      workflow.RunData `json:"runData"`
	NodeName     string           `json:"nodeName"`
	// Expression is a parameter value with its leading "=".
	Expression *string `json:"expression"`
	ItemIndex  *int    `json:"itemIndex"`
	RunIndex   *int    `json:"runIndex"`
}

// Kinds of a failed evaluation.
const (
	// evaluationInvalid: a syntax or runtime error; the message says which.
	evaluationInvalid = "invalid"
	// evaluationNotFound: the expression gives undefined.
	evaluationNotFound = "notFound"
)

// evaluateResponse is what evaluating an expression gave: a value (ok), or why there is none.
type evaluateResponse struct {
	OK      bool   `json:"ok"`
	Value   any    `json:"value,omitempty"`
	Kind    string `json:"kind,omitempty"`
	Message string `json:"message,omitempty"`
}

// MarshalJSON writes value even when it is null, for a successful evaluation.
func (r evaluateResponse) MarshalJSON() ([]byte, error) {
	if r.OK {
		return json.Marshal(struct {
			OK    bool `json:"ok"`
			Value any  `json:"value"`
		}{true, r.Value})
	}
	type plain evaluateResponse
	return json.Marshal(plain(r))
}

// postEvaluateExpression evaluates an expression for one node of the editor's workflow, as the
// engine would while running that node in manual mode, with the node's input taken from the
// run data the editor holds. Each evaluation has the evaluator's time limit (1 s).
func (s *server) postEvaluateExpression(c fiber.Ctx) error {
	var req evaluateRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("The body must be JSON: " + err.Error())
	}
	if len(req.WorkflowData) == 0 || string(req.WorkflowData) == "null" {
		return badRequest("workflowData is missing")
	}
	if req.NodeName == "" {
		return badRequest("nodeName is missing")
	}
	if req.Expression == nil {
		return badRequest("expression is missing")
	}
	if !expr.IsExpression(*req.Expression) {
		return badRequest(`expression must start with "="`)
	}
	itemIndex, runIndex := 0, 0
	if req.ItemIndex != nil {
		itemIndex = *req.ItemIndex
	}
	if req.RunIndex != nil {
		runIndex = *req.RunIndex
	}
	if itemIndex < 0 || runIndex < 0 {
		return badRequest("itemIndex and runIndex must not be negative")
	}
	wf, err := workflow.Parse(req.WorkflowData)
	if err != nil {
		return err
	}
	if _, ok := wf.Node(req.NodeName); !ok {
		return &apiError{Status: fiber.StatusUnprocessableEntity, Message: fmt.Sprintf("The node %q does not exist in the workflow", req.NodeName)}
	}
	eng, err := engine.New(engine.Options{Registry: s.nodeTypes, Evaluator: s.ev, Logger: s.log,
		Env: config.NodeEnvironment(), Host: s.nodeHost})
	if err != nil {
		return err
	}
	ctx, err := eng.PreviewContext(engine.PreviewRequest{Workflow: wf, RunData: req.RunData, Node: req.NodeName,
		ItemIndex: itemIndex, RunIndex: runIndex})
	var se *engine.StartError
	if errors.As(err, &se) {
		return &apiError{Status: fiber.StatusUnprocessableEntity, Message: se.Error()}
	} else if err != nil {
		return err
	}
	return respond(c, evaluate(s.ev, *req.Expression, ctx))
}

// evaluate evaluates an expression and tells an error and undefined apart from a value.
func evaluate(ev *expr.Evaluator, expression string, c *expr.Context) evaluateResponse {
	out, err := ev.Evaluate(expression, c)
	if err != nil {
		msg := err.Error()
		var ee *expr.Error
		if errors.As(err, &ee) {
			msg = ee.Message
		}
		return evaluateResponse{Kind: evaluationInvalid, Message: msg}
	}
	if out == nil && isUndefined(ev, expression, c) {
		return evaluateResponse{Kind: evaluationNotFound, Message: "The expression gives undefined"}
	}
	if f, ok := out.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		out = jsNumberText(f)
	}
	return evaluateResponse{OK: true, Value: out}
}

// isUndefined reports whether an expression that gave nil gave undefined rather than null.
// Only a template that is one {{ }} segment can give either (text around a segment makes a
// string); its code is evaluated again inside a test for undefined, as an expression and, for
// code made of statements, through eval as the evaluator itself runs such code.
func isUndefined(ev *expr.Evaluator, expression string, c *expr.Context) bool {
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
