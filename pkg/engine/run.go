package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// run is the state of one execution on one goroutine.
type run struct {
	e           *Engine
	wf          *workflow.Workflow
	g           *graph
	mode        workflow.Mode
	executionID string
	types       map[string]*nodes.Type
	resolved    map[string]*workflow.Node
	exprBase    expr.Context
	state       *State
	lastTry     string
	staticData  map[string]any
	staticDirty bool
	// beforeSent is set once NodeExecuteBefore went out for the node being run.
	beforeSent bool
	// waitTill is set when the node being run asked to put the execution to wait.
	waitTill *time.Time
	// passThrough names the node resumed after a wait: its next run passes input 0 through.
	passThrough string
	// v1 is the workflow's execution order: n8n 1.x's when set, v0 otherwise (see order.go).
	v1 bool
}

// errEndlessLoop is n8n's guard against a node put back in the queue forever.
var errEndlessLoop = errors.New("Stopped execution because it seems to be in an endless loop")

func (r *run) execute(ctx context.Context) *Result {
	res := &Result{Mode: r.mode, StartedAt: r.e.opts.Now()}
	execErr, canceled, fatal := r.loop(ctx)
	res.StoppedAt = r.e.opts.Now()
	res.State = r.state
	r.state.LastExecutionTry = r.lastTry
	switch {
	case fatal != nil:
		res.Status = workflow.StatusError
		r.state.ResultData.Error = fatal
	case canceled != nil:
		res.Status = workflow.StatusCanceled
		r.state.ResultData.Error = canceled
	case execErr != nil:
		res.Status = workflow.StatusError
		r.state.ResultData.Error = execErr
	case r.state.WaitTill != nil:
		res.Status = workflow.StatusWaiting
		res.WaitTill = r.state.WaitTill
	default:
		res.Status = workflow.StatusSuccess
		res.Finished = true
	}
	res.StaticData = r.staticData
	res.StaticDataChanged = r.staticDirty
	for _, h := range r.e.opts.Hooks {
		h.WorkflowExecuteAfter(ctx, res)
	}
	return res
}

func (r *run) event(node string, runIndex int) NodeEvent {
	return NodeEvent{ExecutionID: r.executionID, WorkflowID: r.wf.ID, Mode: r.mode, Node: node, RunIndex: runIndex}
}

