package engine_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// The cases below follow n8n 1.x's WorkflowExecute with settings.executionOrder "v1"; each
// also runs in the v0 order where the two differ, so both stay pinned down.

// node is a node of these tests: a name, a type with its version, a canvas position and
// parameters.
func node(name, typ string, version float64, x, y int, params string) string {
	if params == "" {
		params = "{}"
	}
	return fmt.Sprintf(`{"name": %q, "type": %q, "typeVersion": %g, "position": [%d, %d], "parameters": %s}`,
		name, typ, version, x, y, params)
}

func noOp(name string, x, y int) string { return node(name, "n8n-nodes-base.noOp", 1, x, y, "") }

// requireOutputs compares the main output 0 of a node's runs with JSON, so number types and
// key order do not matter.
func requireOutputs(t *testing.T, want string, res *engine.Result, node string) {
	t.Helper()
	got, err := json.Marshal(outputs(t, res, node))
	require.NoError(t, err)
	require.JSONEq(t, want, string(got), node)
}

func ordered(t *testing.T, order string, nodes []string, conns ...conn) *workflow.Workflow {
	t.Helper()
	w := wf(t, "["+strings.Join(nodes, ",")+"]", conns...)
	if order != "" {
		w.Settings = workflow.Settings{"executionOrder": order}
	}
	return w
}

func TestOrderV1BranchesRunDepthFirstByPosition(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	nodes := []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 100, ""),
		noOp("Bottom", 200, 200), noOp("Bottom 2", 400, 200),
		noOp("Top", 200, 0), noOp("Top 2", 400, 0),
		// Same height as Middle Right: the one further left runs first.
		noOp("Middle Right", 400, 100), noOp("Middle Left", 200, 100),
	}
	// Connections are listed bottom first: the canvas position decides in v1, not this order.
	conns := []conn{
		{"Start", 0, "Bottom", 0}, {"Start", 0, "Middle Right", 0}, {"Start", 0, "Top", 0}, {"Start", 0, "Middle Left", 0},
		{"Bottom", 0, "Bottom 2", 0}, {"Top", 0, "Top 2", 0},
	}

	res := run(t, e, engine.Request{Workflow: ordered(t, "v1", nodes, conns...)})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Top", "Top 2", "Middle Left", "Middle Right", "Bottom", "Bottom 2"}, res.State.NodeExecutionOrder)

	// v0 (no setting): breadth-first, children in connection order.
	res = run(t, e, engine.Request{Workflow: ordered(t, "", nodes, conns...)})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Bottom", "Middle Right", "Top", "Middle Left", "Bottom 2", "Top 2"}, res.State.NodeExecutionOrder)

	// Any other value is v0 too.
	res = run(t, e, engine.Request{Workflow: ordered(t, "v0", nodes, conns...)})
	require.Equal(t, []string{"Start", "Bottom", "Middle Right", "Top", "Middle Left", "Bottom 2", "Top 2"}, res.State.NodeExecutionOrder)
}

func TestOrderV1NodeWithTwoConnectionsOnOneInputRunsTwice(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	nodes := []string{
		node("Start", "n8n-nodes-base.start", 1, 100, 300, ""),
		node("Set1", "n8n-nodes-base.set", 1, 300, 250, `{"values": {"number": [{"name": "value1", "value": 1}]}}`),
		node("Set2", "n8n-nodes-base.set", 1, 500, 400, `{"values": {"number": [{"name": "value2", "value": 2}]}}`),
	}
	res := run(t, e, engine.Request{Workflow: ordered(t, "v1", nodes,
		conn{"Start", 0, "Set1", 0}, conn{"Start", 0, "Set2", 0}, conn{"Set1", 0, "Set2", 0})})
	require.True(t, res.Finished)
	// Set1's child runs before Start's second child: the branch first.
	require.Equal(t, []string{"Start", "Set1", "Set2", "Set2"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{"value1": 1, "value2": 2}], [{"value2": 2}]]`, res, "Set2")
}

func TestOrderV1IfBothBranches(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	nodes := []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("IF", "n8n-nodes-base.if", 1, 200, 0, `{"conditions": {"number": [{"value1": "={{ $json.v }}", "operation": "larger", "value2": 5}]}}`),
		noOp("Big", 400, 100), noOp("Big 2", 600, 100),
		// The false branch sits above the true one: in v1 it runs first.
		noOp("Small", 400, -100), noOp("Small 2", 600, -100),
	}
	conns := []conn{
		{"Start", 0, "IF", 0}, {"IF", 0, "Big", 0}, {"IF", 1, "Small", 0},
		{"Big", 0, "Big 2", 0}, {"Small", 0, "Small 2", 0},
	}
	input := []workflow.Item{{JSON: workflow.ObjectOf("v", float64(1))}, {JSON: workflow.ObjectOf("v", float64(10))}}

	res := run(t, e, engine.Request{Workflow: ordered(t, "v1", nodes, conns...), Input: input})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "IF", "Small", "Small 2", "Big", "Big 2"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{"v": 10}]]`, res, "Big 2")
	requireOutputs(t, `[[{"v": 1}]]`, res, "Small 2")

	res = run(t, e, engine.Request{Workflow: ordered(t, "", nodes, conns...), Input: input})
	require.Equal(t, []string{"Start", "IF", "Big", "Small", "Big 2", "Small 2"}, res.State.NodeExecutionOrder)
}

