package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nesting"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// runNode runs one node once, as n8n's Workflow.runNode: a disabled node passes input 0
// through; an action node with no items on input 0 (in the v1 order: on any input) is skipped;
// triggers give their manual output in manual mode and pass their input through otherwise.
func (r *run) runNode(ctx context.Context, node *workflow.Node, item ExecuteData, runIndex int, ev NodeEvent) (
	out [][]workflow.Item, skipped bool, err error,
) {
	inputs := item.Data.Main
	if node.Disabled {
		if len(inputs) == 0 || inputs[0] == nil {
			return nil, true, nil
		}
		return [][]workflow.Item{inputs[0]}, false, nil
	}
	t := r.types[node.Name]
	if t == nil {
		_, err := r.e.opts.Registry.Lookup(node.Type, node.TypeVersion)
		return nil, false, err
	}
	mainInput, hasItems := r.mainInput(inputs)
	if t.Kind == nodes.KindAction && !hasItems {
		return nil, true, nil
	}
	if node.ExecuteOnce {
		once := make([][]workflow.Item, len(inputs))
		for i, in := range inputs {
			if len(in) > 1 {
				in = in[:1]
			}
			once[i] = in
		}
		inputs = once
	}
	if !r.beforeSent {
		r.beforeSent = true
		for _, h := range r.e.opts.Hooks {
			h.NodeExecuteBefore(ctx, ev)
		}
	}
	switch t.Kind {
	case nodes.KindWebhook:
		return inputs, inputs == nil, nil
	case nodes.KindTrigger, nodes.KindPoll:
		if r.mode != workflow.ModeManual && !t.ShapesStartInput {
			return inputs, inputs == nil, nil
		}
	}
	out, err = r.callNode(ctx, t, node, inputs, mainInput, item, runIndex, ev)
	if err != nil {
		return nil, false, err
	}
	return out, out == nil, nil
}

func (r *run) callNode(ctx context.Context, t *nodes.Type, node *workflow.Node, inputs [][]workflow.Item,
	mainInput int, item ExecuteData, runIndex int, ev NodeEvent,
) (out [][]workflow.Item, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.e.opts.Logger.Error("node panicked", "node", node.Name, "panic", p, "stack", string(debug.Stack()))
			out, err = nil, fmt.Errorf("internal error in node %q: %v", node.Name, p)
		}
	}()
	exprCtx := r.exprBase
	exprCtx.RunData = r.state.ResultData.RunData
	if item.Source != nil {
		exprCtx.Source = item.Source.Main
	}
	exprCtx.ParentOutput = r.g.parentOutputLookup(node.Name)
	contextData := r.state.ExecutionData.ContextData
	if contextData == nil {
		contextData = map[string]any{}
		r.state.ExecutionData.ContextData = contextData
	}
	exprCtx.NodeContext = nodeContexts(contextData)
	nodeCtx, _ := contextData["node:"+node.Name].(map[string]any)
	key := "node:" + node.Name
	static, _ := r.staticData[key].(map[string]any)
	global, _ := r.staticData["global"].(map[string]any)
	var before map[string]any
	if static != nil {
		before, _ = workflow.DeepCopy(static).(map[string]any)
	}
	ex := nodes.NewExecution(nodes.ExecutionConfig{
		Node:             r.resolved[node.Name],
		Type:             t,
		Inputs:           inputs,
		MainInput:        mainInput,
		Mode:             r.mode,
		RunIndex:         runIndex,
		Evaluator:        r.e.opts.Evaluator,
		Expr:             exprCtx,
		StaticData:       static,
		GlobalStaticData: global,
		Context:          nodeCtx,
		Console: func(level string, args []any) {
			for _, h := range r.e.opts.Hooks {
				h.ConsoleMessage(ctx, ev, level, args)
			}
		},
		Logger:      r.e.opts.Logger.With("node", node.Name),
		Credentials: r.e.opts.Credentials,
		Host:        r.e.opts.Host,
		Flow: nodes.FlowConfig{
			Now:         r.e.opts.Now,
			Sleep:       r.e.opts.Sleep,
			PutToWait:   func(till time.Time) { r.waitTill = &till },
			Workflows:   r.e.opts.Workflows,
			RunWorkflow: r.runSubWorkflow,
		},
	})
	out, err = t.Node.Execute(ctx, ex)
	if err == nil {
		err = checkNesting(out)
	}
	if c := ex.ContextData(); c != nil {
		contextData["node:"+node.Name] = c
	}
	if now, changed := ex.GlobalStaticDataChanged(); changed {
		r.staticData["global"] = now
		r.staticDirty = true
	}
	if now, used := ex.StaticDataUsed(); used && !workflow.DeepEqual(now, before) && !(before == nil && len(now) == 0) {
		r.staticData[key] = now
		r.staticDirty = true
	}
	return out, err
}

