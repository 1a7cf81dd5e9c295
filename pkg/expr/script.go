package expr

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// ScriptFunc is a Go function a script can call, passed to RunScript as a global. Its
// arguments arrive converted like a script's return value (plain Go data; maps and slices
// that came from Go come back as themselves); its result is shown to the script like any
// global (maps and slices shared, so the script's writes land in them); a returned error is
// thrown in the script as an Error with the error's message.
//
// The Function node's $getWorkflowStaticData("global") is one: it returns the static-data
// map, and whatever the script stores in it is in that map when RunScript returns.
type ScriptFunc func(args []any) (any, error)

// ConsoleFunc receives console.log/info/warn/error/debug calls of a script: level is the
// method name, args the arguments converted to Go (values that cannot be converted are
// passed as their string form).
type ConsoleFunc func(level string, args []any)

var typePromise = reflect.TypeOf((*goja.Promise)(nil))

var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// compiledScript is a script wrapped in a function taking its globals as parameters.
type compiledScript struct {
	prg *goja.Program
	err error
}

// RunScript runs JavaScript code as the body of a function and returns its return value,
// converted to Go as Evaluate converts a lone segment (objects map[string]any, arrays []any,
// Dates and Luxon values ISO strings, undefined nil). Code that uses await runs as an async
// function body; its promise must settle without timers or I/O, which the sandbox lacks.
//
// The script sees the expression globals of c ($input, $json, $node, $(), $items(), …, on
// copies of the execution's data, as n8n's scripting nodes do; c may be nil), the Luxon
// classes, a console whose calls go to onConsole (nil discards them), and globals, which
// shadow everything else. A global's value is shown as follows: []workflow.Item as an array
// of n8n items ({json, binary, pairedItem}) built on copies of the items; map[string]any and
// []any wrapped without copying, so the script reads them and its writes land in them (pass
// copies when that must not happen); a ScriptFunc as a function; other values as data. Global
// names must be JavaScript identifiers.
//
// The run stops with an *Error when ctx is done or, if Options.ScriptTimeout is set, when it
// passes; use context.WithTimeout for a per-call limit. Mutations of Go maps made by a
// stopped script stay made.
func (e *Evaluator) RunScript(ctx context.Context, code string, c *Context, globals map[string]any, onConsole ConsoleFunc) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Message: "script was cancelled: " + err.Error(), cause: err}
	}
	names := make([]string, 0, len(globals)+1)
	names = append(names, "console")
	for name := range globals {
		if !identifier.MatchString(name) || name == "console" {
			return nil, fmt.Errorf("expr: script global %q is not a JavaScript identifier (or is console)", name)
		}
		names = append(names, name)
	}
	slices.Sort(names[1:])

	cs := e.scripts.get(strings.Join(names, ",")+"\x00"+code, compileScript)
	if cs.err != nil {
		return nil, toScriptError(cs.err)
	}
	v, err := e.get()
	if err != nil {
		return nil, &Error{Message: err.Error()}
	}
	out, err, reusable := v.runScript(ctx, cs.prg, c, names, globals, onConsole, e.opts.ScriptTimeout)
	e.release(v, reusable)
	return out, err
}

// scriptHeaderLines is how many lines compileScript puts before the code; errors report lines
// of the code itself.
const scriptHeaderLines = 1

func compileScript(key string) compiledScript {
	names, code, _ := strings.Cut(key, "\x00")
	wrap := func(prefix string) (*goja.Program, error) {
		return goja.Compile("script", "("+prefix+"function ("+names+") {\n"+code+"\n})", false)
	}
	prg, err := wrap("")
	if err != nil && strings.Contains(code, "await") {
		if prg2, err2 := wrap("async "); err2 == nil {
			return compiledScript{prg: prg2}
		}
	}
	return compiledScript{prg: prg, err: err}
}

