package execution

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// checkpoint saves what a worker taking over needs to continue the run. The first checkpoint
// of a run (on this worker) writes the whole state, the base; every later one appends a delta:
// the node runs since the previous checkpoint and the state without its run data (the queue,
// waiting inputs, context), so a checkpoint costs what the last nodes produced instead of a copy
// of all run data (a chain of n nodes followed by an editor wrote n²/2 node runs). The store
// reads base and deltas back as one state (see store.CheckpointDelta). A delta after an
// effect-free node need not wait for the disk: repeating that node after a database crash is
// harmless, and the next checkpoint that waits makes it durable too.
func (h *hooks) checkpoint(ctx context.Context, state *engine.State, durable bool) error {
	var (
		ok  bool
		err error
	)
	if !h.based {
		var b []byte
		if b, err = json.Marshal(state); err != nil {
			return fmt.Errorf("encode checkpoint: %w", err)
		}
		ok, err = h.r.cfg.Store.SaveExecutionState(ctx, h.e.ID, h.e.LeaseOwner, b)
	} else {
		var b []byte
		if b, err = encodeDelta(state, h.saved); err != nil {
			return fmt.Errorf("encode checkpoint: %w", err)
		}
		ok, err = h.r.cfg.Store.AppendExecutionCheckpoint(ctx, h.e.ID, h.e.LeaseOwner, b, durable)
	}
	if err != nil {
		return err
	}
	if !ok {
		return errLeaseLost
	}
	h.based, h.saved = true, len(state.NodeExecutionOrder)
	return nil
}

// encodeDelta writes the node runs after the first saved ones and the rest of the state.
func encodeDelta(state *engine.State, saved int) ([]byte, error) {
	order := state.NodeExecutionOrder
	if saved > len(order) {
		return nil, fmt.Errorf("the checkpoint holds %d node runs, the run only %d", saved, len(order))
	}
	runs := make([]store.CheckpointRun, len(order)-saved)
	later := map[string]int{} // runs of a node after the one at hand
	for i := len(order) - 1; i >= saved; i-- {
		node := order[i]
		tasks := state.ResultData.RunData[node]
		idx := len(tasks) - 1 - later[node]
		if idx < 0 {
			return nil, fmt.Errorf("node %q has no run record for its run in the execution order", node)
		}
		later[node]++
		task, err := json.Marshal(tasks[idx])
		if err != nil {
			return nil, err
		}
		runs[i-saved] = store.CheckpointRun{Node: node, Task: task}
	}
	rest := *state
	rest.ResultData.RunData = workflow.RunData{}
	rest.NodeExecutionOrder = []string{}
	b, err := json.Marshal(&rest)
	if err != nil {
		return nil, err
	}
	return json.Marshal(store.CheckpointDelta{From: saved, Runs: runs, State: b})
}

// needsCheckpoint tells whether the state after a node must be saved before the run goes on.
// Not after the last node (the final result is written when the run ends), and not after an
// effect-free node (nodes.Type.EffectFree) of a run no editor follows: the next checkpoint, or the final result, covers
// it. A run an editor follows is checkpointed after every node, so what the editor is told has
// happened is what a worker taking over continues from.
// durable tells whether that checkpoint must reach the disk before the run goes on: all but
// those after an effect-free node.
func (h *hooks) needsCheckpoint(ev engine.NodeEvent, task *workflow.TaskData, state *engine.State) (needed, durable bool) {
	if runEnds(task, state) {
		return false, false
	}
	effectFree := task.Error == nil && h.effectFree(ev.Node)
	return h.e.SessionID != "" || !effectFree, !effectFree
}

// effectFree tells whether the node named name only computes items (nodes.Type.EffectFree):
// its checkpoint may be left to a later one and its start is not recorded on the lease, which
// spares writes on long chains of such nodes (a poison pill in one is named by the checkpoint
// before it).
func (h *hooks) effectFree(name string) bool {
	node, ok := h.wf.Node(name)
	if !ok {
		return false
	}
	t, ok := h.r.base.Registry.Get(node.Type, node.TypeVersion)
	return ok && t.EffectFree
}
