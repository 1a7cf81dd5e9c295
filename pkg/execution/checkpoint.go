package execution

import (
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// needsCheckpoint tells whether the state after a node must be saved before the run goes on.
// Not after the last node (the final result is written when the run ends), and not after an
// effect-free node (nodes.Type.EffectFree) of a run no editor follows: the next checkpoint, or the final result, covers
// it. A run an editor follows is checkpointed after every node, so what the editor is told has
// happened is what a worker taking over continues from.
func (h *hooks) needsCheckpoint(ev engine.NodeEvent, task *workflow.TaskData, state *engine.State) bool {
	if len(state.ExecutionData.NodeExecutionStack) == 0 && state.ExecutionData.Waiting.Len() == 0 && task.Error == nil {
		return false
	}
	if h.e.SessionID != "" || task.Error != nil {
		return true
	}
	node, ok := h.wf.Node(ev.Node)
	if !ok {
		return true
	}
	t, ok := h.r.base.Registry.Get(node.Type, node.TypeVersion)
	return !ok || !t.EffectFree
}