// loop runs queued nodes until the queue is empty. It returns the error of the last node run
// (a run stopped by a failing node, or a continueOnFail error on the last node), the reason for a
// cancellation, or a fatal engine error.
func (r *run) loop(ctx context.Context) (execErr, canceled, fatal *workflow.ExecutionError) {
	st := r.state
	ed := &st.ExecutionData
	runData := st.ResultData.RunData
	filter := st.StartData.RunNodeFilter
	for len(ed.NodeExecutionStack) > 0 {
		if err := ctx.Err(); err != nil {
			return execErr, cancelError(err, r.e.opts.Now()), nil
		}
		execErr = nil
		r.beforeSent = false
		r.waitTill = nil
		item := ed.NodeExecutionStack[0]
		ed.NodeExecutionStack = ed.NodeExecutionStack[1:]
		name := item.Node
		node := r.g.nodes[name]
		if node == nil {
			return nil, nil, engineError(fmt.Sprintf("queued node %q does not exist", name), r.e.opts.Now())
		}
		if r.passThrough == name {
			// The node that put the execution to wait is done waiting: it runs as if disabled,
			// as n8n does on resume.
			r.passThrough = ""
			resumed := *node
			resumed.Disabled = true
			node = &resumed
		}
		item.Data.Main = withPairedItems(item.Data.Main)

		runIndex := len(runData[name])
		try := name + ":" + strconv.Itoa(runIndex)
		if try == r.lastTry {
			return nil, nil, engineError(errEndlessLoop.Error(), r.e.opts.Now())
		}
		if filter != nil && !slices.Contains(filter, name) {
			continue
		}
		if !r.v1 && !r.inputsReady(name, item) {
			ed.NodeExecutionStack = append(ed.NodeExecutionStack, item)
			r.lastTry = try
			continue
		}

		ev := r.event(name, runIndex)
		startTime := r.e.opts.Now()
		out, skipped, nodeErr := r.runWithRetries(ctx, node, item, runIndex, ev)
		if nodeErr == nil && skipped {
			continue
		}
		task := workflow.TaskData{
			StartTime:     startTime.UnixMilli(),
			ExecutionTime: r.e.opts.Now().Sub(startTime).Milliseconds(),
			Source:        []*workflow.SourceData{},
		}
		if item.Source != nil {
			task.Source = item.Source.Main
		}
		if nodeErr != nil {
			execErr = nodeErr
			task.Error = nodeErr
			if !node.ContinueOnFail {
				runData[name] = append(runData[name], task)
				st.NodeExecutionOrder = append(st.NodeExecutionOrder, name)
				ed.NodeExecutionStack = append([]ExecuteData{item}, ed.NodeExecutionStack...)
				if err := r.afterNode(ctx, ev, &runData[name][len(runData[name])-1]); err != nil {
					return execErr, nil, err
				}
				return execErr, nil, nil
			}
			out = [][]workflow.Item{{}}
			if len(item.Data.Main) > 0 && item.Data.Main[0] != nil {
				out = [][]workflow.Item{item.Data.Main[0]}
			}
		}
		errorItemsToJSON(out)
		task.Data = &workflow.TaskDataConnections{Main: out}
		runData[name] = append(runData[name], task)
		st.NodeExecutionOrder = append(st.NodeExecutionOrder, name)

		if r.waitTill != nil && nodeErr == nil {
			// Stop here, with the waiting node first in the queue, as n8n does; Resume pops
			// this run record and runs the node again as a pass-through.
			st.WaitTill = r.waitTill
			ed.NodeExecutionStack = append([]ExecuteData{item}, ed.NodeExecutionStack...)
			if err := r.afterNode(ctx, ev, &runData[name][len(runData[name])-1]); err != nil {
				return execErr, nil, err
			}
			return nil, nil, nil
		}

		if st.StartData.DestinationNode == name {
			if err := r.afterNode(ctx, ev, &runData[name][len(runData[name])-1]); err != nil {
				return execErr, nil, err
			}
			continue
		}
		if err := r.queueChildren(name, out, runIndex); err != nil {
			return execErr, nil, err
		}
		if err := r.afterNode(ctx, ev, &runData[name][len(runData[name])-1]); err != nil {
			return execErr, nil, err
		}
		if len(ed.NodeExecutionStack) == 0 && ed.Waiting.Len() > 0 {
			r.startWaitingNode()
		}
	}
	return execErr, nil, nil
}

// resumeWaiting readies a state saved while waiting: the waiting node's run record made when
// it started waiting is dropped, and its next run passes its input through.
func (r *run) resumeWaiting() {
	st := r.state
	st.WaitTill = nil
	stack := st.ExecutionData.NodeExecutionStack
	if len(stack) == 0 {
		return
	}
	name := stack[0].Node
	if runs := st.ResultData.RunData[name]; len(runs) > 0 {
		st.ResultData.RunData[name] = runs[:len(runs)-1]
		if len(st.ResultData.RunData[name]) == 0 {
			delete(st.ResultData.RunData, name)
		}
		if n := len(st.NodeExecutionOrder); n > 0 && st.NodeExecutionOrder[n-1] == name {
			st.NodeExecutionOrder = st.NodeExecutionOrder[:n-1]
		}
	}
	r.passThrough = name
}

// inputsReady checks that every connected input whose feeding branch is enabled has data.
func (r *run) inputsReady(name string, item ExecuteData) bool {
	main, ok := r.g.inputs(name)
	if !ok {
		return true
	}
	for ci := range main {
		if !r.g.inputFed(name, ci) {
			continue
		}
		if len(item.Data.Main) < ci || (ci < len(item.Data.Main) && item.Data.Main[ci] == nil) {
			return false
		}
	}
	return true
}

func (r *run) afterNode(ctx context.Context, ev NodeEvent, task *workflow.TaskData) *workflow.ExecutionError {
	r.state.LastExecutionTry = r.lastTry
	for _, h := range r.e.opts.Hooks {
		if err := h.NodeExecuteAfter(ctx, ev, task, r.state); err != nil {
			return engineError("nodeExecuteAfter hook: "+err.Error(), r.e.opts.Now())
		}
	}
	return nil
}

