package expr

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestRunScriptConsole(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	type call struct {
		level string
		args  []any
	}
	var calls []call
	got, err := e.RunScript(t.Context(), `
		console.log("hello", {a: 1}, [1, 2]);
		console.warn(DateTime.fromISO("2024-01-05T10:00:00Z", {zone: "UTC"}));
		console.error(new Error("bad").message);
		console.info(undefined, null);
		return "done";
	`, nil, nil, func(level string, args []any) { calls = append(calls, call{level, args}) })
	require.NoError(t, err)
	require.Equal(t, "done", got)
	require.Equal(t, []call{
		{"log", []any{"hello", workflow.ObjectOf("a", int64(1)), []any{int64(1), int64(2)}}},
		{"warn", []any{"2024-01-05T10:00:00.000Z"}},
		{"error", []any{"bad"}},
		{"info", []any{nil, nil}},
	}, calls)

	// A nil onConsole discards the calls.
	_, err = e.RunScript(t.Context(), `console.log("x"); return 1`, nil, nil, nil)
	require.NoError(t, err)
}

// The Function node shape: items go in, the script changes them and returns them. The
// script works on copies, so the input items keep their data.
func TestRunScriptFunctionNodeMutation(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	items := []workflow.Item{
		{JSON: workflow.ObjectFromMap(map[string]any{"name": "a", "list": []any{1.0}}), PairedItem: paired(0)},
		{JSON: workflow.ObjectFromMap(map[string]any{"name": "b"})},
	}
	got, err := e.RunScript(t.Context(), `
		items[0].json.x = 1;
		items[0].json.list.push(2);
		items[0].json.nested = {};
		items[0].json.nested.y = true;
		items[1].json = {replaced: true};
		items.push({json: {name: "c"}});
		return items;
	`, nil, map[string]any{"items": items}, nil)
	require.NoError(t, err)
	require.Equal(t, []any{
		map[string]any{"json": map[string]any{"name": "a", "list": []any{1.0, int64(2)}, "x": int64(1), "nested": map[string]any{"y": true}}, "pairedItem": map[string]any{"item": int64(0)}},
		map[string]any{"json": map[string]any{"replaced": true}},
		map[string]any{"json": map[string]any{"name": "c"}},
	}, workflow.ToMaps(got))
	require.Equal(t, map[string]any{"name": "a", "list": []any{1.0}}, items[0].JSON.ToMap(), "input items are not changed")
	require.Equal(t, map[string]any{"name": "b"}, items[1].JSON.ToMap())
}

// The Code node's default template: change $input.all() in place, return it.
func TestRunScriptCodeNodeTemplate(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := fixtureContext()
	got, err := e.RunScript(t.Context(), `
		for (const item of $input.all()) {
			item.json.myNewField = 1;
		}
		$json.viaJson = $input.item === $input.all()[0];
		return $input.all();
	`, c, nil, nil)
	require.NoError(t, err)
	require.Len(t, got, 1)
	out := got.([]any)[0].(*workflow.Object)
	require.Equal(t, int64(1), out.Get("json").(*workflow.Object).Get("myNewField"))
	require.Equal(t, true, out.Get("json").(*workflow.Object).Get("viaJson"))
	require.False(t, c.Items[0].JSON.Has("myNewField"), "the execution's data is not changed")

	// Other nodes' data is copied too.
	_, err = e.RunScript(t.Context(), `$("Set").first().json.name = "changed"; $node["Set"].json.n = 99; return []`, c, nil, nil)
	require.NoError(t, err)
	require.Equal(t, "a", c.RunData["Set"][1].Data.Main[0][0].JSON.Get("name"))
	require.Equal(t, 1.0, c.RunData["Set"][1].Data.Main[0][0].JSON.Get("n"))
}

// Go maps given as globals are shared: what the script stores is in the map afterwards, as
// the Function node needs for $getWorkflowStaticData.
func TestRunScriptStaticData(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	static := map[string]any{"global": map[string]any{"count": 1.0}}
	getStatic := ScriptFunc(func(args []any) (any, error) {
		return static[args[0].(string)], nil
	})
	_, err := e.RunScript(t.Context(), `
		const data = $getWorkflowStaticData("global");
		data.count += 1;
		data.seen = ["a"];
		data.seen.push("b");
		data.at = DateTime.fromISO("2024-01-05T10:00:00Z", {zone: "UTC"});
		delete data.gone;
		return null;
	`, nil, map[string]any{"$getWorkflowStaticData": getStatic}, nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{"count": int64(2), "seen": []any{"a", "b"}, "at": "2024-01-05T10:00:00.000Z"}, static["global"])
}

