package main

import (
	"encoding/json"
	"errors"

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

// evaluateResponse is what evaluating an expression gave: a value (ok), or why there is none.
type evaluateResponse struct {
	OK      bool               `json:"ok"`
	Value   any                `json:"value,omitempty"`
	Kind    engine.PreviewKind `json:"kind,omitempty"`
	Message string             `json:"message,omitempty"`
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

// postEvaluateExpression evaluates an expression for one node of the editor's workflow through
// engine.Preview (manual mode, the node's input taken from the run data the editor holds, the
// evaluator's time limit of 1 s).
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
	eng, err := engine.New(engine.Options{Registry: s.nodeTypes, Evaluator: s.ev, Logger: s.log,
		Env: config.NodeEnvironment(), Host: s.nodeHost})
	if err != nil {
		return err
	}
	out, err := eng.Preview(engine.PreviewRequest{Workflow: wf, RunData: req.RunData, Node: req.NodeName,
		ItemIndex: itemIndex, RunIndex: runIndex}, *req.Expression)
	var se *engine.StartError
	if errors.As(err, &se) {
		return &apiError{Status: fiber.StatusUnprocessableEntity, Message: se.Error()}
	} else if err != nil {
		return err
	}
	return respond(c, evaluateResponse(out))
}