// mergeOneInput is Start → Set → IF; IF true → Only If Big → Merge input 1, IF false → Small →
// Merge input 2. The IF sends everything to false, so Merge's first input never gets data.
func mergeOneInput(t *testing.T, order, mergeParams string) *workflow.Workflow {
	return ordered(t, order, []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("Set", "n8n-nodes-base.set", 1, 200, 0, `{"values": {"number": [{"name": "v", "value": 1}]}}`),
		node("IF", "n8n-nodes-base.if", 1, 400, 0, `{"conditions": {"number": [{"value1": "={{ $json.v }}", "operation": "larger", "value2": 5}]}}`),
		noOp("Only If Big", 600, -100),
		noOp("Small", 600, 100),
		node("Merge", "n8n-nodes-base.merge", 2.1, 800, 0, mergeParams),
	},
		conn{"Start", 0, "Set", 0}, conn{"Set", 0, "IF", 0},
		conn{"IF", 0, "Only If Big", 0}, conn{"IF", 1, "Small", 0},
		conn{"Only If Big", 0, "Merge", 0}, conn{"Small", 0, "Merge", 1})
}

func TestOrderV1MergeRunsWithTheInputThatArrived(t *testing.T) {
	t.Parallel()
	e := newEngine(t)

	// v1: the branch that got no data never runs; Merge runs once nothing else is left, with
	// an empty first input.
	res := run(t, e, engine.Request{Workflow: mergeOneInput(t, "v1", "")})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Set", "IF", "Small", "Merge"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{"v": 1}]]`, res, "Merge")
	merge := res.State.ResultData.RunData["Merge"][0]
	require.Len(t, merge.Source, 2)
	require.Nil(t, merge.Source[0], "input 1 never got data")
	require.Equal(t, "Small", merge.Source[1].PreviousNode)

	// v0: the sibling branch is started with an empty item to feed Merge's first input.
	res = run(t, e, engine.Request{Workflow: mergeOneInput(t, "", "")})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Set", "IF", "Small", "Only If Big", "Merge"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{}, {"v": 1}]]`, res, "Merge")
}

func TestOrderV1MergeChooseBranchNeedsBothInputs(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	res := run(t, e, engine.Request{Workflow: mergeOneInput(t, "v1", `{"mode": "chooseBranch", "output": "input2"}`)})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Set", "IF", "Small"}, res.State.NodeExecutionOrder)
	require.NotContains(t, res.State.ResultData.RunData, "Merge")
}

