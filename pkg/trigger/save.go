package trigger

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/workflowtrigger"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Activation is the use case of saving a workflow with its activation, shared by every call
// that saves, activates, deactivates or deletes a workflow (the editor's and the public API's):
// inside the save's transaction an active workflow must pass Check and its production webhooks
// are stored with it, so a refusal or a webhook conflict leaves nothing changed; after the save
// the outcome is recorded for GET /rest/active/error/:id and every process is told
// (Announce). Its fields are the dependencies; Webhooks and Logger may be nil.
type Activation struct {
	Store     *store.Store
	Redis     redis.UniversalClient
	Registry  *nodes.Registry
	Evaluator *expr.Evaluator
	// Webhooks forgets what this process cached about a workflow's production webhooks.
	Webhooks interface{ Forget(workflowID string) }
	// Logger reports a failed announcement (the save stands); nil means slog.Default().
	Logger *slog.Logger
	// Queue takes the runs of Workflow Trigger nodes a save causes; nil: none start.
	Queue *queue.Client
}

// RefusedError is a save of an active workflow that Check refused (a *NodeIssueError or
// ErrNoTrigger) or whose webhooks conflict with another workflow's (a
// *store.WebhookConflictError, through Unwrap). Nothing was saved.
type RefusedError struct{ Err error }

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Update changes the stored workflow id that u may see with change, then checks its activation
// and registers its webhooks, all in one transaction, then announces it. It fails with a
// *RefusedError when the workflow may not be active, and otherwise with the store's or
// change's error.
func (a *Activation) Update(ctx context.Context, u *store.User, id string, change func(w *store.Workflow) error) (*store.Workflow, error) {
	wasActive := false
	w, err := a.Store.UpdateWorkflow(ctx, u, id, func(w *store.Workflow) error {
		wasActive = w.Active
		if err := change(w); err != nil {
			return err
		}
		return a.prepare(w)
	})
	if err := a.saved(ctx, id, w, err); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	a.workflowEvents(ctx, w, wasActive)
	return w, nil
}

// workflowEvents queues a run for each enabled Workflow Trigger of w listening to what this save
// was: "activate" when it turned w on, "update" when w was and stays active. The save happens in
// one process and the task id holds the saved version, so each event starts one run.
func (a *Activation) workflowEvents(ctx context.Context, w *store.Workflow, wasActive bool) {
	if a.Queue == nil || w == nil || !w.Active {
		return
	}
	event := workflowtrigger.EventUpdate
	if !wasActive {
		event = workflowtrigger.EventActivate
	}
	doc, err := w.Document()
	if err != nil {
		return
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return
	}
	now := time.Now()
	for _, n := range wf.Nodes {
		if n.Type != workflowtrigger.TypeName || n.Disabled || !workflowtrigger.Listens(n.Parameters, event) {
			continue
		}
		p := queue.TriggerFire{WorkflowID: w.ID, Node: n.Name, FireTime: now.Unix(), Event: event,
			Version: w.VersionID, EventTime: now.UnixMilli()}
		if err := a.Queue.EnqueueTrigger(ctx, p); err != nil {
			a.logger().Warn("queue workflow event", "workflow", w.ID, "node", n.Name, "event", event, "err", err)
		}
	}
}

func (a *Activation) logger() *slog.Logger {
	if a.Logger == nil {
		return slog.Default()
	}
	return a.Logger
}

// SetActive activates or deactivates the workflow id that u may see, as Update does.
func (a *Activation) SetActive(ctx context.Context, u *store.User, id string, active bool) (*store.Workflow, error) {
	return a.Update(ctx, u, id, func(w *store.Workflow) error {
		w.Active = active
		return nil
	})
}

// Deleted announces that workflow id was deleted, so its triggers stop everywhere.
func (a *Activation) Deleted(ctx context.Context, id string) {
	_ = a.saved(ctx, id, nil, nil)
}

// prepare checks an active workflow and gives it the production webhooks to store.
func (a *Activation) prepare(w *store.Workflow) error {
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
	hooks, err := Check(wf, a.Registry, a.Evaluator)
	if err != nil {
		return &RefusedError{err}
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

// saved records the outcome of a save (err is the save's error) and tells every process that
// the workflow's activation may have changed. It returns a *RefusedError for a refused
// activation, nil otherwise (other failures are the caller's to word).
func (a *Activation) saved(ctx context.Context, id string, w *store.Workflow, err error) error {
	var r *RefusedError
	var conflict *store.WebhookConflictError
	switch {
	case errors.As(err, &r):
		_ = SetError(ctx, a.Redis, id, r.Error())
		return r
	case errors.As(err, &conflict):
		_ = SetError(ctx, a.Redis, id, conflict.Error())
		return &RefusedError{conflict}
	case err != nil:
		return nil
	}
	if a.Webhooks != nil {
		a.Webhooks.Forget(id)
	}
	if w == nil || w.Active {
		_ = ClearError(ctx, a.Redis, id)
	}
	if err := Announce(ctx, a.Redis, id); err != nil {
		a.logger().Warn("announce activation", "workflow", id, "err", err)
	}
	return nil
}
