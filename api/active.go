package main

import (
	"context"
	"errors"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// activationStoreError words a refused activation (400, or 409 for a webhook conflict), and
// the store's other failures as workflowStoreError does.
func activationStoreError(err error, id, name string) error {
	var refused *trigger.RefusedError
	if !errors.As(err, &refused) {
		return workflowStoreError(err, id, name)
	}
	status := fiber.StatusBadRequest
	var conflict *store.WebhookConflictError
	if errors.As(refused, &conflict) {
		status = fiber.StatusConflict
	}
	return &apiError{Status: status, Message: "Workflow could not be activated: " + refused.Error(), cause: err}
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

// setActive activates or deactivates a workflow the caller may see, like any other save (the
// public API's activate and deactivate).
func (s *server) setActive(ctx context.Context, u *store.User, id string, active bool) (*store.Workflow, error) {
	w, err := s.activation.SetActive(ctx, u, id, active)
	if err != nil {
		return nil, activationStoreError(err, id, "")
	}
	return w, nil
}
