package engine

import (
	"context"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// NodeEvent identifies one node run for hooks.
type NodeEvent struct {
	ExecutionID string
	WorkflowID  string
	Mode        workflow.Mode
	Node        string
	RunIndex    int
}

// Hook lets push and persistence follow a run. Hooks are called on the run's goroutine, in the
// order they were given; a slow hook slows the run.
type Hook interface {
	// NodeExecuteBefore is called when a node is about to run.
	NodeExecuteBefore(ctx context.Context, ev NodeEvent)
	// NodeExecuteAfter is called after a node ran (successfully or not) with its run record and
	// the state to checkpoint. state is only valid during the call: serialise it, do not keep
	// it. An error stops the run with that error.
	NodeExecuteAfter(ctx context.Context, ev NodeEvent, task *workflow.TaskData, state *State) error
	// ConsoleMessage forwards console output of scripts (push sendConsoleMessage).
	ConsoleMessage(ctx context.Context, ev NodeEvent, level string, args []any)
	// WorkflowExecuteAfter is called once with the final result.
	WorkflowExecuteAfter(ctx context.Context, res *Result)
}

// HookFuncs implements Hook with optional functions.
type HookFuncs struct {
	Before        func(ctx context.Context, ev NodeEvent)
	After         func(ctx context.Context, ev NodeEvent, task *workflow.TaskData, state *State) error
	Console       func(ctx context.Context, ev NodeEvent, level string, args []any)
	WorkflowAfter func(ctx context.Context, res *Result)
}

// NodeExecuteBefore calls Before when set.
func (h HookFuncs) NodeExecuteBefore(ctx context.Context, ev NodeEvent) {
	if h.Before != nil {
		h.Before(ctx, ev)
	}
}

// NodeExecuteAfter calls After when set.
func (h HookFuncs) NodeExecuteAfter(ctx context.Context, ev NodeEvent, task *workflow.TaskData, state *State) error {
	if h.After != nil {
		return h.After(ctx, ev, task, state)
	}
	return nil
}

// ConsoleMessage calls Console when set.
func (h HookFuncs) ConsoleMessage(ctx context.Context, ev NodeEvent, level string, args []any) {
	if h.Console != nil {
		h.Console(ctx, ev, level, args)
	}
}

// WorkflowExecuteAfter calls WorkflowAfter when set.
func (h HookFuncs) WorkflowExecuteAfter(ctx context.Context, res *Result) {
	if h.WorkflowAfter != nil {
		h.WorkflowAfter(ctx, res)
	}
}