// withPairedItems gives every input item a pairedItem pointing at its own position, so nodes
// that pass items on keep the link to their source item.
func withPairedItems(main [][]workflow.Item) [][]workflow.Item {
	out := make([][]workflow.Item, len(main))
	for input, items := range main {
		if items == nil {
			continue
		}
		c := make([]workflow.Item, len(items))
		for i, it := range items {
			it.PairedItem = &workflow.PairedItems{{Item: i, Input: input}}
			c[i] = it
		}
		out[input] = c
	}
	return out
}

// fixPairedItems fills in missing pairedItem where the link is certain: one input item, or as
// many output items as input items on a single input and output.
func fixPairedItems(in, out [][]workflow.Item) {
	if len(out) == 0 {
		return
	}
	single := len(in) == 1 && len(in[0]) == 1
	same := len(out) == 1 && len(in) == 1 && len(in[0]) == len(out[0])
	for _, items := range out {
		for i := range items {
			if items[i].PairedItem != nil {
				continue
			}
			switch {
			case single:
				items[i].PairedItem = &workflow.PairedItems{{Item: 0}}
			case same:
				items[i].PairedItem = &workflow.PairedItems{{Item: i}}
			default:
				return
			}
		}
	}
}

func allPairedItems(in [][]workflow.Item) *workflow.PairedItems {
	var p workflow.PairedItems
	for input, items := range in {
		for i := range items {
			p = append(p, workflow.PairedItem{Item: i, Input: input})
		}
	}
	if p == nil {
		return nil
	}
	return &p
}

// errorItemsToJSON gives error items produced with continueOnFail a json {error: message}.
func errorItemsToJSON(out [][]workflow.Item) {
	for _, items := range out {
		for i := range items {
			if items[i].Error != nil && items[i].JSON.Len() == 0 {
				items[i].JSON = workflow.ObjectOf("error", items[i].Error.Message)
			}
		}
	}
}

func toExecutionError(err error, node string, runIndex int, now interface{ UnixMilli() int64 }) *workflow.ExecutionError {
	var ne *nodes.Error
	if errors.As(err, &ne) {
		return ne.ExecutionError(node, runIndex, now.UnixMilli())
	}
	var ee *workflow.ExecutionError
	if errors.As(err, &ee) {
		c := *ee
		if c.Node == "" {
			c.Node = node
		}
		return &c
	}
	name := "NodeOperationError"
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		name = "ExecutionCancelledError"
	}
	return &workflow.ExecutionError{
		Name:      name,
		Message:   err.Error(),
		Timestamp: now.UnixMilli(),
		Node:      node,
		Context:   map[string]any{"runIndex": runIndex},
	}
}

func engineError(msg string, now interface{ UnixMilli() int64 }) *workflow.ExecutionError {
	return &workflow.ExecutionError{Name: "WorkflowOperationError", Message: msg, Timestamp: now.UnixMilli()}
}

func cancelError(err error, now interface{ UnixMilli() int64 }) *workflow.ExecutionError {
	msg := "The execution was canceled"
	if errors.Is(err, context.DeadlineExceeded) {
		msg = "The execution timed out"
	}
	return &workflow.ExecutionError{Name: "ExecutionCancelledError", Message: msg, Timestamp: now.UnixMilli()}
}

// nodeContexts returns the context data per node name for expressions.
func nodeContexts(contextData map[string]any) map[string]map[string]any {
	if len(contextData) == 0 {
		return nil
	}
	out := make(map[string]map[string]any, len(contextData))
	for k, v := range contextData {
		if name, ok := strings.CutPrefix(k, "node:"); ok {
			if m, ok := v.(map[string]any); ok {
				out[name] = m
			}
		}
	}
	return out
}

// checkNesting refuses a node's output with a field nested deeper than nesting.Max (an HTTP
// response, a parsed file, a script result): run data is encoded and stored by recursive
// encoders. Fields are checked, not the item's json object, so a webhook body of exactly
// nesting.Max levels passes on under the item's "body".
func checkNesting(out [][]workflow.Item) error {
	for _, items := range out {
		for i := range items {
			for _, m := range items[i].JSON.Members() {
				if err := nesting.Value(m.Value); err != nil {
					return fmt.Errorf("item %d, field %q: %w", i, m.Key, err)
				}
			}
		}
	}
	return nil
}