// runWithRetries runs the node once, or up to maxTries times with retryOnFail. skipped means
// the node produced no data at all (no run record).
func (r *run) runWithRetries(ctx context.Context, node *workflow.Node, item ExecuteData, runIndex int, ev NodeEvent) (
	out [][]workflow.Item, skipped bool, execErr *workflow.ExecutionError,
) {
	maxTries, wait := 1, time.Duration(0)
	if node.RetryOnFail {
		maxTries = min(5, max(2, cmp.Or(node.MaxTries, 3)))
		wait = time.Duration(min(5000, max(0, cmp.Or(node.WaitBetweenTries, 1000)))) * time.Millisecond
	}
	for try := 0; try < maxTries; try++ {
		if try != 0 {
			execErr = nil
			if wait > 0 {
				if err := r.e.opts.Sleep(ctx, wait); err != nil {
					return nil, false, toExecutionError(err, node.Name, runIndex, r.e.opts.Now())
				}
			}
		}
		var err error
		out, skipped, err = r.runNode(ctx, node, item, runIndex, ev)
		if err != nil {
			r.state.ResultData.LastNodeExecuted = node.Name
			execErr = toExecutionError(err, node.Name, runIndex, r.e.opts.Now())
			continue
		}
		if !skipped {
			r.state.ResultData.LastNodeExecuted = node.Name
			fixPairedItems(item.Data.Main, out)
		}
		if (skipped || len(out) == 0 || len(out[0]) == 0) && node.AlwaysOutputData {
			if len(out) == 0 {
				out = [][]workflow.Item{nil}
			}
			out[0] = []workflow.Item{{JSON: workflow.NewObject(0), PairedItem: allPairedItems(item.Data.Main)}}
			skipped = false
		}
		return out, skipped, nil
	}
	return out, false, execErr
}

// addNodeToBeExecuted queues a child, or records its input while it waits for other inputs, as
// n8n's WorkflowExecute.addNodeToBeExecuted does: at the end of the queue and starting sibling
// branches in the v0 order, at its front and starting nothing else in the v1 order.
func (r *run) addNodeToBeExecuted(c workflow.Connection, outIdx int, parent string, out [][]workflow.Item, runIndex int) {
	ed := &r.state.ExecutionData
	dest := c.Node
	destInputs, _ := r.g.inputs(dest)
	nInputs := len(destInputs)
	src := &workflow.SourceData{PreviousNode: parent, PreviousNodeOutput: outIdx, PreviousNodeRun: runIndex}
	stillMissing := false
	waitIdx := -1
	if nInputs > 1 {
		nodeWasWaiting := true
		w := ed.Waiting.get(dest)
		if w == nil {
			w = ed.Waiting.create(dest)
			nodeWasWaiting = false
		}
		createNew := true
		for _, idx := range ed.Waiting.runIndexes(dest) {
			if w[idx].Main[c.Index] == nil {
				createNew = false
				waitIdx = idx
				break
			}
		}
		if waitIdx == -1 {
			waitIdx = len(w)
		}
		if createNew {
			w[waitIdx] = newWaitingEntry(nInputs)
		}
		entry := w[waitIdx]
		entry.Main[c.Index] = out[outIdx]
		entry.Source[c.Index] = src
		if !slices.ContainsFunc(entry.Main, func(in []workflow.Item) bool { return in == nil }) {
			r.enqueue(ExecuteData{Node: dest, Data: Inputs{Main: entry.Main}, Source: &SourceConnections{Main: entry.Source}})
			ed.Waiting.deleteRun(dest, waitIdx)
			return
		}
		stillMissing = true
		if !nodeWasWaiting && !r.v1 {
			r.startSiblings(dest, parent, out[outIdx], runIndex, outIdx)
		}
	}
	var inputs [][]workflow.Item
	if waitIdx >= 0 {
		if e := ed.Waiting.get(dest)[waitIdx]; e != nil {
			inputs = e.Main
		}
	}
	if inputs == nil {
		inputs = make([][]workflow.Item, c.Index+1)
	}
	inputs[c.Index] = out[outIdx]
	if stillMissing {
		// n8n re-creates the waiting entry here, keeping the data but only this input's source.
		entry := newWaitingEntry(nInputs)
		entry.Main = inputs
		entry.Source[c.Index] = src
		ed.Waiting.get(dest)[waitIdx] = entry
		return
	}
	r.enqueue(ExecuteData{Node: dest, Data: Inputs{Main: inputs}, Source: &SourceConnections{Main: []*workflow.SourceData{src}}})
}

func newWaitingEntry(n int) *waitingEntry {
	return &waitingEntry{Main: make([][]workflow.Item, n), Source: make([]*workflow.SourceData, n)}
}

