package expr

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// maxCallStackSize bounds JavaScript recursion so runaway recursion fails with a RangeError
// instead of exhausting memory.
const maxCallStackSize = 4096

// vm is one prepared JavaScript runtime: Luxon loaded, Intl polyfilled, the expression
// globals installed as accessors that read the scope of the evaluation in progress. A vm is
// used by one goroutine at a time and lives in the Evaluator's pool between uses.
type vm struct {
	ev    *Evaluator
	rt    *goja.Runtime
	timer *time.Timer // interrupts rt when the time limit passes
	timed *atomic.Pointer[vm]
	limit time.Duration // the limit the timer was armed with
	what  string        // what runs under it: "expression" or "script"

	// memMu guards what the memory watchdog reads and writes: whether an evaluation is in
	// progress, the heap when it began, and the interrupt that stopped it for memory (set by
	// the watchdog or a built-in guard; nil while it runs within budget).
	memMu    sync.Mutex
	watched  bool
	memStart uint64
	memStop  *interrupt

	scope *scope // the evaluation in progress; nil while idle
	depth int    // nesting of evaluations ($parameter and $evaluateExpression evaluate too)

	zone string // Luxon's Settings.defaultZone as last set

	stringify      goja.Callable // JSON.stringify
	setDefaultZone goja.Callable
	luxonNow       goja.Callable // () => DateTime.now()
	luxonToday     goja.Callable // () => DateTime.now().startOf("day")
	objectProto    *goja.Object
}

func (e *Evaluator) newVM() (*vm, error) {
	rt := goja.New()
	rt.SetMaxCallStackSize(maxCallStackSize)
	v := &vm{ev: e, rt: rt}
	// The timer reaches the runtime through timed, which release clears: a stopped timer can
	// stay in the runtime's timer heap for a while, and must not keep a dropped runtime's
	// memory alive.
	timed := new(atomic.Pointer[vm])
	timed.Store(v)
	v.timed = timed
	v.timer = time.AfterFunc(time.Hour, func() {
		if t := timed.Load(); t != nil {
			t.rt.Interrupt(&interrupt{cause: ErrTimeout, limit: t.limit, what: t.what})
		}
	})
	v.timer.Stop()

	if err := installIntl(rt); err != nil {
		return nil, fmt.Errorf("install Intl: %w", err)
	}
	luxon, err := luxonProgram()
	if err != nil {
		return nil, fmt.Errorf("compile luxon: %w", err)
	}
	if _, err := rt.RunProgram(luxon); err != nil {
		return nil, fmt.Errorf("load luxon: %w", err)
	}
	if _, err := rt.RunProgram(preludeProgram); err != nil {
		return nil, fmt.Errorf("run prelude: %w", err)
	}
	if err := v.bindPrelude(); err != nil {
		return nil, err
	}
	v.installGlobals()
	if err := v.installGuards(); err != nil {
		return nil, fmt.Errorf("install guards: %w", err)
	}
	// Expressions and scripts may not leave globals behind for the next evaluation.
	if _, err := rt.RunString("Object.preventExtensions(globalThis)"); err != nil {
		return nil, fmt.Errorf("seal globals: %w", err)
	}
	return v, nil
}

// preludeProgram runs once per runtime after Luxon: it exposes Luxon's classes and keeps the
// helpers the Go side needs out of reach of expressions.
var preludeProgram = goja.MustCompile("prelude.js", `
var DateTime = luxon.DateTime, Duration = luxon.Duration, Interval = luxon.Interval;
(function (g) {
	var Settings = luxon.Settings;
	Object.defineProperty(g, "__flowmill", { configurable: true, value: {
		stringify: JSON.stringify,
		setDefaultZone: function (z) { Settings.defaultZone = z; },
		now: function () { return DateTime.now(); },
		today: function () { return DateTime.now().startOf("day"); }
	}});
})(globalThis);
`, false)

func (v *vm) bindPrelude() error {
	h := v.rt.Get("__flowmill").ToObject(v.rt)
	fn := func(name string) (goja.Callable, error) {
		f, ok := goja.AssertFunction(h.Get(name))
		if !ok {
			return nil, fmt.Errorf("prelude: %s is not a function", name)
		}
		return f, nil
	}
	var err error
	if v.stringify, err = fn("stringify"); err != nil {
		return err
	}
	if v.setDefaultZone, err = fn("setDefaultZone"); err != nil {
		return err
	}
	if v.luxonNow, err = fn("now"); err != nil {
		return err
	}
	if v.luxonToday, err = fn("today"); err != nil {
		return err
	}
	// The helper object must not be reachable from user code.
	return v.rt.GlobalObject().Delete("__flowmill")
}

// useZone sets Luxon's default zone, so DateTime.now() and DateTime.fromISO() in expressions
// use the workflow's time zone as in n8n.
func (v *vm) useZone(zone string) error {
	if zone == v.zone {
		return nil
	}
	if _, err := v.setDefaultZone(goja.Undefined(), v.rt.ToValue(zone)); err != nil {
		return err
	}
	v.zone = zone
	return nil
}

// startTimer arms the time limit of a top-level evaluation or script (what names it in the
// error); a zero limit means none.
func (v *vm) startTimer(limit time.Duration, what string) {
	v.limit, v.what = limit, what
	if limit > 0 {
		v.timer.Reset(limit)
	}
}

// stopTimer disarms the limit and reports whether the runtime may still carry an interrupt
// (the timer fired), in which case it must not be reused.
func (v *vm) stopTimer() (clean bool) {
	if v.limit <= 0 {
		return true
	}
	return v.timer.Stop()
}
