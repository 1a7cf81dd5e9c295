package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// previewExpressions are evaluated by the Check node during a run and by the endpoint after it.
var previewExpressions = map[string]string{
	"json":      `={{ $json.z }}`,
	"spaced":    `={{ $json["a b"] }}`,
	"node":      `={{ $node["Code"].json.z + $node["Set"].parameter.values.string[0].value }}`,
	"parameter": `={{ $parameter.keepOnlySet }}`,
	"item":      `={{ $itemIndex }}`,
	"paired":    `={{ $("Set").item.json.y + "-" + $input.item.json.z }}`,
	"run":       `={{ $runIndex }}`,
	"workflow":  `={{ $workflow.name }}`,
	"zone":      `={{ $now.zoneName }}`,
	"env":       `={{ $env.PREVIEW_PROBE }}`,
	"mode":      `={{ $execution.mode }}`,
	"mixed":     `=z is {{ $json.z }} of {{ $items("Code").length }}`,
	"object":    `={{ $json }}`,
}

func previewWorkflow(t *testing.T) *workflow.Workflow {
	t.Helper()
	var values []any
	for name, expression := range previewExpressions {
		values = append(values, map[string]any{"name": name, "value": expression})
	}
	doc := map[string]any{
		"name":     "Preview",
		"settings": map[string]any{"timezone": "Asia/Tokyo"},
		"nodes": []any{
			map[string]any{"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": []int{0, 0}, "parameters": map[string]any{}},
			map[string]any{"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "position": []int{200, 0},
				"parameters": map[string]any{"values": map[string]any{"string": []any{
					map[string]any{"name": "y", "value": "hello"}, map[string]any{"name": "a b", "value": "spaced out"}}}}},
			map[string]any{"name": "Code", "type": "n8n-nodes-base.code", "typeVersion": 1, "position": []int{400, 0},
				"parameters": map[string]any{"jsCode": "const j = $input.first().json;\nreturn [{json: {...j, z: 1}}, {json: {...j, z: 2}}];"}},
			map[string]any{"name": "Check", "type": "n8n-nodes-base.set", "typeVersion": 1, "position": []int{600, 0},
				"parameters": map[string]any{"keepOnlySet": true, "values": map[string]any{"string": values}}},
		},
		"connections": map[string]any{
			"Start": map[string]any{"main": []any{[]any{map[string]any{"node": "Set", "type": "main", "index": 0}}}},
			"Set":   map[string]any{"main": []any{[]any{map[string]any{"node": "Code", "type": "main", "index": 0}}}},
			"Code":  map[string]any{"main": []any{[]any{map[string]any{"node": "Check", "type": "main", "index": 0}}}},
		},
	}
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	wf, err := workflow.Parse(b)
	require.NoError(t, err)
	return wf
}

// evaluateCall posts one evaluation and returns the status and the decoded data or error body.
func evaluateCall(t *testing.T, e *testEnv, body any) (int, map[string]any) {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	res, out := e.do(t, "POST", "rest/expressions/evaluate", string(b), "Content-Type", "application/json")
	var decoded map[string]any
	require.NoError(t, json.Unmarshal(out, &decoded), string(out))
	if res.StatusCode == 200 {
		return 200, decoded["data"].(map[string]any)
	}
	return res.StatusCode, decoded
}

func TestEvaluateExpressionGivesWhatTheEngineGives(t *testing.T) {
	t.Setenv("PREVIEW_PROBE", "probe-value")
	e := startServer(t, nil)
	wf := previewWorkflow(t)

	ev, err := expr.New(expr.Options{DefaultTimezone: e.cfg.Timezone})
	require.NoError(t, err)
	eng, err := engine.New(engine.Options{Registry: core.Registry(), Evaluator: ev, Env: config.NodeEnvironment()})
	require.NoError(t, err)
	res, err := eng.Run(context.Background(), engine.Request{Workflow: wf})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusSuccess, res.Status, "%+v", res.State.ResultData.Error)
	runData := res.State.ResultData.RunData
	checked := runData["Check"][0].Data.Main[0]
	require.Len(t, checked, 2)
	require.Equal(t, "Asia/Tokyo", checked[0].JSON.Get("zone"), "the workflow's time zone")
	require.Equal(t, "probe-value", checked[0].JSON.Get("env"))

	workflowData, err := json.Marshal(wf)
	require.NoError(t, err)
	beforeCheck := workflow.RunData{}
	for name, runs := range runData {
		if name != "Check" {
			beforeCheck[name] = runs
		}
	}
	// With the Check node's own run (its input is what fed that run) and without it (its input
	// comes from its parent through the connection), as before the node first ran.
	for label, rd := range map[string]workflow.RunData{"after": runData, "before": beforeCheck} {
		for item := range checked {
			for name, expression := range previewExpressions {
				status, got := evaluateCall(t, e, map[string]any{"workflowData": json.RawMessage(workflowData), "runData": rd,
					"nodeName": "Check", "expression": expression, "itemIndex": item})
				require.Equal(t, 200, status, "%s %s: %v", label, name, got)
				require.Equal(t, true, got["ok"], "%s %s item %d: %v", label, name, item, got)
				want, err := json.Marshal(checked[item].JSON.Get(name))
				require.NoError(t, err)
				gotValue, err := json.Marshal(got["value"])
				require.NoError(t, err)
				require.JSONEq(t, string(want), string(gotValue), "%s %s item %d", label, name, item)
			}
		}
	}

	// A parameter left at its default is resolved from the node's description.
	status, got := evaluateCall(t, e, map[string]any{"workflowData": json.RawMessage(workflowData), "runData": runData,
		"nodeName": "Set", "expression": `={{ $parameter.keepOnlySet }}`})
	require.Equal(t, 200, status)
	require.Equal(t, map[string]any{"ok": true, "value": false}, got)
	// $execution outside a run shows the placeholder.
	status, got = evaluateCall(t, e, map[string]any{"workflowData": json.RawMessage(workflowData), "nodeName": "Start",
		"expression": `={{ $execution.id }} {{ $json }}`})
	require.Equal(t, 200, status)
	require.Equal(t, map[string]any{"ok": true, "value": engine.PlaceholderFilledAtExecutionTime + " {}"}, got)
}

