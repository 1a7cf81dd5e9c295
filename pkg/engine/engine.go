// Package engine executes workflows in n8n's execution orders, chosen by the workflow's
// settings.executionOrder: v0 (the order of the n8n 0.186 editor era, and of every workflow
// without the setting: a FIFO queue of node runs, children queued per output then connection
// order, multi-input nodes waiting for all inputs, sibling branches started to feed them) or v1
// (n8n 1.x: depth-first by branch, children by canvas position, multi-input nodes running with
// the inputs that got data). Also node settings, pairedItem, run data, hooks, and a resumable
// state saved after every node.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Options configure an Engine.
type Options struct {
	// Registry holds the node types; required.
	Registry *nodes.Registry
	// Evaluator resolves expressions and runs scripts; nil makes expressions fail at run time.
	Evaluator nodes.Evaluator
	// Hooks are called for every run, in order.
	Hooks []Hook
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Now defaults to time.Now; tests inject a clock.
	Now func() time.Time
	// Sleep waits between retries (waitBetweenTries); it must return early with ctx's error
	// when ctx ends. Defaults to nodes.SleepContext.
	Sleep func(ctx context.Context, d time.Duration) error
	// Env is what $env shows; EnvBlocked makes reading $env an error.
	Env        map[string]string
	EnvBlocked bool
	// Workflows loads stored workflows for Execute Workflow's "database" source; nil makes that
	// source fail with nodes.ErrNoWorkflowStore.
	Workflows nodes.WorkflowLoader
	// SubWorkflows, when set, gives every sub-workflow run (Execute Workflow) its own execution
	// record; nil runs them without one.
	SubWorkflows SubWorkflowRecorder
	// Credentials hands nodes the decrypted data of the credentials they selected; nil makes
	// nodes that ask fail with nodes.ErrCredentialsNotAvailable.
	Credentials nodes.CredentialsFunc
	// Host is what nodes may reach outside the workflow (files, network); see nodes.Host.
	Host nodes.Host
	// Params, when set, resolves the node parameters of runs of its workflow once (ParamCache).
	Params *ParamCache
}

// SubWorkflowRecorder records sub-workflow runs as executions of their own.
type SubWorkflowRecorder interface {
	// StartSubWorkflow is called before a sub-workflow runs; it returns the id the run gets,
	// the hooks that follow it and what the run may use.
	StartSubWorkflow(ctx context.Context, wf *workflow.Workflow) (SubRun, error)
	// FinishSubWorkflow is called once the sub-workflow ended, with its result (nil when it
	// could not start, with runErr saying why).
	FinishSubWorkflow(ctx context.Context, executionID string, res *Result, runErr error)
}

// SubRun is how a sub-workflow runs: its execution id and hooks, and, when set, the
// credentials, stored workflows and sub-workflow records it uses instead of its parent's (a
// sub-workflow may act for another user than its parent).
type SubRun struct {
	ExecutionID  string
	Hooks        []Hook
	Credentials  nodes.CredentialsFunc
	Workflows    nodes.WorkflowLoader
	SubWorkflows SubWorkflowRecorder
}

// Engine runs workflows. It holds no per-run state and is safe for concurrent runs.
type Engine struct {
	opts Options
}

