package main

import (
	"errors"
	"fmt"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/store"
)

// sharedWith is the execution filter that limits the caller to what they may see: nothing for the
// owner (who sees everything), else the executions of workflows shared with them.
func sharedWith(c fiber.Ctx) string {
	if u := sessionUser(c); u.GlobalRole != store.RoleOwner {
		return u.ID
	}
	return ""
}

// checkExecutionVisible answers 404 for an execution the caller may not see, as for one that
// does not exist.
func (s *server) checkExecutionVisible(c fiber.Ctx, id int64) error {
	owner := sharedWith(c)
	if owner == "" {
		return nil
	}
	list, err := s.in.Store.ListExecutions(c.Context(), store.ExecutionFilter{IDs: []int64{id}, SharedWith: owner}, 1)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return executionNotFound(id, store.ErrNotFound)
	}
	return nil
}

// runAs refuses a member's run of a saved workflow that is not shared with them, and returns
// the id of the user the run acts for (see store.Execution.UserID): the caller for a workflow
// not saved yet, whatever id it carries; for a saved one what execution.ActsFor says (the
// editor sends the document to run, so only the workflow's owner or the instance owner acts
// for the owner).
func (s *server) runAs(c fiber.Ctx, workflowID string) (string, error) {
	caller := sessionUser(c)
	if workflowID == "" {
		return caller.ID, nil
	}
	if _, err := s.in.Store.GetWorkflow(c.Context(), workflowID); errors.Is(err, store.ErrNotFound) {
		return caller.ID, nil
	} else if err != nil {
		return "", err
	}
	if _, err := s.in.Store.GetWorkflowFor(c.Context(), caller, workflowID); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", notFound(fmt.Sprintf("Workflow with ID %s could not be found", workflowID))
		}
		return "", err
	}
	return execution.ActsFor(c.Context(), s.in.Store, caller, workflowID)
}