func TestOrderV1MergeWithBothInputsRunsAfterBothBranches(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	w := ordered(t, "v1", []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("A", "n8n-nodes-base.set", 1, 200, -100, `{"values": {"string": [{"name": "from", "value": "a"}]}}`),
		noOp("A 2", 400, -100),
		node("B", "n8n-nodes-base.set", 1, 200, 100, `{"values": {"string": [{"name": "from", "value": "b"}]}}`),
		node("Merge", "n8n-nodes-base.merge", 2.1, 600, 0, ""),
		noOp("After", 800, 0),
	},
		conn{"Start", 0, "A", 0}, conn{"Start", 0, "B", 0}, conn{"A", 0, "A 2", 0},
		conn{"A 2", 0, "Merge", 0}, conn{"B", 0, "Merge", 1}, conn{"Merge", 0, "After", 0})
	res := run(t, e, engine.Request{Workflow: w})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "A", "A 2", "B", "Merge", "After"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{"from": "a"}, {"from": "b"}]]`, res, "After")
}

func TestOrderV1Loop(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	w := ordered(t, "v1", []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("Count", "n8n-nodes-base.set", 1, 200, 0, `{"values": {"number": [{"name": "counter", "value": "={{ ($json.counter || 0) + 1 }}"}]}}`),
		node("Again", "n8n-nodes-base.if", 1, 400, 0, `{"conditions": {"number": [{"value1": "={{ $json.counter }}", "operation": "smaller", "value2": 3}]}}`),
		noOp("Done", 600, 100),
	},
		conn{"Start", 0, "Count", 0}, conn{"Count", 0, "Again", 0},
		conn{"Again", 0, "Count", 0}, conn{"Again", 1, "Done", 0})
	res := run(t, e, engine.Request{Workflow: w})
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Count", "Again", "Count", "Again", "Count", "Again", "Done"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{"counter": 3}]]`, res, "Done")
}

// A v1 run stopped by a failing node resumes in the v1 order: the queue saved in the state is
// the v1 queue and the workflow's setting still chooses the order.
func TestOrderV1ResumeKeepsTheOrder(t *testing.T) {
	t.Parallel()
	r, _ := registry()
	e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t)})
	require.NoError(t, err)
	w := ordered(t, "v1", []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("Fails Once", "test.flaky", 1, 200, -100, `{"failTimes": 1}`),
		noOp("After Fail", 400, -100),
		noOp("Other", 200, 100),
	}, conn{"Start", 0, "Fails Once", 0}, conn{"Start", 0, "Other", 0}, conn{"Fails Once", 0, "After Fail", 0})
	res := run(t, e, engine.Request{Workflow: w})
	require.Equal(t, workflow.StatusError, res.Status)
	require.Equal(t, []string{"Start", "Fails Once"}, res.State.NodeExecutionOrder)

	res.State.PrepareRetry()
	res, err = e.Resume(t.Context(), w, res.State, workflow.ModeRetry, "")
	require.NoError(t, err)
	require.True(t, res.Finished)
	require.Equal(t, []string{"Start", "Fails Once", "After Fail", "Other"}, res.State.NodeExecutionOrder)
}

// A node the v1 order runs without items on input 0 evaluates its expressions on the first
// input with items, as n8n 1.x does.
func TestOrderV1ExpressionsSeeTheInputWithItems(t *testing.T) {
	t.Parallel()
	e := newEngine(t)
	w := ordered(t, "v1", []string{
		node("Start", "n8n-nodes-base.start", 1, 0, 0, ""),
		node("Set", "n8n-nodes-base.set", 1, 200, 0, `{"values": {"string": [{"name": "mode", "value": "chooseBranch"}, {"name": "which", "value": "input2"}]}}`),
		node("IF", "n8n-nodes-base.if", 1, 400, 0, `{"conditions": {"boolean": [{"value1": true, "value2": false}]}}`),
		noOp("Never", 600, -100),
		noOp("Always", 600, 100),
		node("Merge", "n8n-nodes-base.merge", 1, 800, 0, `{"mode": "={{ $json.mode === 'chooseBranch' ? 'passThrough' : 'wait' }}", "output": "={{ $json.which }}"}`),
	},
		conn{"Start", 0, "Set", 0}, conn{"Set", 0, "IF", 0},
		conn{"IF", 0, "Never", 0}, conn{"IF", 1, "Always", 0},
		conn{"Never", 0, "Merge", 0}, conn{"Always", 0, "Merge", 1})
	res := run(t, e, engine.Request{Workflow: w})
	require.True(t, res.Finished, "%+v", res.State.ResultData.Error)
	require.Equal(t, []string{"Start", "Set", "IF", "Always", "Merge"}, res.State.NodeExecutionOrder)
	requireOutputs(t, `[[{"mode": "chooseBranch", "which": "input2"}]]`, res, "Merge")
}
