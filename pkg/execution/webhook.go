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
type answerer struct {
	r        *Runner
	id       int64
	respond  trigger.Response
	answered bool
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

func (a *answerer) nodeRan(ctx context.Context, ev engine.NodeEvent, _ *workflow.TaskData, state *engine.State) error {
	if a.answered || a.respond.Mode != trigger.ModeResponseNode {
		return nil
	}
	nodeCtx, _ := state.ExecutionData.ContextData["node:"+ev.Node].(map[string]any)
	if resp, ok := respondtowebhook.ResponseFrom(nodeCtx); ok {
		a.send(ctx, trigger.RespondNodeAnswer(resp))
	}
	return nil
}

// finished answers for a run that settled (finished, or put to wait) without answering.
func (a *answerer) finished(ctx context.Context, res *engine.Result) {
	if a != nil && !a.answered {
		a.send(ctx, a.respond.Finished(res))
	}
}

// send hands the answer to the waiting call: in this process when it waits here, otherwise
// kept in the database (in Redis when the database cannot take it) and published over Redis.
// The kept copy is what a call reads whose Redis message was lost, and what a repeated call
// with the same Idempotency-Key gets (such calls' answers are kept whichever way they go).
func (a *answerer) send(ctx context.Context, ans trigger.Answer) {
	a.answered = true
	wa := WebhookAnswer{Token: a.respond.Token, ExecutionID: a.id, Answer: ans}
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
