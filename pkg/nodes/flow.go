package nodes

import (
	"context"
	"errors"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// FlowConfig is what a node may ask of the engine beyond its inputs: the clock, sleeping
// in-process, putting the execution to wait, and running sub-workflows. Every field is optional.
type FlowConfig struct {
	// Now is the engine's clock; nil means time.Now.
	Now func() time.Time
	// Sleep waits in-process (short Wait node waits), returning early with ctx's error; nil
	// means SleepContext.
	Sleep func(ctx context.Context, d time.Duration) error
	// PutToWait records that the execution should stop after this node and wait until the
	// given time; nil makes PutExecutionToWait fail.
	PutToWait func(till time.Time)
	// Workflows loads stored workflows for Execute Workflow; nil means there is no store.
	Workflows WorkflowLoader
	// RunWorkflow runs a sub-workflow with items as its start node's input and returns the
	// outputs of its last node run; nil means sub-workflows cannot run here.
	RunWorkflow func(ctx context.Context, wf *workflow.Workflow, items []workflow.Item) ([][]workflow.Item, error)
}

// WorkflowLoader loads stored workflows by id, for Execute Workflow's "database" source.
type WorkflowLoader interface {
	LoadWorkflow(ctx context.Context, id string) (*workflow.Workflow, error)
}

// ErrNoWorkflowStore is returned by Execution.LoadWorkflow when the process has no workflow
// store, as in `worker execute`.
var ErrNoWorkflowStore = errors.New("no workflow store available")

// Now returns the current time from the engine's clock.
func (ex *Execution) Now() time.Time {
	if ex.cfg.Flow.Now != nil {
		return ex.cfg.Flow.Now()
	}
	return time.Now()
}

// Sleep waits for d in-process; it returns ctx's error when the run is canceled first.
func (ex *Execution) Sleep(ctx context.Context, d time.Duration) error {
	if ex.cfg.Flow.Sleep != nil {
		return ex.cfg.Flow.Sleep(ctx, d)
	}
	return SleepContext(ctx, d)
}

// SleepContext waits for d on a timer and returns nil, or returns ctx's error as soon as ctx is
// done. It is the default for FlowConfig.Sleep and the engine's wait between tries.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// PutExecutionToWait asks the engine to stop the run after this node and save it as waiting
// until till (n8n's putExecutionToWait). The node's output is recorded; when the run is resumed
// the node passes its queued input through and the run goes on with its children.
func (ex *Execution) PutExecutionToWait(till time.Time) error {
	if ex.cfg.Flow.PutToWait == nil {
		return errors.New("this process cannot put executions to wait")
	}
	ex.cfg.Flow.PutToWait(till)
	return nil
}

// LoadWorkflow loads a stored workflow by id; ErrNoWorkflowStore when there is no store.
func (ex *Execution) LoadWorkflow(ctx context.Context, id string) (*workflow.Workflow, error) {
	if ex.cfg.Flow.Workflows == nil {
		return nil, ErrNoWorkflowStore
	}
	return ex.cfg.Flow.Workflows.LoadWorkflow(ctx, id)
}

// ExecuteWorkflow runs wf as a sub-workflow (mode "integrated") with items as its start node's
// input and returns the outputs of its last node run.
func (ex *Execution) ExecuteWorkflow(ctx context.Context, wf *workflow.Workflow, items []workflow.Item) ([][]workflow.Item, error) {
	if ex.cfg.Flow.RunWorkflow == nil {
		return nil, errors.New("sub-workflows cannot run in this process")
	}
	return ex.cfg.Flow.RunWorkflow(ctx, wf, items)
}
