package code_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/code"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

const each = "runOnceForEachItem"

func params(mode, js string) m {
	p := m{"jsCode": js}
	if mode != "" {
		p["mode"] = mode
	}
	return p
}

func TestCode(t *testing.T) {
	t.Parallel()
	two := func() []workflow.Item { return nodetest.Items(m{"value": 1.0}, m{"value": 2.0}) }
	tests := []struct {
		name    string
		mode    string
		js      string
		input   []workflow.Item
		want    []m
		wantErr string
	}{
		{"plain objects are wrapped", "", `return [{value: 1}, {value: 2}]`, two(),
			[]m{{"value": int64(1)}, {"value": int64(2)}}, ""},
		{"sum over $input.all()", "", "let sum = 0;\nfor (const item of $input.all()) {\n  sum += item.json.value;\n}\nreturn [{sum}];",
			two(), []m{{"sum": int64(3)}}, ""},
		{"items global is $input.all()", "", `return [{same: items === $input.all(), n: items.length}]`, two(),
			[]m{{"same": true, "n": int64(2)}}, ""},
		{"items can be redeclared", "", `const items = [{a: 1}]; return items`, two(), []m{{"a": int64(1)}}, ""},
		{"a lone object is one item", "", `return {a: 1}`, two(), []m{{"a": int64(1)}}, ""},
		{"a lone item keeps its json", "", `return {json: {a: 1}}`, two(), []m{{"a": int64(1)}}, ""},
		{"n8n items are kept", "", `return [{json: {a: 1}}, {json: {b: 2}, pairedItem: {item: 1}}]`, two(),
			[]m{{"a": int64(1)}, {"b": int64(2)}}, ""},
		{"returned input items are copies", "", `for (const it of $input.all()) it.json.x = true; return $input.all()`, two(),
			[]m{{"value": 1.0, "x": true}, {"value": 2.0, "x": true}}, ""},
		{"null is no items", "", `return null`, two(), []m{}, ""},
		{"empty array is no items", "", `return []`, two(), []m{}, ""},
		{"no return fails", "", `const a = 1;`, two(), nil, "Code doesn't return items properly"},
		{"a string fails", "", `return "x"`, two(), nil, "Code doesn't return items properly"},
		{"mixed item shapes fail", "", `return [{json: {}}, {a: 1}]`, two(), nil, "Unknown top-level item key: a"},
		{"json must be an object", "", `return [{json: 1}]`, two(), nil, "A 'json' property isn't an object"},
		{"binary must be an object", "", `return [{json: {}, binary: "x"}]`, two(), nil, "A 'binary' property isn't an object"},
		{"binary-only items get the rest as json", "", `return [{binary: {}}]`, two(), []m{{}}, ""},
		{"primitives are not items", "", `return [1]`, two(), nil, "A 'json' property isn't an object [item 0]"},
		{"a result nested 2,000 deep fails", "", "let o = {}; const top = o;\nfor (let i = 0; i < 2000; i++) { o.a = {}; o = o.a }\nreturn [{json: top}]",
			two(), nil, "Converting circular structure to JSON, or the nesting is deeper than 1,000 levels"},
		{"nesting grown inside input data fails", "", "let o = $input.first().json;\nfor (let i = 0; i < 2000; i++) { o.a = {}; o = o.a }\nreturn $input.all()",
			two(), nil, "Converting circular structure to JSON, or the nesting is deeper than 1,000 levels"},
		{"data referring to itself fails", "", "const j = $input.first().json; j.self = j; return $input.all()",
			two(), nil, "Converting circular structure to JSON, or the nesting is deeper than 1,000 levels"},
		{"$json is per item only", "", "// $json in a comment\nreturn [{a: $json.value}]", two(), nil,
			"Can't use $json here [line 2]"},
		{"commented per-item syntax is allowed", "", "// uses $json\nreturn []", two(), []m{}, ""},
		{"itemMatching is allowed", "", "const x = $input.itemMatching;\nreturn []", two(), []m{}, ""},
		{"thrown errors keep their line", "", "const a = 1;\n\nthrow new Error('boom')", two(), nil, "boom [line 3]"},
		{"reference errors", "", "\nreturn [{a: nope}]", two(), nil, "nope is not defined [line 2]"},
		{"await works", "", `const v = await Promise.resolve(5); return [{v}]`, two(), []m{{"v": int64(5)}}, ""},
		{"luxon and $jmespath", "", `return [{y: DateTime.fromISO("2024-05-01").year, j: $jmespath({a: {b: 2}}, "a.b")}]`, two(),
			[]m{{"y": int64(2024), "j": int64(2)}}, ""},
		{"dates become ISO strings", "", `return [{d: new Date(0)}]`, two(), []m{{"d": "1970-01-01T00:00:00.000Z"}}, ""},

		{"each: change and return $input.item", each, "$input.item.json.myNewField = $input.item.json.value;\nreturn $input.item;",
			two(), []m{{"value": 1.0, "myNewField": 1.0}, {"value": 2.0, "myNewField": 2.0}}, ""},
		{"each: item global is $input.item", each, `item.json.same = item === $input.item; return item`, two(),
			[]m{{"value": 1.0, "same": true}, {"value": 2.0, "same": true}}, ""},
		{"each: plain object is wrapped", each, `return {double: $json.value * 2, i: $itemIndex}`, two(),
			[]m{{"double": int64(2), "i": int64(0)}, {"double": int64(4), "i": int64(1)}}, ""},
		{"each: null drops the item", each, `return $json.value === 1 ? null : $json`, two(), []m{{"value": 2.0}}, ""},
		{"each: no return fails", each, `$json.a = 1`, two(), nil,
			"Code doesn't return an object [item 0]"},
		{"each: a number fails", each, `return 5`, two(), nil, "Code doesn't return an object [item 0]"},
		{"each: arrays fail", each, `return [$json]`, two(), nil, "Code doesn't return a single object [item 0]"},
		{"each: unknown top-level key", each, `return {json: {}, extra: 1}`, two(), nil, "Unknown top-level item key: extra [item 0]"},
		{"each: $input.all() is not allowed", each, "const x = 1;\nreturn $input.all()[0]", two(), nil,
			"Can't use .all() here [line 2, for item 0]"},
		{"each: errors name the item", each, "if ($json.value === 2) {\n  throw new TypeError('bad')\n}\nreturn $json", two(), nil,
			"bad [line 2, for item 1]"},
		{"empty input gives no items", "", `return [{a: 1}]`, nil, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.input == nil {
				// The engine skips action nodes without input; run it anyway with none.
				tc.input = []workflow.Item{}
				tc.want = []m{{"a": int64(1)}}
			}
			out, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params(tc.mode, tc.js)}, tc.input)
			if tc.wantErr != "" {
				require.Error(t, err)
				require.Equal(t, tc.wantErr, err.Error())
				return
			}
			require.NoError(t, err)
			require.Len(t, out, 1)
			nodetest.RequireJSONs(t, tc.want, out[0])
		})
	}
}

