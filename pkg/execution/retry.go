package execution

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// RetryError says why an execution cannot be retried.
type RetryError struct {
	Reason string
	// Conflict marks a refusal because another retry of the execution is still running: at most
	// one runs at a time, so a repeated request never runs the side effects twice.
	Conflict bool
}

func (e *RetryError) Error() string { return e.Reason }

// Retry starts a new execution (mode retry, retryOf the original) that continues the failed
// execution id from the node that failed, unless another retry of it is still pending or one
// succeeded (RetryError). With loadWorkflow the workflow as saved now is run
// instead of the stored snapshot (its nodes must still include those that ran).
func (s *Service) Retry(ctx context.Context, id int64, loadWorkflow bool) (*store.Execution, error) {
	orig, err := s.cfg.Store.GetExecution(ctx, id)
	if err != nil {
		return nil, err
	}
	switch {
	case orig.Status == workflow.StatusSuccess:
		return nil, &RetryError{Reason: "The execution succeeded, so it cannot be retried."}
	case orig.RetrySuccessID != nil:
		return nil, &RetryError{Reason: "The execution was already retried successfully."}
	case orig.Status != workflow.StatusError && orig.Status != workflow.StatusCanceled && orig.Status != workflow.StatusCrashed:
		return nil, &RetryError{Reason: fmt.Sprintf("Only stopped executions can be retried; this one is %s.", orig.Status)}
	}
	d, err := s.cfg.Store.GetExecutionData(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(d.Data) == 0 || string(d.Data) == "null" {
		return nil, &RetryError{Reason: "The execution has no saved data to retry from."}
	}
	var state engine.State
	if err := json.Unmarshal(d.Data, &state); err != nil {
		return nil, fmt.Errorf("read execution %d data: %w", id, err)
	}
	state.PrepareRetry()
	doc := []byte(d.WorkflowData)
	if loadWorkflow {
		if orig.WorkflowID == nil {
			return nil, &RetryError{Reason: "The execution's workflow was never saved, so it cannot be loaded."}
		}
		// As saved now, and only when the user the execution acts for may still run it.
		doc, err = (storeLoader{s: s.cfg.Store, userID: orig.UserID}).document(ctx, *orig.WorkflowID)
		var refused *NotRunnableError
		if errors.As(err, &refused) {
			return nil, &RetryError{Reason: refused.Error()}
		}
		if err != nil {
			return nil, err
		}
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return nil, &RetryError{Reason: "The workflow cannot be read: " + err.Error()}
	}
	for name := range state.ResultData.RunData {
		if _, ok := wf.Node(name); !ok {
			return nil, &RetryError{Reason: fmt.Sprintf("The node %q that ran is no longer in the workflow.", name)}
		}
	}
	retry, err := s.Create(ctx, New{Workflow: wf, Mode: workflow.ModeRetry, RetryOf: &orig.ID, State: &state, UserID: orig.UserID})
	switch {
	case errors.Is(err, store.ErrRetried):
		return nil, &RetryError{Reason: "The execution was already retried successfully."}
	case errors.Is(err, store.ErrRetryPending):
		return nil, &RetryError{Reason: "A retry of this execution is still running.", Conflict: true}
	}
	return retry, err
}
