package execution

import (
	"context"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// hooks follow one run: they checkpoint the state after every node and, for runs started from
// the editor, send progress to that editor session in order.
type hooks struct {
	r         *Runner
	e         *store.Execution
	wf        *workflow.Workflow
	id        string
	startedAt time.Time
	// answer sends a webhook execution's answer to the caller waiting for it; nil otherwise.
	answer *answerer
	// awaited records the outcome for the listener that waits for the run; nil otherwise.
	awaited *awaiter
	// stopAsked is set when someone asked to stop the run: that caller waits for its end.
	stopAsked bool
	// based is set once this run wrote a full checkpoint; saved is how many node runs
	// (state.NodeExecutionOrder) the checkpoint holds. See checkpoint.
	based bool
	saved int
	// lease keeps the run's claim and hears which node it starts; nil for none.
	lease *lease
}

func (r *Runner) hooks(e *store.Execution, wf *workflow.Workflow) *hooks {
	started := time.Now().UTC()
	if e.StartedAt != nil {
		started = e.StartedAt.UTC()
	}
	return &hooks{r: r, e: e, wf: wf, id: IDString(e.ID), startedAt: started}
}

// send pushes a message to the editor session that started the run, if any. It goes out even
// when the run's context is cancelled: the end of a node a stop or the time limit interrupted is
// what the editor must show then.
func (h *hooks) send(ctx context.Context, typ string, data any) {
	if h.e.SessionID == "" {
		return
	}
	if err := h.r.cfg.Publisher.Send(context.WithoutCancel(ctx), h.e.SessionID, push.Message{Type: typ, Data: data}); err != nil {
		h.r.log.Warn("push failed", "execution", h.id, "type", typ, "err", err)
	}
}

func (h *hooks) started(ctx context.Context) {
	h.r.cfg.Metrics.Started(string(h.e.Mode))
	msg := push.ExecutionStarted{ExecutionID: h.id, Mode: string(h.e.Mode), StartedAt: h.startedAt.Format(time.RFC3339Nano),
		WorkflowID: h.wf.ID, WorkflowName: h.wf.Name}
	if h.e.RetryOf != nil {
		msg.RetryOf = IDString(*h.e.RetryOf)
	}
	h.send(ctx, push.TypeExecutionStarted, msg)
}

func (h *hooks) NodeExecuteBefore(ctx context.Context, ev engine.NodeEvent) {
	if h.lease != nil && !h.effectFree(ev.Node) {
		h.lease.started(ev.Node)
	}
	h.send(ctx, push.TypeNodeExecuteBefore, push.NodeExecuteBefore{ExecutionID: h.id, NodeName: ev.Node})
}

// NodeExecuteAfter checkpoints first, so what the editor is told has happened is also what a
// worker taking over would continue from. After the last node there is nothing to continue: the
// result written when the run ends is the checkpoint. See needsCheckpoint for the nodes whose
// checkpoint is left to a later one.
//
// A node that ended because the run was interrupted (the worker stopping, a stop request, the
// time limit) is not checkpointed: on a hand-back the previous checkpoint is where the next
// worker goes on, so the node runs once more instead of leaving an "interrupted" record beside
// the real one; a stop or a timeout writes its result when the run ends.
func (h *hooks) NodeExecuteAfter(ctx context.Context, ev engine.NodeEvent, task *workflow.TaskData, state *engine.State) error {
	needed, durable := h.needsCheckpoint(ev, task, state)
	if ctx.Err() != nil || !needed {
		h.send(ctx, push.TypeNodeExecuteAfter, push.NodeExecuteAfter{ExecutionID: h.id, NodeName: ev.Node, Data: task})
		return nil
	}
	if err := h.checkpoint(context.WithoutCancel(ctx), state, durable); err != nil {
		return err
	}
	h.send(ctx, push.TypeNodeExecuteAfter, push.NodeExecuteAfter{ExecutionID: h.id, NodeName: ev.Node, Data: task})
	return nil
}

func (h *hooks) ConsoleMessage(ctx context.Context, ev engine.NodeEvent, _ string, args []any) {
	h.send(ctx, push.TypeSendConsoleMessage, push.ConsoleMessage{Source: fmt.Sprintf("Node: %q", ev.Node), Messages: args})
}

func (h *hooks) WorkflowExecuteAfter(context.Context, *engine.Result) {}

// runResult is a finished run as the editor reads it (n8n's IRun).
type runResult struct {
	Data      *engine.State   `json:"data"`
	Finished  bool            `json:"finished"`
	Mode      workflow.Mode   `json:"mode"`
	StartedAt string          `json:"startedAt"`
	StoppedAt string          `json:"stoppedAt"`
	WaitTill  *time.Time      `json:"waitTill"`
	Status    workflow.Status `json:"status"`
}

func (h *hooks) finished(ctx context.Context, res *engine.Result, status workflow.Status) {
	msg := push.ExecutionFinished{ExecutionID: h.id, Data: runResult{
		Data: res.State, Finished: status == workflow.StatusSuccess, Mode: h.e.Mode,
		StartedAt: h.startedAt.Format(time.RFC3339Nano), StoppedAt: time.Now().UTC().Format(time.RFC3339Nano),
		WaitTill: res.WaitTill, Status: status,
	}}
	if h.e.RetryOf != nil {
		msg.RetryOf = IDString(*h.e.RetryOf)
	}
	h.send(ctx, push.TypeExecutionFinished, msg)
	h.answer.finished(ctx, res)
	h.awaited.finished(ctx, status)
}