func TestCodeErrorDetails(t *testing.T) {
	t.Parallel()
	_, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params("", "\nnull.x")}, nodetest.Items(m{}))
	ne := nodetest.NodeError(t, err)
	require.Equal(t, "TypeError", ne.Description)
	require.Contains(t, ne.Message, "[line 2]")

	_, err = nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params("", "return [{json: 1}]")}, nodetest.Items(m{}))
	ne = nodetest.NodeError(t, err)
	require.Equal(t, "In the returned data, every key named 'json' must point to an object", ne.Description)
}

func TestCodeContinueOnFail(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params("", `throw new Error("boom")`), ContinueOnFail: true},
		nodetest.Items(m{"a": 1.0}, m{"a": 2.0}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "boom [line 1]"}}, nodetest.JSONs(out[0]))

	js := "if ($json.a === 1) throw new Error('first');\nreturn $json"
	out, err = nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params(each, js), ContinueOnFail: true},
		nodetest.Items(m{"a": 1.0}, m{"a": 2.0}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "first [line 1, for item 0]"}, {"a": 2.0}}, nodetest.JSONs(out[0]))
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)
}

func TestCodeDoesNotChangeInput(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"nested": m{"a": 1.0}})
	for _, mode := range []string{"", each} {
		js := "for (const it of [$input.first ? $input.first() : null].filter(Boolean)) it.json.nested.a = 2; return []"
		if mode == each {
			js = "item.json.nested.a = 2; $json.nested.b = 3; return item"
		}
		_, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params(mode, js)}, in)
		require.NoError(t, err)
		require.Equal(t, m{"a": 1.0}, workflow.ToMaps(in[0].JSON.Get("nested")))
	}
}

