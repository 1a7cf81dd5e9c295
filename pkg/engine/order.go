package engine

import (
	"cmp"
	"slices"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// The two execution orders differ in a few places only, all of them here or marked r.v1:
//
//   - v0: a node's children join the end of the queue, output by output in connection order; a
//     child connected to a later input is queued even when the output is empty; a multi-input
//     node runs once every input fed by an enabled node has data, and the first time it waits,
//     sibling branches that would not run by themselves are started with an empty item.
//   - v1 (n8n 1.x WorkflowExecute with settings.executionOrder "v1"): a node's children go to
//     the front of the queue, the top-most (then left-most) on the canvas first, so a branch
//     runs to its end before the next one starts; an empty output queues nothing; a multi-input
//     node runs at once when all its connected inputs have data, otherwise it waits until
//     nothing else is left and then runs with the inputs that got data, when they meet its
//     type's RequiredInputs (Merge's choose branch needs both); no branch is ever started to
//     feed it.

// child is one connection of a node's output to queue.
type child struct {
	conn   workflow.Connection
	output int
}

// queueChildren hands a node's output to the nodes connected to it, in the run's order.
func (r *run) queueChildren(name string, out [][]workflow.Item, runIndex int) *workflow.ExecutionError {
	var children []child
	for outIdx, conns := range r.g.bySource[name]["main"] {
		for _, c := range conns {
			if _, ok := r.g.nodes[c.Node]; !ok {
				return engineError("Destination node not found: "+c.Node, r.e.opts.Now())
			}
			if outIdx >= len(out) || out[outIdx] == nil {
				continue
			}
			// v0 also queues an empty output into a later ("optional") input.
			if len(out[outIdx]) == 0 && (r.v1 || c.Index == 0) {
				continue
			}
			children = append(children, child{conn: c, output: outIdx})
		}
	}
	if r.v1 {
		// Each child is put at the front of the queue, so the last one queued runs first: queue
		// from the bottom-right up, and the top-left child runs first.
		slices.SortStableFunc(children, func(a, b child) int {
			ax, ay := r.position(a.conn.Node)
			bx, by := r.position(b.conn.Node)
			if c := cmp.Compare(by, ay); c != 0 {
				return c
			}
			return cmp.Compare(bx, ax)
		})
	}
	for _, c := range children {
		r.addNodeToBeExecuted(c.conn, c.output, name, out, runIndex)
	}
	return nil
}

// position is a node's place on the canvas; [0, 0] when it has none.
func (r *run) position(name string) (x, y float64) {
	p := r.g.nodes[name].Position
	if len(p) >= 2 {
		return p[0], p[1]
	}
	return 0, 0
}

// enqueue queues a node run: at the end in the v0 order, at the front in the v1 order.
func (r *run) enqueue(ed ExecuteData) {
	stack := &r.state.ExecutionData.NodeExecutionStack
	if r.v1 {
		*stack = append([]ExecuteData{ed}, *stack...)
		return
	}
	*stack = append(*stack, ed)
}

// requiredInputsMet reports whether a waiting node may run with the inputs of its entry that
// got data (an input whose parent ran counts, even with no items), as its type requires.
func (r *run) requiredInputsMet(name string, entry *waitingEntry) bool {
	t := r.types[name]
	if t == nil || t.RequiredInputs == nil {
		return true
	}
	params := map[string]any{}
	if n := r.resolved[name]; n != nil {
		params = n.Parameters
	}
	var withData []int
	for i, in := range entry.Main {
		if in != nil {
			withData = append(withData, i)
		}
	}
	return t.RequiredInputs(params).MetBy(withData)
}

// mainInput is the input whose items an action node runs on: input 0, or in the v1 order the
// first input with items when input 0 has none (a multi-input node run with the inputs that
// got data). ok is false when no input the node reads has items: the node is skipped.
func (r *run) mainInput(inputs [][]workflow.Item) (index int, ok bool) {
	if len(inputs) > 0 && len(inputs[0]) > 0 {
		return 0, true
	}
	if !r.v1 {
		return 0, false
	}
	for i, in := range inputs {
		if len(in) > 0 {
			return i, true
		}
	}
	return 0, false
}