func TestEvaluateExpressionErrorsAndUndefined(t *testing.T) {
	e := startServer(t, nil)
	workflowData, err := json.Marshal(previewWorkflow(t))
	require.NoError(t, err)
	call := func(expression string) map[string]any {
		status, got := evaluateCall(t, e, map[string]any{"workflowData": json.RawMessage(workflowData), "nodeName": "Start", "expression": expression})
		require.Equal(t, 200, status, "%s: %v", expression, got)
		return got
	}
	notFound := func(expression string) {
		got := call(expression)
		require.Equal(t, false, got["ok"], expression)
		require.Equal(t, "notFound", got["kind"], expression)
	}
	invalid := func(expression, message string) {
		got := call(expression)
		require.Equal(t, false, got["ok"], expression)
		require.Equal(t, "invalid", got["kind"], expression)
		require.Contains(t, got["message"], message, expression)
	}
	notFound(`={{ $json.missing }}`)
	notFound(`={{ }}`)
	notFound(`={{ const a = 1; undefined }}`)
	require.Equal(t, map[string]any{"ok": true, "value": nil}, call(`={{ null }}`))
	require.Equal(t, map[string]any{"ok": true, "value": float64(2)}, call(`={{ const a = 1; a + 1 }}`))
	require.Equal(t, map[string]any{"ok": true, "value": "a  b"}, call(`=a {{ $json.missing }} b`), "text around a segment makes a string")
	require.Equal(t, map[string]any{"ok": true, "value": "NaN"}, call(`={{ 0/0 }}`))
	require.Equal(t, map[string]any{"ok": true, "value": "plain"}, call(`=plain`))
	invalid(`={{ foo( }}`, "SyntaxError")
	invalid(`={{ nothing.here }}`, "nothing is not defined")
	invalid(`={{ $node["Nowhere"].json }}`, "Referenced node doesn't exist")
	invalid(`={{ $json.x.y.z }}`, "Cannot read")
	invalid(`={{ (() => { while (true) {} })() }}`, "timed out")

	for _, tc := range []struct {
		body   string
		status int
		want   string
	}{
		{`{not json`, 400, "The body must be JSON"},
		{`{"nodeName":"Code","expression":"={{1}}"}`, 400, "workflowData is missing"},
		{fmt.Sprintf(`{"workflowData":%s,"expression":"={{1}}"}`, workflowData), 400, "nodeName is missing"},
		{fmt.Sprintf(`{"workflowData":%s,"nodeName":"Code"}`, workflowData), 400, "expression is missing"},
		{fmt.Sprintf(`{"workflowData":%s,"nodeName":"Code","expression":"{{1}}"}`, workflowData), 400, `must start with "="`},
		{fmt.Sprintf(`{"workflowData":%s,"nodeName":"Code","expression":"={{1}}","itemIndex":-1}`, workflowData), 400, "must not be negative"},
		{fmt.Sprintf(`{"workflowData":%s,"nodeName":"Ghost","expression":"={{1}}"}`, workflowData), 422, `The node "Ghost" does not exist`},
		{`{"workflowData":{"nodes":"many","connections":{}},"nodeName":"Code","expression":"={{1}}"}`, 422, ""},
	} {
		res, b := e.do(t, "POST", "rest/expressions/evaluate", tc.body, "Content-Type", "application/json")
		require.Equal(t, tc.status, res.StatusCode, "%s → %s", tc.body, b)
		var eb errorBody
		require.NoError(t, json.Unmarshal(b, &eb))
		require.Equal(t, tc.status, eb.Code)
		require.Contains(t, eb.Message, tc.want)
	}
}
