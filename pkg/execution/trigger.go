package execution

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/scheduletrigger"
	"github.com/flowmill/flowmill/pkg/nodes/workflowtrigger"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// HandleTrigger is the trigger:fire task handler. It re-reads the workflow, which must still be
// active with the node enabled, then starts one execution (mode trigger) at the node: for a
// schedule tick at once, for a poll node only when its poll returned items.
func (r *Runner) HandleTrigger(ctx context.Context, payload []byte) error {
	var p queue.TriggerFire
	if err := queue.Decode(queue.KindTriggerFire, payload, &p); err != nil {
		return err
	}
	doc, err := r.cfg.Store.WorkflowDocument(ctx, p.WorkflowID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return fmt.Errorf("workflow %s: %w", p.WorkflowID, err)
	}
	node, ok := wf.Node(p.Node)
	if !wf.Active || !ok || node.Disabled {
		return nil
	}
	t, ok := r.base.Registry.Get(node.Type, node.TypeVersion)
	if !ok {
		return nil
	}
	var input []workflow.Item
	if t.Kind == nodes.KindPoll {
		release, ok, err := r.pollLease(ctx, wf.ID, node.Name)
		if err != nil || !ok {
			// Still polling from an earlier tick: that poll's static data is not saved yet.
			return err
		}
		input, err = func() ([]workflow.Item, error) {
			defer release()
			return r.poll(ctx, wf, node, t)
		}()
		if err != nil {
			r.log.Warn("poll failed", "workflow", wf.ID, "node", node.Name, "err", err)
			return trigger.SetError(ctx, r.cfg.Redis, wf.ID, fmt.Sprintf("Node %q: %v", node.Name, err))
		}
		if len(input) == 0 {
			return nil
		}
	} else if p.Event != "" {
		if node.Type != workflowtrigger.TypeName || !workflowtrigger.Listens(node.Parameters, p.Event) {
			return nil
		}
		input = []workflow.Item{{JSON: workflowtrigger.Output(p.Event, time.UnixMilli(p.EventTime), wf.ID)}}
	} else if node.Type == "n8n-nodes-base.scheduleTrigger" {
		loc, err := time.LoadLocation(cmp.Or(wf.Settings.Timezone(), r.cfg.Timezone))
		if err != nil {
			loc = time.UTC
		}
		input = []workflow.Item{{JSON: scheduletrigger.OutputFor(time.Unix(p.FireTime, 0), loc, node.TypeVersion)}}
	}
	runs := [][]workflow.Item{input}
	if t.PollEach && len(input) > 1 {
		runs = make([][]workflow.Item, len(input))
		for i := range input {
			runs[i] = input[i : i+1]
		}
	}
	for _, in := range runs {
		_, err = r.svc.Create(ctx, New{Workflow: wf, Mode: workflow.ModeTrigger,
			Start: StartData{StartNode: node.Name, Input: in}})
		if errors.Is(err, ErrNotQueued) {
			// Stored: the reconciler queues it. Failing the task would fire the trigger again.
			r.log.Warn("trigger execution stored but not queued", "workflow", wf.ID, "err", err)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// pollLeaseTTL bounds how long a poll holds its lease should its worker die mid-poll.
const pollLeaseTTL = 15 * time.Minute

// pollLease lets one poll of a node run at a time across workers: a poll that outlasts its
// interval would otherwise overlap the next tick's, both starting from the same static data
// and passing the same new entries on twice. ok is false while another poll holds it.
func (r *Runner) pollLease(ctx context.Context, workflowID, node string) (release func(), ok bool, err error) {
	key := bus.KeyPollLeasePrefix + workflowID + ":" + node
	token := store.NewUUID()
	ok, err = r.cfg.Redis.SetNX(ctx, key, token, pollLeaseTTL).Result()
	if err != nil || !ok {
		return nil, false, err
	}
	return func() {
		c := context.WithoutCancel(ctx)
		if v, err := r.cfg.Redis.Get(c, key).Result(); err == nil && v == token {
			r.cfg.Redis.Del(c, key)
		}
	}, true, nil
}

// poll runs a poll node's poll with its static data (n8n's getWorkflowStaticData('node')) and
// saves that data when the poll changed it, so the next poll continues from where this one
// stopped.
func (r *Runner) poll(ctx context.Context, wf *workflow.Workflow, node *workflow.Node, t *nodes.Type) ([]workflow.Item, error) {
	resolved := *node
	params, err := workflow.ResolveParameters(t.Description.Properties, node.Parameters, node.TypeVersion)
	if err != nil {
		return nil, err
	}
	resolved.Parameters = params
	key := "node:" + node.Name
	if wf.StaticData == nil {
		wf.StaticData = map[string]any{}
	}
	static, _ := wf.StaticData[key].(map[string]any)
	before, _ := workflow.DeepCopy(static).(map[string]any)
	ex := nodes.NewExecution(nodes.ExecutionConfig{Node: &resolved, Type: t, Mode: workflow.ModeTrigger,
		Evaluator: r.base.Evaluator, StaticData: static, Logger: r.log.With("node", node.Name),
		Credentials: r.workflowCredentials(wf.ID),
		Expr: expr.Context{Workflow: expr.WorkflowInfo{ID: wf.ID, Name: wf.Name, Active: wf.Active},
			Timezone: wf.Settings.Timezone(), Execution: expr.ExecutionInfo{Mode: workflow.ModeTrigger}},
		Flow: nodes.FlowConfig{Now: time.Now}, Host: r.base.Host})
	out, err := t.Node.Execute(ctx, ex)
	if err != nil {
		return nil, err
	}
	if now, used := ex.StaticDataUsed(); used && !workflow.DeepEqual(now, before) {
		wf.StaticData[key] = now
		b, err := json.Marshal(wf.StaticData)
		if err != nil {
			return nil, fmt.Errorf("encode static data: %w", err)
		}
		if err := r.cfg.Store.SetWorkflowStaticData(ctx, wf.ID, b); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out[0], nil
}