func (v *vm) runScript(ctx context.Context, prg *goja.Program, c *Context, names []string, globals map[string]any,
	onConsole ConsoleFunc, limit time.Duration) (out any, err error, reusable bool) {
	stopCtx := context.AfterFunc(ctx, func() {
		v.rt.Interrupt(&interrupt{cause: context.Cause(ctx), what: "script"})
	})
	defer func() {
		if r := recover(); r != nil {
			out, err, reusable = nil, &Error{Message: fmt.Sprintf("internal error while running the script: %v", r),
				cause: fmt.Errorf("panic: %v\n%s", r, debug.Stack())}, false
		}
		v.scope, v.depth = nil, 0
		clean := v.stopTimer()
		if !stopCtx() && ctx.Err() != nil {
			clean = false
		}
		if stop := v.endWatch(); stop != nil {
			out, err, clean = nil, stop, false
		}
		if !clean {
			v.rt.ClearInterrupt()
			reusable = false
		}
	}()

	v.scope = v.newScope(c, true)
	v.startTimer(limit, "script")
	v.beginWatch()

	fnVal, err := v.rt.RunProgram(prg)
	if err != nil {
		return nil, toScriptError(err), true
	}
	fn, _ := goja.AssertFunction(fnVal)
	args := make([]goja.Value, len(names))
	args[0] = v.newConsole(onConsole)
	for i, name := range names[1:] {
		args[i+1] = v.scriptGlobal(globals[name])
	}
	res, err := fn(goja.Undefined(), args...)
	if err != nil {
		return nil, toScriptError(err), true
	}
	if obj, ok := res.(*goja.Object); ok && obj.ExportType() == typePromise {
		p := obj.Export().(*goja.Promise)
		switch p.State() {
		case goja.PromiseStateFulfilled:
			res = p.Result()
		case goja.PromiseStateRejected:
			e := &Error{Message: valueMessage(p.Result())}
			e.Line, e.Column = stackPosition(p.Result())
			return nil, e, true
		default:
			return nil, &Error{Message: "the script's promise never settled (timers and network calls are not available)"}, true
		}
	}
	out, err = v.exportTop(res, false)
	if err != nil {
		return nil, toScriptError(err), true
	}
	return out, nil, true
}

// scriptGlobal converts one RunScript global.
func (v *vm) scriptGlobal(x any) goja.Value {
	switch x := x.(type) {
	case []workflow.Item:
		return v.newCopyingItemList(x).obj
	case ScriptFunc:
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			args := make([]any, len(call.Arguments))
			for i, a := range call.Arguments {
				e, err := v.export(a)
				if err != nil {
					v.throw(err)
				}
				args[i] = e
			}
			r, err := x(args)
			if err != nil {
				v.throw(err)
			}
			return v.toJS(r)
		})
	}
	return v.toJS(x)
}

// newConsole builds the console object of one script run.
func (v *vm) newConsole(onConsole ConsoleFunc) goja.Value {
	con := v.rt.NewObject()
	for _, level := range []string{"log", "info", "warn", "error", "debug"} {
		_ = con.Set(level, func(call goja.FunctionCall) goja.Value {
			if onConsole == nil {
				return goja.Undefined()
			}
			args := make([]any, len(call.Arguments))
			for i, a := range call.Arguments {
				e, err := v.export(a)
				if err != nil {
					e = a.String()
				}
				args[i] = e
			}
			onConsole(level, args)
			return goja.Undefined()
		})
	}
	return con
}

// toScriptError is toError with line numbers made relative to the script's code.
func toScriptError(err error) *Error {
	e := toError(err, "")
	if e.Line > scriptHeaderLines {
		e.Line -= scriptHeaderLines
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if st := ex.Stack(); len(st) > 0 && st[0].SrcName() != "script" {
			e.Line, e.Column = 0, 0
		}
	}
	return e
}

// scriptFrame finds a position in the script's code in an Error's stack ("at script:4:7(3)").
var scriptFrame = regexp.MustCompile(`\bscript:(\d+):(\d+)`)

// stackPosition is where a rejected Error was created, read from its stack, as an async
// script's rejection carries no Go-side stack; 0, 0 when unknown.
func stackPosition(v goja.Value) (line, col int) {
	obj, ok := v.(*goja.Object)
	if !ok {
		return 0, 0
	}
	st := obj.Get("stack")
	if st == nil || goja.IsUndefined(st) {
		return 0, 0
	}
	m := scriptFrame.FindStringSubmatch(st.String())
	if m == nil {
		return 0, 0
	}
	line, _ = strconv.Atoi(m[1])
	col, _ = strconv.Atoi(m[2])
	if line <= scriptHeaderLines {
		return 0, 0
	}
	return line - scriptHeaderLines, col
}
