package execution

import (
	"context"
	"encoding/json"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

const errorTriggerType = "n8n-nodes-base.errorTrigger"

// startErrorWorkflow runs the workflow named in the failed workflow's errorWorkflow setting,
// giving its Error Trigger n8n's error payload. Error runs never start another error workflow,
// so two workflows naming each other cannot loop.
func (r *Runner) startErrorWorkflow(ctx context.Context, e *store.Execution, wf *workflow.Workflow, res *engine.Result) {
	target, _ := wf.Settings["errorWorkflow"].(string)
	if target == "" || e.Mode == workflow.ModeError {
		return
	}
	log := r.log.With("execution", e.ID, "errorWorkflow", target)
	// Only a workflow the failed run's user may run, as for Execute Workflow.
	doc, err := storeLoader{s: r.cfg.Store, userID: e.UserID}.document(ctx, target)
	if err != nil {
		log.Warn("error workflow not run", "err", err)
		return
	}
	errWf, err := workflow.Parse(doc)
	if err != nil {
		log.Warn("error workflow cannot be read", "err", err)
		return
	}
	var trigger string
	for _, n := range errWf.Nodes {
		if n.Type == errorTriggerType && !n.Disabled {
			trigger = n.Name
			break
		}
	}
	if trigger == "" {
		log.Warn("error workflow has no Error Trigger node")
		return
	}
	// Keys in the order n8n writes them: id, url, error, lastNodeExecuted, mode, retryOf.
	execution := workflow.NewObject(6) // item JSON holds plain strings
	if r.cfg.Saving.of(wf.Settings).keep(e.Mode, workflow.StatusError) {
		execution.Set("id", IDString(e.ID))
		execution.Set("url", r.cfg.PublicURL+"execution/"+IDString(e.ID))
	}
	if res.State != nil {
		if res.State.ResultData.Error != nil {
			b, _ := json.Marshal(res.State.ResultData.Error)
			if v, err := workflow.DecodeJSONValue(b); err == nil {
				execution.Set("error", v)
			}
		}
		execution.Set("lastNodeExecuted", res.State.ResultData.LastNodeExecuted)
	}
	execution.Set("mode", string(e.Mode))
	if e.RetryOf != nil {
		execution.Set("retryOf", IDString(*e.RetryOf))
	}
	payload := workflow.ObjectOf("execution", execution, "workflow", workflow.ObjectOf("id", wf.ID, "name", wf.Name))
	_, err = r.svc.Create(ctx, New{Workflow: errWf, Mode: workflow.ModeError,
		Start: StartData{StartNode: trigger, Input: []workflow.Item{{JSON: payload}}}})
	if err != nil {
		log.Warn("start error workflow", "err", err)
	}
}
