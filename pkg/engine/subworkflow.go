package engine

import (
	"context"
	"errors"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// runSubWorkflow runs a workflow for Execute Workflow, as n8n's executeWorkflow does: mode
// "integrated", the parent's items as the start node's input, and the outputs of the last node
// run as the result. The child runs without the parent's hooks, so its node runs are neither
// pushed nor checkpointed as the parent's; Options.SubWorkflows can give it its own record.
func (r *run) runSubWorkflow(ctx context.Context, wf *workflow.Workflow, items []workflow.Item) ([][]workflow.Item, error) {
	child := &Engine{opts: r.e.opts}
	child.opts.Hooks = nil
	input := make([]workflow.Item, len(items))
	for i, it := range items {
		it.PairedItem = nil
		input[i] = it
	}
	var childID string
	rec := r.e.opts.SubWorkflows
	if rec != nil {
		sub, err := rec.StartSubWorkflow(ctx, wf)
		if err != nil {
			return nil, err
		}
		childID, child.opts.Hooks = sub.ExecutionID, sub.Hooks
		if sub.Credentials != nil {
			child.opts.Credentials = sub.Credentials
		}
		if sub.Workflows != nil {
			child.opts.Workflows = sub.Workflows
		}
		if sub.SubWorkflows != nil {
			child.opts.SubWorkflows = sub.SubWorkflows
		}
	}
	res, err := child.Run(ctx, Request{Workflow: wf, Mode: workflow.ModeIntegrated, Input: input, ExecutionID: childID})
	if rec != nil {
		rec.FinishSubWorkflow(context.WithoutCancel(ctx), childID, res, err)
	}
	if err != nil {
		return nil, err
	}
	switch res.Status {
	case workflow.StatusSuccess:
	case workflow.StatusWaiting:
		return nil, errors.New("the sub-workflow was put to wait, which Execute Workflow does not support")
	default:
		if e := res.State.ResultData.Error; e != nil {
			return nil, &nodes.Error{Name: e.Name, Message: e.Message, Description: e.Description, ItemIndex: -1, Cause: e}
		}
		return nil, errors.New("the sub-workflow did not finish")
	}
	last := res.State.ResultData.LastNodeExecuted
	runs := res.State.ResultData.RunData[last]
	if len(runs) == 0 || runs[len(runs)-1].Data == nil {
		return [][]workflow.Item{{}}, nil
	}
	out := runs[len(runs)-1].Data.Main
	// Paired items of the child point into the child's nodes; the parent links them itself.
	for _, items := range out {
		for i := range items {
			items[i].PairedItem = nil
		}
	}
	return out, nil
}
