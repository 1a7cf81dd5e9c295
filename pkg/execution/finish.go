package execution

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// finish records the outcome (with a retry's success on the original and the webhook answer,
// in the same transaction), tells the editor and any waiting api, saves changed static data,
// starts the error workflow of a failed run, and drops executions the save settings say not to
// keep.
func (r *Runner) finish(ctx context.Context, e *store.Execution, wf *workflow.Workflow, res *engine.Result, h *hooks) error {
	status := res.Status
	keep := r.cfg.Saving.of(wf.Settings).keep(e.Mode, status)
	out := store.Outcome{Status: status, WaitTill: res.WaitTill, RetryOf: e.RetryOf, Answer: h.answer.outcome(res)}
	// An execution not to be kept is removed at once: its outcome reaches the editor through
	// push and a webhook caller through its answer, and nobody reads its row again.
	var ok bool
	if keep {
		data, err := json.Marshal(res.State)
		if err != nil {
			return fmt.Errorf("encode result: %w", err)
		}
		out.Data = data
		if ok, err = r.cfg.Store.FinishExecution(ctx, e.ID, e.LeaseOwner, out); err != nil {
			return err
		}
	} else {
		var err error
		if ok, err = r.cfg.Store.DropExecution(ctx, e.ID, e.LeaseOwner, out); err != nil {
			return err
		}
	}
	h.answer.settled(ctx, out.Answer, ok)
	if !ok {
		r.log.Warn("execution changed under the worker; result dropped", "execution", e.ID)
		return nil
	}
	if res.StaticDataChanged && wf.ID != "" {
		if b, err := json.Marshal(res.StaticData); err == nil {
			if err := r.cfg.Store.SetWorkflowStaticData(ctx, wf.ID, b); err != nil {
				r.log.Warn("save static data", "workflow", wf.ID, "err", err)
			}
		}
	}
	h.finished(ctx, res, status)
	if status != workflow.StatusWaiting {
		r.cfg.Metrics.Finished(string(e.Mode), string(status), wf.ID, time.Since(h.startedAt).Seconds())
	}
	if status == workflow.StatusError {
		r.startErrorWorkflow(ctx, e, wf, res)
	}
	// Only a caller that stopped the run, or that retried an execution, waits for its end (and
	// looks every second besides): other runs need not announce it.
	if h.stopAsked || e.Mode == workflow.ModeRetry {
		r.svc.announceFinished(ctx, e.ID)
	}
	return nil
}

// fail ends an execution that could not run at all (unreadable data, a workflow that cannot
// start) with an error naming the cause.
func (r *Runner) fail(ctx context.Context, e *store.Execution, cause error) error {
	ee := &workflow.ExecutionError{Name: "WorkflowOperationError", Message: cause.Error()}
	var se *engine.StartError
	if errors.As(cause, &se) {
		ee.Node = se.Node
	}
	state := &engine.State{ResultData: engine.ResultData{RunData: workflow.RunData{}, Error: ee}}
	wf := &workflow.Workflow{}
	var answer *answerer
	var awaited *awaiter
	if d, err := r.cfg.Store.GetExecutionData(ctx, e.ID); err == nil {
		if parsed, err := workflow.Parse(d.WorkflowData); err == nil {
			wf = parsed
		}
		answer = r.answererFor(e.ID, d.StartData)
		awaited = r.awaiterFor(e.ID, d.StartData)
	}
	res := &engine.Result{Status: workflow.StatusError, Mode: e.Mode, State: state}
	h := r.hooks(e, wf)
	h.answer = answer
	h.awaited = awaited
	return r.finish(context.WithoutCancel(ctx), e, wf, res, h)
}
