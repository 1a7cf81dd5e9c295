package execution

import (
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// effectFree are node types whose run only computes items from their input: running one again
// changes nothing outside the run. A worker taking over from an earlier checkpoint repeats them
// at no cost but CPU, so their own checkpoint is not worth a database write.
var effectFree = map[string]bool{
	"n8n-nodes-base.webhook":         true,
	"n8n-nodes-base.start":           true,
	"n8n-nodes-base.manualTrigger":   true,
	"n8n-nodes-base.set":             true,
	"n8n-nodes-base.if":              true,
	"n8n-nodes-base.switch":          true,
	"n8n-nodes-base.merge":           true,
	"n8n-nodes-base.noOp":            true,
	"n8n-nodes-base.renameKeys":      true,
	"n8n-nodes-base.itemLists":       true,
	"n8n-nodes-base.dateTime":        true,
	"n8n-nodes-base.compareDatasets": true,
	"n8n-nodes-base.stickyNote":      true,
}

// needsCheckpoint tells whether the state after a node must be saved before the run goes on.
// Not after the last node (the final result is written when the run ends), and not after an
// effect-free node of a run no editor follows: the next checkpoint, or the final result, covers
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
	return !ok || !effectFree[node.Type]
}
