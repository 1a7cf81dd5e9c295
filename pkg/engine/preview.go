package engine

import (
	"fmt"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// PlaceholderFilledAtExecutionTime is what $execution.id and $execution.resumeUrl show outside a
// run, as in n8n's editor.
const PlaceholderFilledAtExecutionTime = "[filled at execution time]"

// PreviewRequest names a node of a workflow and the run data of an earlier run, to evaluate
// expressions for that node outside a run (the editor's parameter previews).
type PreviewRequest struct {
	Workflow *workflow.Workflow
	// RunData is the run data the editor holds; nil means no node has run.
	RunData workflow.RunData
	// Node is the node the expressions belong to; it must exist in Workflow.
	Node string
	// ItemIndex is the input item ($json, $itemIndex); RunIndex is the node's run ($runIndex).
	// Both default to 0 and must not be negative.
	ItemIndex int
	RunIndex  int
}

// PreviewContext returns the expression context the engine gives the node when it runs in
// manual mode for one item: parameters with defaults resolved, the workflow's nodes, its time
// zone, $env as configured, and the node's input on main input 0 with paired items. The input is
// what fed the node's run RunIndex when that run exists (its source), otherwise the output of
// the first parent on each input that has run data, at RunIndex or its last run. A node without
// incoming connections gets one empty item, as a start node does. $execution shows mode manual
// and PlaceholderFilledAtExecutionTime for id and resumeUrl. It fails with a *StartError when
// the node does not exist or its parameters cannot be resolved.
func (e *Engine) PreviewContext(req PreviewRequest) (*expr.Context, error) {
	if req.Workflow == nil {
		return nil, &StartError{Message: "no workflow given"}
	}
	node, ok := req.Workflow.Node(req.Node)
	if !ok {
		return nil, &StartError{Message: fmt.Sprintf("The node %q does not exist in the workflow", req.Node)}
	}
	r, err := e.newRun(req.Workflow, workflow.ModeManual, PlaceholderFilledAtExecutionTime, "")
	if err != nil {
		return nil, err
	}
	runData := req.RunData
	if runData == nil {
		runData = workflow.RunData{}
	}
	c := r.exprBase
	c.Execution.ResumeURL = PlaceholderFilledAtExecutionTime
	c.RunData = runData
	c.ParentOutput = r.g.parentOutputLookup(node.Name)
	c.NodeName = node.Name
	c.NodeType = node.Type
	c.NodeParameters = node.Parameters
	if rn := r.resolved[node.Name]; rn != nil {
		c.NodeParameters = rn.Parameters
	}
	main, source := r.previewInputs(node.Name, runData, req.RunIndex)
	main = withPairedItems(main)
	if len(main) > 0 {
		c.Items = main[0]
	}
	c.Source = source
	c.ItemIndex = req.ItemIndex
	c.RunIndex = req.RunIndex
	return &c, nil
}

// previewInputs gives the node's inputs and their sources for run runIndex.
func (r *run) previewInputs(name string, runData workflow.RunData, runIndex int) ([][]workflow.Item, []*workflow.SourceData) {
	if runs := runData[name]; runIndex < len(runs) && len(runs[runIndex].Source) > 0 {
		source := runs[runIndex].Source
		main := make([][]workflow.Item, len(source))
		for i, s := range source {
			if s != nil {
				main[i] = outputItems(runData, s.PreviousNode, s.PreviousNodeRun, s.PreviousNodeOutput)
			}
		}
		return main, source
	}
	inputs, ok := r.g.inputs(name)
	if !ok {
		return [][]workflow.Item{{{JSON: workflow.NewObject(0)}}}, nil
	}
	main := make([][]workflow.Item, len(inputs))
	source := make([]*workflow.SourceData, len(inputs))
	for i, conns := range inputs {
		for _, c := range conns {
			runs := runData[c.Node]
			if len(runs) == 0 {
				continue
			}
			run := min(runIndex, len(runs)-1)
			main[i] = outputItems(runData, c.Node, run, c.Index)
			source[i] = &workflow.SourceData{PreviousNode: c.Node, PreviousNodeOutput: c.Index, PreviousNodeRun: run}
			break
		}
	}
	return main, source
}

// outputItems returns the items of one output of one run of a node; nil when there are none.
func outputItems(runData workflow.RunData, node string, run, output int) []workflow.Item {
	runs := runData[node]
	if run < 0 || run >= len(runs) || runs[run].Data == nil || output < 0 || output >= len(runs[run].Data.Main) {
		return nil
	}
	return runs[run].Data.Main[output]
}
