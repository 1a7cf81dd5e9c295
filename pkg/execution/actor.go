package execution

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Every execution acts for one user (store.Execution.UserID), decided when it is created and
// kept by retries and resumed runs: the owner of its saved workflow for trigger, webhook and
// error runs and for manual runs by that owner or the instance owner (see ActsFor); whoever
// started any other manual run; for a sub-workflow, see subWorkflows.start. The run uses that
// user's credentials and may run as sub-workflows (Execute Workflow, source database) and as
// its error workflow only the workflows that user may run: the instance owner any, a member
// those shared with them, the rule of the REST api.

// NotRunnableError is why a run may not run a stored workflow: it does not exist, or the user
// the run acts for may not run it. The message is the same for both, so a run cannot probe
// for other users' workflow ids.
type NotRunnableError struct{ WorkflowID string }

func (e *NotRunnableError) Error() string {
	return fmt.Sprintf("Workflow %s could not be found or you may not run it.", e.WorkflowID)
}

// Unwrap makes the error match store.ErrNotFound.
func (e *NotRunnableError) Unwrap() error { return store.ErrNotFound }

// WorkflowOwnerID returns the id of the owner of saved workflow workflowID, "" when the workflow
// is not saved (or has no owner): whom a run of it acts for.
func WorkflowOwnerID(ctx context.Context, s *store.Store, workflowID string) (string, error) {
	if workflowID == "" {
		return "", nil
	}
	u, err := s.WorkflowOwner(ctx, workflowID)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return u.ID, nil
}

// ActsFor returns whom a run of saved workflow workflowID, started by u with a document u
// supplied, acts for: the workflow's owner when u is that owner or the instance owner (who may
// use everything anyway), else u. A share, or a document merely carrying the workflow's id,
// must not lend the owner's credentials and workflows to what u runs. u must be allowed to
// run the workflow; a workflow without an owner leaves u.
func ActsFor(ctx context.Context, s *store.Store, u *store.User, workflowID string) (string, error) {
	owner, err := WorkflowOwnerID(ctx, s, workflowID)
	if err != nil {
		return "", err
	}
	if owner == "" || (owner != u.ID && u.GlobalRole != store.RoleOwner) {
		return u.ID, nil
	}
	return owner, nil
}

// storeLoader gives Execute Workflow's database source the stored workflows that userID, the
// user the run acts for, may run.
type storeLoader struct {
	s      *store.Store
	userID string
}

// LoadWorkflow implements nodes.WorkflowLoader.
func (l storeLoader) LoadWorkflow(ctx context.Context, id string) (*workflow.Workflow, error) {
	b, err := l.document(ctx, id)
	if err != nil {
		return nil, err
	}
	return workflow.Parse(b)
}

// document is the stored document of workflow id, or a NotRunnableError.
func (l storeLoader) document(ctx context.Context, id string) ([]byte, error) {
	_, b, err := l.userAndDocument(ctx, id)
	return b, err
}

// userAndDocument is the user the loader loads for and the stored document of workflow id, or
// a NotRunnableError.
func (l storeLoader) userAndDocument(ctx context.Context, id string) (*store.User, []byte, error) {
	if l.userID == "" {
		return nil, nil, &NotRunnableError{id}
	}
	u, err := l.s.GetUser(ctx, l.userID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, &NotRunnableError{id}
	}
	if err != nil {
		return nil, nil, err
	}
	b, err := l.s.WorkflowDocumentFor(ctx, u, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, &NotRunnableError{id}
	}
	return u, b, err
}