// New validates the options and returns an engine.
func New(opts Options) (*Engine, error) {
	if opts.Registry == nil {
		return nil, errors.New("engine: a node registry is required")
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Sleep == nil {
		opts.Sleep = nodes.SleepContext
	}
	return &Engine{opts: opts}, nil
}

// Request describes a run. Cancel the context to stop the run between nodes; a deadline on it
// is the execution timeout.
type Request struct {
	Workflow *workflow.Workflow
	// Mode is manual (default), trigger, webhook, retry, error or integrated.
	Mode        workflow.Mode
	ExecutionID string
	// StartNode overrides the start node choice.
	StartNode string
	// Input is the start node's input; nil means one empty item.
	Input []workflow.Item
	// InputIndex places Input at that main input of the start node, the ones before it empty.
	// A webhook node passes its input on by the same index: the output of the method called.
	InputIndex int
	// DestinationNode limits the run to that node and its parents, and stops after it.
	DestinationNode string
	// StartNodes and RunData make a partial run: each start node gets its input from the run
	// data of its parents (run index 0), and those runs are kept in the result. A start node
	// whose parents have no run data is replaced by the nearest ancestors without data; with no
	// run data at all the run is a full one up to DestinationNode (n8n's rule).
	StartNodes []string
	RunData    workflow.RunData
	// Timezone overrides the workflow's timezone setting for $now and $today.
	Timezone string
}

// Result is the outcome of a run. State holds run data and what is left to do, so a canceled or
// failed run can be resumed or retried.
type Result struct {
	Finished  bool
	Status    workflow.Status
	Mode      workflow.Mode
	StartedAt time.Time
	StoppedAt time.Time
	State     *State
	// StaticData is the workflow's static data after the run; StaticDataChanged says whether a
	// node changed it, so that it needs saving.
	StaticData        map[string]any
	StaticDataChanged bool
	// WaitTill is set when Status is StatusWaiting: the time to resume the execution.
	WaitTill *time.Time
}

// StartError is returned by Run when the workflow cannot start: no start node, an unknown
// start or destination node, or a node type that is not known.
type StartError struct {
	Node    string
	Message string
}

func (e *StartError) Error() string {
	if e.Node != "" {
		return fmt.Sprintf("node %q: %s", e.Node, e.Message)
	}
	return e.Message
}

// Run executes a workflow. It returns a *StartError when the workflow cannot start; every
// other failure is in the result (Status error, State.ResultData.Error).
func (e *Engine) Run(ctx context.Context, req Request) (*Result, error) {
	if req.Workflow == nil {
		return nil, &StartError{Message: "no workflow given"}
	}
	r, err := e.newRun(req.Workflow, req.Mode, req.ExecutionID, req.Timezone)
	if err != nil {
		return nil, err
	}
	if usesPartialRun(req) {
		req.StartNodes = r.g.partialStarts(req.StartNodes, req.RunData)
		err = r.initPartial(req)
	} else {
		err = r.initFull(req)
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := withWorkflowTimeout(ctx, req.Workflow)
	defer cancel()
	return r.execute(ctx), nil
}

// withWorkflowTimeout applies the workflow's own executionTimeout setting, with no instance
// default or cap (the runner applies those on its context).
func withWorkflowTimeout(ctx context.Context, wf *workflow.Workflow) (context.Context, context.CancelFunc) {
	if t := wf.Settings.Timeout(0, 0); t > 0 {
		return context.WithTimeout(ctx, t)
	}
	return ctx, func() {}
}

// Resume continues a run from a saved state, on this or another engine. Finished nodes are not
// run again. To retry a failed run, call state.PrepareRetry first.
func (e *Engine) Resume(ctx context.Context, wf *workflow.Workflow, state *State, mode workflow.Mode, executionID string) (*Result, error) {
	if wf == nil || state == nil {
		return nil, &StartError{Message: "no workflow or state given"}
	}
	r, err := e.newRun(wf, mode, executionID, "")
	if err != nil {
		return nil, err
	}
	r.state = state
	if r.state.ResultData.RunData == nil {
		r.state.ResultData.RunData = workflow.RunData{}
	}
	if r.state.WaitTill != nil {
		r.resumeWaiting()
	}
	r.lastTry = state.LastExecutionTry
	for _, ed := range state.ExecutionData.NodeExecutionStack {
		if _, ok := r.g.nodes[ed.Node]; !ok {
			return nil, &StartError{Node: ed.Node, Message: "queued node does not exist in the workflow"}
		}
	}
	if err := r.checkTypes(r.g.names); err != nil {
		return nil, err
	}
	ctx, cancel := withWorkflowTimeout(ctx, wf)
	defer cancel()
	return r.execute(ctx), nil
}

func (e *Engine) newRun(wf *workflow.Workflow, mode workflow.Mode, executionID, tz string) (*run, error) {
	if mode == "" {
		mode = workflow.ModeManual
	}
	r := &run{
		e:           e,
		wf:          wf,
		g:           newGraph(wf),
		mode:        mode,
		executionID: executionID,
		types:       map[string]*nodes.Type{},
		resolved:    map[string]*workflow.Node{},
		staticData:  workflow.CopyJSON(wf.StaticData),
		v1:          wf.Settings.ExecutionOrder() == workflow.ExecutionOrderV1,
	}
	if r.staticData == nil {
		r.staticData = map[string]any{}
	}
	if tz == "" {
		tz = wf.Settings.Timezone()
	}
	r.exprBase = expr.Context{
		Workflow:   expr.WorkflowInfo{ID: wf.ID, Name: wf.Name, Active: wf.Active},
		Execution:  expr.ExecutionInfo{ID: executionID, Mode: mode},
		Timezone:   tz,
		Env:        e.opts.Env,
		EnvBlocked: e.opts.EnvBlocked,
	}
	for i := range wf.Nodes {
		n := &wf.Nodes[i]
		t, ok := e.opts.Registry.Get(n.Type, n.TypeVersion)
		if !ok {
			continue
		}
		r.types[n.Name] = t
		params, err := e.opts.Params.resolve(wf, n, t)
		if err != nil {
			return nil, &StartError{Node: n.Name, Message: "parameters: " + err.Error()}
		}
		rn := *n
		rn.Parameters = params
		r.resolved[n.Name] = &rn
	}
	r.exprBase.Nodes = make(map[string]expr.NodeInfo, len(wf.Nodes))
	for i := range wf.Nodes {
		n := &wf.Nodes[i]
		info := expr.NodeInfo{Type: n.Type, Parameters: n.Parameters}
		if rn := r.resolved[n.Name]; rn != nil {
			info.Parameters = rn.Parameters
		}
		r.exprBase.Nodes[n.Name] = info
	}
	return r, nil
}

// checkTypes fails on enabled nodes whose type is not known, as n8n's checkReadyForExecution, or
// that the instance disabled (saying which setting turns it on).
func (r *run) checkTypes(names []string) error {
	for _, name := range names {
		n := r.g.nodes[name]
		if n == nil || n.Disabled {
			continue
		}
		if _, ok := r.types[name]; !ok {
			_, err := r.e.opts.Registry.Lookup(n.Type, n.TypeVersion)
			return &StartError{Node: name, Message: err.Error()}
		}
	}
	return nil
}

func (r *run) initFull(req Request) error {
	dest := req.DestinationNode
	if dest != "" {
		if _, ok := r.g.nodes[dest]; !ok {
			return &StartError{Node: dest, Message: "destination node does not exist"}
		}
	}
	start := req.StartNode
	if start == "" {
		start = r.startNode(dest)
	}
	if start == "" {
		return &StartError{Message: "No node to start the workflow from could be found"}
	}
	if _, ok := r.g.nodes[start]; !ok {
		return &StartError{Node: start, Message: "start node does not exist"}
	}
	var filter []string
	check := append(r.g.descendants(start), start)
	if dest != "" {
		filter = append(r.g.parentNodes(dest), dest)
		check = filter
	}
	if err := r.checkTypes(check); err != nil {
		return err
	}
	input := req.Input
	if input == nil {
		input = []workflow.Item{{JSON: workflow.NewObject(0)}}
	}
	r.state = &State{
		StartData:  StartData{DestinationNode: dest, RunNodeFilter: filter},
		ResultData: ResultData{RunData: workflow.RunData{}},
		ExecutionData: ExecutionData{
			ContextData:        map[string]any{},
			NodeExecutionStack: []ExecuteData{{Node: start, Data: Inputs{Main: startInputs(input, req.InputIndex)}}},
		},
		NodeExecutionOrder: []string{},
	}
	return nil
}

// startInputs puts the start node's input at main input index, with empty lists before it.
func startInputs(input []workflow.Item, index int) [][]workflow.Item {
	if index < 0 || index > 64 {
		index = 0
	}
	main := make([][]workflow.Item, index+1)
	for i := range index {
		main[i] = []workflow.Item{}
	}
	main[index] = input
	return main
}

// startNode picks the start node as n8n's Workflow.getStartNode does.
func (r *run) startNode(dest string) string {
	if r.mode == workflow.ModeWebhook {
		for _, name := range r.g.names {
			if t := r.types[name]; t != nil && !r.g.nodes[name].Disabled && t.Description.StartsFromWebhook() {
				return name
			}
		}
	}
	if r.mode == workflow.ModeIntegrated && dest == "" {
		// n8n starts a sub-workflow at its Execute Workflow Trigger when it has one.
		for _, name := range r.g.names {
			if t := r.types[name]; t != nil && t.SubWorkflowStart && !r.g.nodes[name].Disabled {
				return name
			}
		}
	}
	if dest != "" {
		names := r.g.highestNodes(dest, -1)
		if len(names) == 0 {
			names = []string{dest}
		}
		if s := r.pickStart(names); s != "" {
			return s
		}
		return names[0]
	}
	return r.pickStart(r.g.names)
}

func (r *run) pickStart(names []string) string {
	for _, name := range names {
		n := r.g.nodes[name]
		if len(names) == 1 && !n.Disabled {
			return name
		}
		if t := r.types[name]; t != nil && (t.Kind == nodes.KindTrigger || t.Kind == nodes.KindPoll) && !n.Disabled {
			return name
		}
	}
	start, priority := "", 0
	for _, name := range names {
		if t := r.types[name]; t != nil && t.StartPriority > 0 && !r.g.nodes[name].Disabled &&
			(priority == 0 || t.StartPriority < priority) {
			start, priority = name, t.StartPriority
		}
	}
	return start
}

// initPartial prepares a partial run as n8n's runPartialWorkflow: start nodes get the output of
// their parents from the given run data.
func (r *run) initPartial(req Request) error {
	runData := req.RunData
	if runData == nil {
		runData = workflow.RunData{}
	}
	const runIndex = 0
	var stack []ExecuteData
	var waiting Waiting
	var filter []string
	dest := req.DestinationNode
	for _, start := range req.StartNodes {
		if _, ok := r.g.nodes[start]; !ok {
			return &StartError{Node: start, Message: "start node does not exist"}
		}
		ed := ExecuteData{Node: start}
		main, ok := r.g.inputs(start)
		if !ok {
			ed.Data.Main = [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}
		} else {
			ed.Source = &SourceConnections{}
			for _, conns := range main {
				for _, c := range conns {
					if p := r.g.nodes[c.Node]; p != nil && p.Disabled {
						continue
					}
					runs := runData[c.Node]
					if len(runs) == 0 {
						continue
					}
					if runs[runIndex].Data != nil && c.Index < len(runs[runIndex].Data.Main) && runs[runIndex].Data.Main[c.Index] != nil {
						ed.Data.Main = append(ed.Data.Main, runs[runIndex].Data.Main[c.Index])
					}
					ed.Source.Main = append(ed.Source.Main, &workflow.SourceData{PreviousNode: c.Node})
				}
			}
		}
		stack = append(stack, ed)
		if dest != "" {
			if dmain, ok := r.g.inputs(dest); ok {
				var entry *waitingEntry
				for _, conns := range dmain {
					for _, c := range conns {
						if waiting.get(dest) == nil {
							waiting.create(dest)
						}
						if entry == nil {
							entry = &waitingEntry{}
							waiting.get(dest)[runIndex] = entry
						}
						runs := runData[c.Node]
						if len(runs) > 0 && runs[runIndex].Data != nil && c.Index < len(runs[runIndex].Data.Main) {
							entry.Main = append(entry.Main, runs[runIndex].Data.Main[c.Index])
							entry.Source = append(entry.Source, &workflow.SourceData{PreviousNode: c.Node, PreviousNodeOutput: c.Index})
						} else {
							entry.Main = append(entry.Main, nil)
							entry.Source = append(entry.Source, nil)
						}
					}
				}
			}
			filter = nil
			for _, p := range r.g.parentNodes(dest) {
				if !r.g.nodes[p].Disabled {
					filter = append(filter, p)
				}
			}
			filter = append(filter, dest)
		}
	}
	check := filter
	if check == nil {
		for _, start := range req.StartNodes {
			check = append(append(check, start), r.g.descendants(start)...)
		}
	}
	if err := r.checkTypes(check); err != nil {
		return err
	}
	r.state = &State{
		StartData:  StartData{DestinationNode: dest, RunNodeFilter: filter},
		ResultData: ResultData{RunData: runData},
		ExecutionData: ExecutionData{
			ContextData:        map[string]any{},
			NodeExecutionStack: stack,
			Waiting:            waiting,
		},
		NodeExecutionOrder: []string{},
	}
	return nil
}