func TestCodeStaticData(t *testing.T) {
	t.Parallel()
	js := `const d = $getWorkflowStaticData("node"); d.count = (d.count || 0) + 1; return [{count: d.count}]`
	ex, run := execution(t, params("", js), nodetest.Items(m{}), nil)
	out, err := run(context.Background())
	require.NoError(t, err)
	require.Equal(t, int64(1), out[0][0].JSON.Get("count"))
	sd, used := ex.StaticDataUsed()
	require.True(t, used)
	require.Equal(t, int64(1), sd["count"])

	_, run = execution(t, params("", `$getWorkflowStaticData("nope")`), nodetest.Items(m{}), nil)
	_, err = run(context.Background())
	require.ErrorContains(t, err, `The context type "nope" is not know`)
}

func TestCodeConsole(t *testing.T) {
	t.Parallel()
	var got [][]any
	_, run := execution(t, params(each, `console.log("item", $itemIndex, {a: 1}); return $json`),
		nodetest.Items(m{}, m{}), func(level string, args []any) {
			require.Equal(t, "log", level)
			got = append(got, args)
		})
	_, err := run(context.Background())
	require.NoError(t, err)
	for i := range got {
		got[i] = workflow.ToMaps(got[i]).([]any)
	}
	require.Equal(t, [][]any{{"item", int64(0), m{"a": int64(1)}}, {"item", int64(1), m{"a": int64(1)}}}, got)
}

// A busy script stops when the run is cancelled: the script signals through console.log that
// it is running, the test cancels, and the node returns the cancellation.
func TestCodeCancellationInterruptsBusyLoop(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, run := execution(t, params("", `console.log("started"); while (true) {}`), nodetest.Items(m{}),
		func(string, []any) { cancel() })
	start := time.Now()
	_, err := run(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(start), 10*time.Second)
}

// execution builds a node run with a console hook, for what nodetest.Run does not expose.
func execution(t *testing.T, p m, input []workflow.Item, console func(string, []any)) (
	*nodes.Execution, func(context.Context) ([][]workflow.Item, error),
) {
	t.Helper()
	typ := code.Type()
	resolved, err := workflow.ResolveParameters(typ.Description.Properties, p, 1)
	require.NoError(t, err)
	ex := nodes.NewExecution(nodes.ExecutionConfig{
		Node:      &workflow.Node{Name: "Code", Type: typ.Description.Name, TypeVersion: 1, Parameters: resolved},
		Type:      &typ,
		Inputs:    [][]workflow.Item{input},
		Mode:      "manual",
		Evaluator: nodetest.Evaluator(t),
		Console:   console,
	})
	return ex, func(ctx context.Context) ([][]workflow.Item, error) { return typ.Node.Execute(ctx, ex) }
}

func TestCodeAsyncErrorLine(t *testing.T) {
	t.Parallel()
	js := "const v = await Promise.resolve(1);\nthrow new Error('late')"
	_, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: params("", js)}, nodetest.Items(m{}))
	require.EqualError(t, err, "late [line 2]")
}

// A Code node added in the editor starts with n8n's example code, which adds myNewField to each item.
func TestCodeDefaultExample(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, code.Type(), nodetest.Node{Parameters: m{}}, nodetest.Items(m{"value": 1.0}, m{"value": 2.0}))
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"value": 1.0, "myNewField": int64(1)}, {"value": 2.0, "myNewField": int64(1)}}, out[0])
}

// Versions 1 and 2 run JavaScript the same way; version 2's Python is refused with a message,
// never run as the hidden JavaScript default.
func TestCodeVersions(t *testing.T) {
	t.Parallel()
	require.Equal(t, nodes.Versions{1, 2}, code.Type().Description.Version)
	require.Equal(t, 2.0, code.Type().Description.DefaultVersion)
	input := func() []workflow.Item { return nodetest.Items(m{"value": 1.0}) }
	for _, version := range []float64{1, 2} {
		out, err := nodetest.Run(t, code.Type(), nodetest.Node{Version: version, Parameters: params("", `return [{v: $input.first().json.value + 1}]`)}, input())
		require.NoError(t, err, "version %g", version)
		nodetest.RequireJSONs(t, []m{{"v": 2.0}}, out[0])
	}
	out, err := nodetest.Run(t, code.Type(), nodetest.Node{Version: 2, Parameters: m{"language": "javaScript", "jsCode": `return [{js: true}]`}}, input())
	require.NoError(t, err)
	nodetest.RequireJSONs(t, []m{{"js": true}}, out[0])

	_, err = nodetest.Run(t, code.Type(), nodetest.Node{Version: 2, Parameters: m{"language": "python", "pythonCode": "return _input.all()"}}, input())
	require.EqualError(t, err, `The Code node's language "python" is not supported: Flowmill runs JavaScript only; rewrite the code in JavaScript`)
}
