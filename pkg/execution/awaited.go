package execution

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// A listener trigger that acknowledges its message only once the run is over (RabbitMQ) waits
// for the run's outcome, which any worker may produce. The worker keeps the outcome in the
// database by execution id, beside webhook answers (store.SaveWebhookAnswer: the first one
// stays, it outlives an execution its settings do not keep, pruned with them), then announces
// it on bus.Finished; the listener reads it when told, and now and then besides.

// awaiter records the outcome of a run a listener waits for.
type awaiter struct {
	r    *Runner
	id   int64
	done bool
	engine.HookFuncs
}

// awaiterFor returns the awaiter of an execution, nil when no listener waits for it.
func (r *Runner) awaiterFor(id int64, startData []byte) *awaiter {
	var sd struct {
		Await nodes.Await `json:"await"`
	}
	if len(startData) == 0 || json.Unmarshal(startData, &sd) != nil {
		return nil
	}
	return r.awaiterOf(id, sd.Await)
}

// awaiterOf is awaiterFor with the start data's await already read.
func (r *Runner) awaiterOf(id int64, await nodes.Await) *awaiter {
	if await == nodes.AwaitNone {
		return nil
	}
	a := &awaiter{r: r, id: id}
	if await == nodes.AwaitAcknowledge {
		a.After = a.nodeRan
	}
	return a
}

func (a *awaiter) nodeRan(ctx context.Context, ev engine.NodeEvent, _ *workflow.TaskData, state *engine.State) error {
	if a.done {
		return nil
	}
	nodeCtx, _ := state.ExecutionData.ContextData["node:"+ev.Node].(map[string]any)
	if nodes.MessageAcknowledged(nodeCtx) {
		a.send(ctx, nodes.Outcome{Acknowledged: true})
	}
	return nil
}

// finished records the end of the run; a run put to wait has not ended.
func (a *awaiter) finished(ctx context.Context, status workflow.Status) {
	if a == nil || a.done || !slices.Contains(workflow.TerminalStatuses, status) {
		return
	}
	a.send(ctx, nodes.Outcome{Status: status})
}

func (a *awaiter) send(ctx context.Context, o nodes.Outcome) {
	a.done = true
	ctx = context.WithoutCancel(ctx)
	b, _ := json.Marshal(o)
	if err := a.r.cfg.Store.SaveWebhookAnswer(ctx, a.id, b); err != nil {
		// The listener reads the execution's status instead (unless its settings drop it).
		a.r.log.Warn("keep run outcome", "execution", a.id, "err", err)
	}
	a.r.svc.announceFinished(ctx, a.id)
}

// Outcome looks once for the outcome of execution id, which a listener started with an await:
// the outcome its worker recorded, or else the status of an execution that ended without one
// (canceled before it ran). ended is false while the run goes on; a running execution whose
// worker died is taken over and ends later. Waiters look again when bus.Finished names the
// execution, and now and then besides (a notice can be lost).
func (s *Service) Outcome(ctx context.Context, id int64) (o nodes.Outcome, ended bool, err error) {
	recorded := func() (nodes.Outcome, bool, error) {
		b, err := s.cfg.Store.GetWebhookAnswer(ctx, id)
		if err != nil {
			return nodes.Outcome{}, false, err
		}
		var o nodes.Outcome
		if err := json.Unmarshal(b, &o); err != nil {
			return nodes.Outcome{}, false, err
		}
		return o, true, nil
	}
	if o, ok, err := recorded(); ok || !errors.Is(err, store.ErrNotFound) {
		return o, ok, err
	}
	e, err := s.cfg.Store.GetExecution(ctx, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		// Removed: by the worker after it recorded the outcome (a run its settings do not
		// keep), or by someone deleting it.
		if o, ok, err := recorded(); ok || !errors.Is(err, store.ErrNotFound) {
			return o, ok, err
		}
		return nodes.Outcome{}, true, nil
	case err != nil:
		return nodes.Outcome{}, false, err
	case slices.Contains(workflow.TerminalStatuses, e.Status):
		// Ended without a recorded outcome: canceled before a worker ran it, or the outcome
		// could not be kept; the row tells.
		if o, ok, err := recorded(); ok || !errors.Is(err, store.ErrNotFound) {
			return o, ok, err
		}
		return nodes.Outcome{Status: e.Status}, true, nil
	}
	return nodes.Outcome{}, false, nil
}