func TestRunScriptScriptFuncError(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	fail := ScriptFunc(func([]any) (any, error) { return nil, &Error{Message: "no such thing"} })
	got, err := e.RunScript(t.Context(), `try { fail() } catch (e) { return e.message }`, nil, map[string]any{"fail": fail}, nil)
	require.NoError(t, err)
	require.Equal(t, "no such thing", got)
}

func TestRunScriptReturnValues(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	got, err := e.RunScript(t.Context(), `return {
		d: new Date(0), dt: DateTime.fromMillis(0, {zone: "UTC"}), u: undefined, f: () => 1,
		n: null, arr: [1, undefined, "s"], nested: {deep: [{x: 1.5}]}, big: 10n, nan: NaN,
	}`, nil, nil, nil)
	require.NoError(t, err)
	require.Equal(t, map[string]any{
		"d": "1970-01-01T00:00:00.000Z", "dt": "1970-01-01T00:00:00.000Z", "n": nil,
		"arr": []any{int64(1), nil, "s"}, "nested": map[string]any{"deep": []any{map[string]any{"x": 1.5}}},
		"big": "10", "nan": nil,
	}, workflow.ToMaps(got))
	// Members come out in the order the script wrote them.
	b, err := json.Marshal(got)
	require.NoError(t, err)
	require.Equal(t, `{"d":"1970-01-01T00:00:00.000Z","dt":"1970-01-01T00:00:00.000Z","n":null,`+
		`"arr":[1,null,"s"],"nested":{"deep":[{"x":1.5}]},"big":"10","nan":null}`, string(b))

	got, err = e.RunScript(t.Context(), `const x = await Promise.resolve(5); return x + 1`, nil, nil, nil)
	require.NoError(t, err)
	require.Equal(t, int64(6), got)

	_, err = e.RunScript(t.Context(), `await new Promise(() => {}); return 1`, nil, nil, nil)
	require.ErrorContains(t, err, "never settled")

	_, err = e.RunScript(t.Context(), `await Promise.reject(new TypeError("nope"))`, nil, nil, nil)
	require.ErrorContains(t, err, "TypeError: nope")

	_, err = e.RunScript(t.Context(), `const a = {}; a.self = a; return a`, nil, nil, nil)
	require.ErrorContains(t, err, "circular")
}

func TestRunScriptErrorsHaveLines(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	_, err := e.RunScript(t.Context(), "const a = 1;\nconst b = ;\nreturn a", nil, nil, nil)
	var ee *Error
	require.ErrorAs(t, err, &ee)
	require.Contains(t, ee.Message, "SyntaxError")
	require.Equal(t, 2, ee.Line)

	_, err = e.RunScript(t.Context(), "const a = 1;\n\nthrow new Error('boom')", nil, nil, nil)
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "Error: boom", ee.Message)
	require.Equal(t, 3, ee.Line)
	require.Equal(t, "Error: boom (line 3)", err.Error())

	_, err = e.RunScript(t.Context(), "return 1", nil, map[string]any{"not-an-identifier": 1}, nil)
	require.Error(t, err)
}

func TestRunScriptCancelledByContext(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	ctx, cancel := context.WithCancel(t.Context())
	start := time.Now()
	// The script tells us it is running, then loops; cancelling must stop it.
	_, err := e.RunScript(ctx, `console.log("started"); while (true) {}`, nil, nil, func(string, []any) { cancel() })
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorContains(t, err, "script was cancelled: context canceled")
	require.Less(t, time.Since(start), 5*time.Second)

	_, err = e.RunScript(ctx, `return 1`, nil, nil, nil)
	require.ErrorIs(t, err, context.Canceled, "an already cancelled context does not run the script")

	got, err := e.RunScript(t.Context(), `return 1`, nil, nil, nil)
	require.NoError(t, err)
	require.Equal(t, int64(1), got)
}

func TestRunScriptTimeout(t *testing.T) {
	t.Parallel()
	e, err := New(Options{ScriptTimeout: 50 * time.Millisecond})
	require.NoError(t, err)
	_, err = e.RunScript(t.Context(), `while (true) {}`, nil, nil, nil)
	require.ErrorIs(t, err, ErrTimeout)
	require.ErrorContains(t, err, "Script ran longer than 50ms")
}
