package main

import (
	"context"
	"errors"

	"github.com/gofiber/fiber/v3"

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
	hooks, err := trigger.Check(wf, s.nodeTypes, s.ev)
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
	s.hooks.Forget(id)
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
