package expr

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// liveHeap is the live heap after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// The memory tests do not run in parallel: the watchdog measures the whole process, and the
// heap has to settle before and after.

func TestScriptMemoryLimit(t *testing.T) {
	e, err := New(Options{MemoryLimit: 32 << 20, PoolSize: 1})
	require.NoError(t, err)
	before := liveHeap()
	for _, code := range []string{
		`let a = []; while (true) a.push("x".repeat(1e5) + a.length)`, // gradual: the watchdog
		`let s = "x"; while (true) s = s + s`,
		`return new Array(5e7).fill(1).length`, // one native call: the guards
		`return "x".repeat(2 ** 28).length`,
		`return Array(5e7).length`,
		`return Array.from({length: 5e7}).length`,
		`return [].fill.call({length: 5e7}, 1)`,
		`return new Array(1e7).join("abcdefgh").length`,
		`return "x".padStart(2 ** 28).length`,
		`return "x".padEnd(2 ** 28).length`,
		`return new Float64Array(1e8).length`,
		`return new ArrayBuffer(2 ** 30).byteLength`,
		`class A extends Array {}; return new A(5e7).length`,
		`try { return "x".repeat(2 ** 28).length } catch (e) { return "caught" }`, // not catchable
		`const a = []; a.length = 2 ** 31; return JSON.stringify(a).length`,       // sparse
		`let a = ["x"]; for (let i = 0; i < 40; i++) a = [a, a]; return JSON.stringify(a).length`,
		`let a = ["x"]; for (let i = 0; i < 40; i++) a = [a, a]; try { return JSON.stringify(a, null, 2) } catch (e) { return e.message }`,
		`const a = []; a.length = 2 ** 31; return Math.max.apply(null, a)`,
		`const a = []; a.length = 2 ** 31; return Reflect.apply(Math.max, null, a)`,
	} {
		_, err := e.RunScript(t.Context(), code, nil, nil, nil)
		require.ErrorIs(t, err, ErrMemory, code)
		require.ErrorContains(t, err, "Script used more than 32 MiB of memory", code)

		got, err := e.RunScript(t.Context(), "return [1, 2].join('-')", nil, nil, nil)
		require.NoError(t, err)
		require.Equal(t, "1-2", got)
	}
	require.Less(t, liveHeap(), before+32<<20, "the heap returns near where it was")
}

func TestExpressionMemoryLimit(t *testing.T) {
	e, err := New(Options{MemoryLimit: 32 << 20, Timeout: 10 * time.Second, PoolSize: 1})
	require.NoError(t, err)
	before := liveHeap()
	for _, expr := range []string{
		"={{ new Array(5e7).fill(1).length }}",
		"={{ 'x'.repeat(2**28).length }}",
		"={{ (() => { let a = []; while (true) a.push('y'.repeat(1e5) + a.length) })() }}",
	} {
		_, err := e.Evaluate(expr, nil)
		require.ErrorIs(t, err, ErrMemory, expr)
		require.ErrorContains(t, err, "Expression used more than 32 MiB of memory", expr)
	}
	require.Less(t, liveHeap(), before+32<<20, "the heap returns near where it was")
}

// Allocations within the budget, and the built-ins the guards wrap, behave as before.
func TestGuardedBuiltinsUnderTheBudget(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	for code, want := range map[string]any{
		`return new Array(3).fill(7).join("")`:                                                                       "777",
		`return Array(2, 3).concat(Array.of(4)).join()`:                                                              "2,3,4",
		`return new Array("a").length`:                                                                               int64(1),
		`return [] instanceof Array && [].constructor === Array`:                                                     true,
		`return Array.isArray(new Array(2)) && Array.name`:                                                           "Array",
		`return Array.from("abc", c => c + c).join("")`:                                                              "aabbcc",
		`return "ab".repeat(3) + "x".padStart(3, "-") + "y".padEnd(2)`:                                               "ababab--xy ",
		`return "a".concat("b", 1)`:                                                                                  "ab1",
		`return new Uint8Array([1, 2, 3]).length + new Float64Array(new ArrayBuffer(16)).length`:                     int64(5),
		`class A extends Array { sum() { return this.reduce((a, b) => a + b, 0) } }; return A.from([1, 2, 3]).sum()`: int64(6),
		`return [1, [2, 3]].toString() + String([4, 5])`:                                                             "1,2,34,5",
		`return [1, 2, 3].map(x => x * 2).filter(x => x > 2).length`:                                                 int64(2),
		`return JSON.stringify({a: [1, "x"], b: {c: null}}, null, 1).length`:                                         int64(49),
		`return JSON.stringify({a: 1, b: 2}, (k, v) => k === "a" ? undefined : v)`:                                   `{"b":2}`,
		`return JSON.stringify({a: 1, b: 2, c: {a: 3}}, ["a", "c"])`:                                                 `{"a":1,"c":{"a":3}}`,
		`return JSON.stringify({toJSON() { return [1] }})`:                                                           "[1]",
		`return JSON.stringify(undefined) === undefined && Math.max.apply(null, [1, 3, 2])`:                          int64(3),
		`return new Array(1e5).fill(0).length`:                                                                       int64(100000),
	} {
		got, err := e.RunScript(t.Context(), code, nil, nil, nil)
		require.NoError(t, err, code)
		require.Equal(t, want, got, code)
	}
}

// Arrays made by map, filter and slice are plain arrays, and subclasses keep their species.
func TestArraySpecies(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	got, err := e.RunScript(t.Context(), `
		class A extends Array {}
		const a = A.from([1, 2, 3]);
		const m = [1, 2].map(x => x);
		return [m.constructor === Array, m instanceof Array, Array.isArray(m),
			a.map(x => x) instanceof A, a.filter(x => x > 1).length, A[Symbol.species] === A]`, nil, nil, nil)
	require.NoError(t, err)
	require.Equal(t, []any{true, true, true, true, int64(2), true}, got)
}
