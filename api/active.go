package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// activation is the one check every save of a workflow goes through inside its transaction
// (PATCH /rest/workflows/:id, and the public API's activate and deactivate): an active workflow
// must pass trigger.Check, and its production webhooks are registered with the save, so a
// conflict or an issue leaves nothing changed.
func (s *server) activation(w *store.Workflow) error {
	if !w.Active {
		return nil
	}
	doc, err := w.Document()
	if err != nil {
		return err
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return err
	}
	hooks, err := trigger.Check(wf, s.nodeTypes, s.hooks.ev)
	if err != nil {
		return &activationError{err}
	}
	w.Webhooks = make([]store.Webhook, len(hooks))
	for i, h := range hooks {
		w.Webhooks[i] = store.Webhook{Node: h.Node, Method: h.Method, Path: h.Path, PathLength: h.PathLength}
		if h.WebhookID != "" {
			id := h.WebhookID
			w.Webhooks[i].WebhookID = &id
		}
	}
	return nil
}

// activationError is a refusal of trigger.Check.
type activationError struct{ err error }

func (e *activationError) Error() string { return e.err.Error() }
func (e *activationError) Unwrap() error { return e.err }

// afterSave tells every process that the workflow's activation may have changed and records
// the outcome for GET /rest/active/error/:id. It returns the answer for a failed activation,
// nil otherwise (other failures are the caller's to word).
func (s *server) afterSave(ctx context.Context, id string, saved *store.Workflow, err error) error {
	var ae *activationError
	var conflict *store.WebhookConflictError
	switch {
	case errors.As(err, &ae):
		_ = trigger.SetError(ctx, s.in.Redis, id, ae.Error())
		return &apiError{Status: fiber.StatusBadRequest, Message: "Workflow could not be activated: " + ae.Error(), cause: err}
	case errors.As(err, &conflict):
		_ = trigger.SetError(ctx, s.in.Redis, id, conflict.Error())
		return &apiError{Status: fiber.StatusConflict, Message: "Workflow could not be activated: " + conflict.Error(), cause: err}
	case err != nil:
		return nil
	}
	s.hooks.forget(id)
	if saved == nil || saved.Active {
		_ = trigger.ClearError(ctx, s.in.Redis, id)
	}
	if err := trigger.Announce(ctx, s.in.Redis, id); err != nil {
		s.log.Warn("announce activation", "workflow", id, "err", err)
	}
	return nil
}

// getActive lists the ids of the active workflows the caller may see.
func (s *server) getActive(c fiber.Ctx) error {
	ids, err := s.in.Store.ActiveWorkflowIDs(c.Context(), sessionUser(c))
	if err != nil {
		return err
	}
	return respond(c, ids)
}

// getActiveError answers the last activation error of a workflow the caller may see
// ({time, error: {message}}), or null when its triggers run.
func (s *server) getActiveError(c fiber.Ctx) error {
	id := c.Params("id")
	if _, err := s.in.Store.GetWorkflowFor(c.Context(), sessionUser(c), id); err != nil {
		return workflowStoreError(err, id, "")
	}
	e, ok, err := trigger.GetError(c.Context(), s.in.Redis, id)
	if err != nil {
		return err
	}
	if !ok {
		return respond(c, nil)
	}
	return respond(c, e)
}

// waitingWebhook resumes an execution waiting at a Wait node for its webhook
// (/webhook-waiting/:executionId, plus the node's webhook suffix).
func (s *server) waitingWebhook(c fiber.Ctx) error {
	raw := c.Params("id")
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return notFound(fmt.Sprintf("The execution %q does not exist.", raw))
	}
	e, err := s.in.Store.GetExecution(c.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return notFound(fmt.Sprintf("The execution %q does not exist.", raw))
	}
	if err != nil {
		return err
	}
	switch {
	case e.Status == workflow.StatusWaiting:
	case e.Finished || e.StoppedAt != nil:
		return &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("The execution %q has finished already.", raw)}
	default:
		return &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("The execution %q is running already.", raw)}
	}
	d, err := s.in.Store.GetExecutionData(c.Context(), id)
	if err != nil {
		return err
	}
	wf, err := workflow.Parse(d.WorkflowData)
	if err != nil {
		return err
	}
	var state engine.State
	if err := json.Unmarshal(d.Data, &state); err != nil || len(state.ExecutionData.NodeExecutionStack) == 0 {
		return &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("The execution %q is not waiting for a webhook.", raw)}
	}
	hook, err := s.resumeWebhook(wf, state.ExecutionData.NodeExecutionStack[0].Node, c.Method(), webhookPath(c))
	if err != nil {
		return err
	}
	if c.Method() == "OPTIONS" {
		return s.preflight(c, []string{hook.Method})
	}
	var start execution.StartData
	if len(d.StartData) > 0 {
		_ = json.Unmarshal(d.StartData, &start)
	}
	h := &hit{hook: *hook, wf: wf, params: map[string]string{}, userID: e.UserID}
	return s.serveWebhook(c, h, func(item workflow.Item, respond *trigger.Response) (int64, error) {
		state.ExecutionData.NodeExecutionStack[0].Data.Main = [][]workflow.Item{{item}}
		data, err := json.Marshal(&state)
		if err != nil {
			return 0, err
		}
		start.Respond = respond
		startData, err := json.Marshal(start)
		if err != nil {
			return 0, err
		}
		ok, err := s.in.Store.ResumeWaitingExecution(c.Context(), id, data, startData)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("The execution %q is running already.", raw)}
		}
		return id, s.in.Queue.EnqueueExecution(c.Context(), queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: id})
	})
}

// resumeWebhook finds the resume webhook of the waiting node for a method and suffix.
func (s *server) resumeWebhook(wf *workflow.Workflow, nodeName, method, suffix string) (*trigger.Webhook, error) {
	missing := notFound(fmt.Sprintf("The execution is not waiting for a webhook call %s /%s.", method, suffix))
	n, ok := wf.Node(nodeName)
	if !ok {
		return nil, missing
	}
	t, ok := s.nodeTypes.Get(n.Type, n.TypeVersion)
	if !ok {
		return nil, missing
	}
	hooks, err := trigger.NodeWebhooks(wf, n, t, s.hooks.ev)
	if err != nil {
		return nil, err
	}
	for i := range hooks {
		h := &hooks[i]
		if h.Restart && h.Path == strings.Trim(suffix, "/") && (h.Method == method || method == "OPTIONS") {
			return h, nil
		}
	}
	return nil, missing
}

// setActive activates or deactivates a workflow the caller may see, through activation and
// afterSave like any other save (the public API's activate and deactivate).
func (s *server) setActive(ctx context.Context, u *store.User, id string, active bool) (*store.Workflow, error) {
	w, err := s.in.Store.UpdateWorkflow(ctx, u, id, func(w *store.Workflow) error {
		w.Active = active
		return s.activation(w)
	})
	if err := s.afterSave(ctx, id, w, err); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, workflowStoreError(err, id, "")
	}
	return w, nil
}
