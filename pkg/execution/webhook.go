package execution

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/nodes/respondtowebhook"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// AnswerKeep is how long a webhook answer stays readable in Redis after it was published, for an
// api that missed the message.
const AnswerKeep = time.Minute

// WebhookAnswer is a webhook execution's answer as the api receives it.
type WebhookAnswer struct {
	// Token is the waiting request's token (trigger.Response.Token).
	Token       string         `json:"token"`
	ExecutionID int64          `json:"executionId"`
	Answer      trigger.Answer `json:"answer"`
}

// answerer sends the answer of a webhook execution whose caller waits for it (response mode
// lastNode or responseNode): the first Respond to Webhook answer as soon as that node ran,
// otherwise the answer the finished run gives.
//
// Where the answer goes through Redis (the caller waits in another process) it is kept in the
// database before it is published. An answer decided by the run's last node, or by the finished
// run, is kept by the run's final write (store.Outcome.Answer) rather than by a write of its
// own, and published once that write is done; a Respond to Webhook answer before the last node
// goes out at once.
type answerer struct {
	r        *Runner
	id       int64
	respond  trigger.Response
	answered bool
	// held is the answer to keep with the outcome; fromNode tells that a node decided it (it
	// goes out even if the final write does not take it, as it would have before the end).
	held     *WebhookAnswer
	fromNode bool
	engine.HookFuncs
}

// answererFor returns the answerer of an execution, nil when nobody waits for its answer.
func (r *Runner) answererFor(id int64, startData []byte) *answerer {
	var sd struct {
		Respond *trigger.Response `json:"respond"`
	}
	if len(startData) == 0 || json.Unmarshal(startData, &sd) != nil {
		return nil
	}
	return r.answererOf(id, sd.Respond)
}

// answererOf is answererFor with the start data's respond already read.
func (r *Runner) answererOf(id int64, respond *trigger.Response) *answerer {
	if respond == nil || !respond.WaitsForRun() {
		return nil
	}
	a := &answerer{r: r, id: id, respond: *respond}
	a.After = a.nodeRan
	return a
}

func (a *answerer) nodeRan(ctx context.Context, ev engine.NodeEvent, task *workflow.TaskData, state *engine.State) error {
	if a.answered || a.respond.Mode != trigger.ModeResponseNode {
		return nil
	}
	nodeCtx, _ := state.ExecutionData.ContextData["node:"+ev.Node].(map[string]any)
	if resp, ok := respondtowebhook.ResponseFrom(nodeCtx); ok {
		ans := trigger.RespondNodeAnswer(resp)
		if a.r.answered == nil && runEnds(task, state) {
			// The final write follows at once: the answer goes with it.
			a.hold(ans, true)
			return nil
		}
		a.send(ctx, ans)
	}
	return nil
}

// runEnds tells whether the run ends after the node that produced task: nothing is left to
// run or waiting for input, and the node did not fail.
func runEnds(task *workflow.TaskData, state *engine.State) bool {
	return len(state.ExecutionData.NodeExecutionStack) == 0 && state.ExecutionData.Waiting.Len() == 0 && task.Error == nil
}

func (a *answerer) hold(ans trigger.Answer, fromNode bool) {
	a.answered = true
	a.held = &WebhookAnswer{Token: a.respond.Token, ExecutionID: a.id, Answer: ans}
	a.fromNode = fromNode
}

// outcome is the answer the final write of the run keeps (nil for none), for a run that
// settled (finished, or put to wait) and whose answer does not stay in this process: the
// answer held back, or the one the run's result gives when it did not answer.
func (a *answerer) outcome(res *engine.Result) []byte {
	if a == nil || a.r.answered != nil {
		return nil
	}
	if !a.answered {
		a.hold(a.respond.Finished(res), false)
	}
	if a.held == nil {
		return nil
	}
	b, err := json.Marshal(a.held)
	if err != nil {
		a.r.log.Warn("encode webhook answer", "execution", a.id, "err", err)
		a.held = nil
		return nil
	}
	return b
}

// settled publishes the answer the final write kept (b, from outcome). When the write did
// not happen (kept false: the run lost its lease, or was interrupted before its end), an answer
// a node decided goes out as one sent during the run does; the result's answer does not.
func (a *answerer) settled(ctx context.Context, b []byte, kept bool) {
	if a == nil || a.held == nil {
		return
	}
	held, fromNode := *a.held, a.fromNode
	a.held = nil
	switch {
	case kept:
		if err := bus.WebhookAnswers.Publish(context.WithoutCancel(ctx), a.r.cfg.Redis, b); err != nil {
			a.r.log.Warn("send webhook answer", "execution", a.id, "err", err)
		}
	case fromNode:
		a.deliver(ctx, held)
	}
}

// flush sends an answer a node decided that no final write took; nothing otherwise.
func (a *answerer) flush(ctx context.Context) {
	if a != nil && a.held != nil {
		a.settled(ctx, nil, false)
	}
}

// finished answers for a run that settled without answering, when the final write did not
// keep its answer (the caller waits in this process).
func (a *answerer) finished(ctx context.Context, res *engine.Result) {
	if a != nil && !a.answered {
		a.send(ctx, a.respond.Finished(res))
	}
}

// send hands the answer to the waiting call at once.
func (a *answerer) send(ctx context.Context, ans trigger.Answer) {
	a.answered = true
	a.deliver(ctx, WebhookAnswer{Token: a.respond.Token, ExecutionID: a.id, Answer: ans})
}

// deliver hands wa to the waiting call: in this process when it waits here, otherwise kept in
// the database (in Redis when the database cannot take it) and published over Redis.
// The kept copy is what a call reads whose Redis message was lost, and what a repeated call
// with the same Idempotency-Key gets (such calls' answers are kept whichever way they go).
func (a *answerer) deliver(ctx context.Context, wa WebhookAnswer) {
	b, err := json.Marshal(wa)
	if err != nil {
		a.r.log.Warn("encode webhook answer", "execution", a.id, "err", err)
		return
	}
	ctx = context.WithoutCancel(ctx)
	// An answer handed over in this process cannot be lost: it is kept only for repeats.
	delivered := a.r.answered != nil && a.r.answered(wa)
	if delivered && !a.respond.Keep {
		return
	}
	kept := true
	if err := a.r.cfg.Store.SaveWebhookAnswer(ctx, a.id, b); err != nil {
		kept = false
		a.r.log.Warn("keep webhook answer", "execution", a.id, "err", err)
	}
	if delivered {
		return
	}
	if kept {
		// The database copy is what a call that missed the message reads: one PUBLISH is all.
		err = bus.WebhookAnswers.Publish(ctx, a.r.cfg.Redis, b)
	} else {
		// The database could not keep it: Redis keeps the copy instead, in one transaction
		// with the message.
		_, err = a.r.cfg.Redis.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.Set(ctx, bus.KeyWebhookResponsePrefix+IDString(a.id), b, AnswerKeep)
			return bus.WebhookAnswers.PublishIn(ctx, p, a.r.cfg.Redis, b)
		})
	}
	if err != nil {
		a.r.log.Warn("send webhook answer", "execution", a.id, "err", err)
	}
}