// startSiblings is called when a multi-input node starts waiting: a branch feeding another of
// its inputs that will not run by itself is started once with an empty item.
func (r *run) startSiblings(dest, parent string, parentOut []workflow.Item, runIndex, outIdx int) {
	ed := &r.state.ExecutionData
	runData := r.state.ResultData.RunData
	var checkOutputNodes []string
	for _, conns := range r.g.bySource[parent]["main"] {
		for _, c := range conns {
			checkOutputNodes = append(checkOutputNodes, c.Node)
		}
	}
	destInputs, _ := r.g.inputs(dest)
	for _, conns := range destInputs {
		for _, in := range conns {
			if in.Node == parent {
				continue
			}
			var stackNodes []string
			for _, q := range ed.NodeExecutionStack {
				stackNodes = append(stackNodes, q.Node)
			}
			if slices.Contains(checkOutputNodes, in.Node) {
				inMain, _ := r.g.inputs(in.Node)
				var first []workflow.Connection
				if len(inMain) > 0 {
					first = inMain[0]
				}
				if !incomingConnectionIsEmpty(runData, first, runIndex) {
					continue
				}
			}
			if slices.Contains(stackNodes, in.Node) {
				continue
			}
			if _, ran := runData[in.Node]; ran {
				continue
			}
			parents := slices.Clone(r.g.parentNodes(in.Node))
			parents = append(parents, in.Node)
			slices.Reverse(parents)
			nodeToAdd := in.Node
			for _, p := range parents {
				if in.Node != p && slices.Contains(checkOutputNodes, p) {
					nodeToAdd = ""
					break
				}
				if slices.Contains(stackNodes, p) {
					nodeToAdd = ""
					break
				}
				if _, ran := runData[p]; ran {
					break
				}
				nodeToAdd = p
			}
			if nodeToAdd != "" && slices.Contains(r.g.parentNodes(nodeToAdd), parent) && len(parentOut) == 0 {
				// A child of the parent that got no data must not be run with an empty item.
				nodeToAdd = ""
			}
			if nodeToAdd == "" {
				continue
			}
			addMain, hasInputs := r.g.inputs(nodeToAdd)
			addEmpty := !hasInputs
			if hasInputs {
				var first []workflow.Connection
				if len(addMain) > 0 {
					first = addMain[0]
				}
				addEmpty = incomingConnectionIsEmpty(runData, first, runIndex)
			}
			if addEmpty {
				ed.NodeExecutionStack = append(ed.NodeExecutionStack, ExecuteData{
					Node:   nodeToAdd,
					Data:   Inputs{Main: [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}},
					Source: &SourceConnections{Main: []*workflow.SourceData{{PreviousNode: parent, PreviousNodeOutput: outIdx, PreviousNodeRun: runIndex}}},
				})
			}
		}
	}
}

// startWaitingNode runs when the queue is empty: the first waiting node whose parents are not
// waiting themselves (and, in the v1 order, whose required inputs got data) runs with empty lists
// for the inputs that never got data. Entries without any data are dropped.
func (r *run) startWaitingNode() {
	ed := &r.state.ExecutionData
	waitingNodes := ed.Waiting.Nodes()
	for i := 0; i < len(waitingNodes); i++ {
		name := waitingNodes[i]
		if _, ok := r.g.nodes[name]; !ok {
			continue
		}
		parentWaiting := slices.ContainsFunc(r.g.parentNodes(name), func(p string) bool {
			return slices.Contains(waitingNodes, p)
		})
		if parentWaiting {
			continue
		}
		// n8n sorts the run indexes as strings.
		keys := make([]string, 0)
		for _, idx := range ed.Waiting.runIndexes(name) {
			keys = append(keys, strconv.Itoa(idx))
		}
		slices.Sort(keys)
		first, _ := strconv.Atoi(keys[0])
		entry := ed.Waiting.get(name)[first]
		if r.v1 && !r.requiredInputsMet(name, entry) {
			continue
		}
		main := make([][]workflow.Item, len(entry.Main))
		hasData := false
		for j, in := range entry.Main {
			if in == nil {
				in = []workflow.Item{}
			}
			main[j] = in
			hasData = hasData || len(in) > 0
		}
		if hasData {
			if t := r.types[name]; t != nil {
				for len(main) < len(t.Description.Inputs) {
					main = append(main, []workflow.Item{})
				}
			}
			ed.NodeExecutionStack = append(ed.NodeExecutionStack, ExecuteData{
				Node: name, Data: Inputs{Main: main}, Source: &SourceConnections{Main: entry.Source},
			})
		}
		ed.Waiting.deleteRun(name, first)
		if hasData {
			return
		}
		waitingNodes = ed.Waiting.Nodes()
		i = -1
	}
}
