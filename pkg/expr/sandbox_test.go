package expr

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestSandboxHasNoHostAccess(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	for _, name := range []string{"require", "process", "fetch", "XMLHttpRequest", "setTimeout", "setInterval",
		"module", "exports", "__dirname", "Deno", "Bun", "WebSocket", "importScripts"} {
		got, err := e.Evaluate("={{ typeof "+name+" }}", fixtureContext())
		require.NoError(t, err)
		require.Equal(t, "undefined", got, name)

		got, err = e.RunScript(t.Context(), "return typeof "+name, nil, nil, nil)
		require.NoError(t, err)
		require.Equal(t, "undefined", got, name)
	}
	_, err := e.Evaluate(`={{ require("fs") }}`, nil)
	require.ErrorContains(t, err, "ReferenceError: require is not defined")
	_, err = e.Evaluate(`={{ import("fs") }}`, nil)
	require.Error(t, err)
}

func TestInfiniteLoopIsInterrupted(t *testing.T) {
	t.Parallel()
	e, err := New(Options{Timeout: 100 * time.Millisecond, PoolSize: 1})
	require.NoError(t, err)
	for _, expr := range []string{
		"={{ (()=>{while(true){}})() }}",
		"=text {{ (()=>{for(;;){}})() }}",
		"={{ ({toJSON() { while (true) {} }}) }}",                                  // while converting the result
		"={{ (() => { try { while(true){} } catch (e) { return 'caught' } })() }}", // not catchable
	} {
		start := time.Now()
		_, err := e.Evaluate(expr, nil)
		elapsed := time.Since(start)
		require.ErrorIs(t, err, ErrTimeout, expr)
		require.ErrorContains(t, err, "expression timed out after 100ms")
		require.Less(t, elapsed, time.Second, expr)

		// The pool replaces the interrupted runtime; the next evaluation is unaffected.
		got, err := e.Evaluate("={{ 1 + 1 }}", nil)
		require.NoError(t, err)
		require.Equal(t, int64(2), got)
	}
}

func TestRunawayRecursion(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	_, err := e.Evaluate("={{ (function f() { return f() })() }}", nil)
	require.ErrorContains(t, err, "RangeError: Maximum call stack size exceeded")
	got, err := e.Evaluate("={{ 2 }}", nil)
	require.NoError(t, err)
	require.Equal(t, int64(2), got)
}

// Nothing an expression or script does to the global object outlives it.
func TestNoLeaksBetweenEvaluations(t *testing.T) {
	t.Parallel()
	e, err := New(Options{PoolSize: 1})
	require.NoError(t, err)
	_, err = e.Evaluate("={{ globalThis.leak = 1 }}{{ leak2 = 2 }}", nil)
	require.NoError(t, err)
	_, err = e.Evaluate("={{ const leak3 = 3; var leak4 = 4; leak3 }}", nil)
	require.NoError(t, err)
	_, err = e.RunScript(t.Context(), "globalThis.leak5 = 5; leak6 = 6; return 1", nil, nil, nil)
	require.NoError(t, err)
	got, err := e.Evaluate("={{ [typeof leak, typeof leak2, typeof leak3, typeof leak4, typeof leak5, typeof leak6].join() }}", nil)
	require.NoError(t, err)
	require.Equal(t, "undefined,undefined,undefined,undefined,undefined,undefined", got)
}

func TestConcurrentEvaluations(t *testing.T) {
	t.Parallel()
	e, err := New(Options{PoolSize: 2})
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				c := &Context{Items: []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"g": float64(g), "i": float64(i)})}}, Timezone: "Europe/Berlin"}
				got, err := e.Evaluate("={{ $json.g * 1000 + $json.i }}", c)
				if err == nil && got != int64(g*1000+i) {
					err = &Error{Message: "wrong result"}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{{Timeout: -1}, {PoolSize: -1}, {CacheSize: -1}, {ScriptTimeout: -1}, {DefaultTimezone: "Nowhere/Special"}} {
		_, err := New(o)
		require.Error(t, err, "%+v", o)
	}
}

func TestTemplateCacheIsBounded(t *testing.T) {
	t.Parallel()
	e, err := New(Options{CacheSize: 3})
	require.NoError(t, err)
	for i := range 10 {
		_, err := e.Evaluate("={{ "+string(rune('0'+i))+" }}", nil)
		require.NoError(t, err)
	}
	require.Equal(t, 3, e.templates.len())
}
