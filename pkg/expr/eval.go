package expr

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// maxNesting bounds evaluations started from inside an evaluation ($parameter values that
// are expressions themselves, $evaluateExpression), so a parameter referring to itself fails
// instead of recursing forever.
const maxNesting = 16

// evaluateTop evaluates a template for one Evaluate call: it binds c, arms the time limit and
// converts the result to Go. reusable is false when the runtime must not go back to the pool
// (it was interrupted or a Go panic went through it).
func (v *vm) evaluateTop(t *compiledTemplate, expression string, c *Context, limit time.Duration) (out any, err error, reusable bool) {
	defer func() {
		if r := recover(); r != nil {
			v.scope, v.depth = nil, 0
			v.stopTimer()
			v.endWatch()
			out, err, reusable = nil, &Error{
				Message:    fmt.Sprintf("internal error while evaluating: %v", r),
				Expression: expression,
				cause:      fmt.Errorf("panic: %v\n%s", r, debug.Stack()),
			}, false
		}
	}()

	v.scope = v.newScope(c, false)
	v.startTimer(limit, "expression")
	v.beginWatch()
	val, err := v.evalTemplateValue(t)
	if _, isFn := goja.AssertFunction(val); err == nil && isFn && t.lone {
		err = &Error{Message: `Expression resolved to a function. Please add "()"`}
	} else if err == nil && t.lone {
		out, err = v.exportTop(val, true)
	} else if err == nil {
		out = val.String()
	}
	clean := v.stopTimer()
	if stop := v.endWatch(); stop != nil {
		out, err, clean = nil, stop, false
	}
	v.scope = nil
	if !clean {
		v.rt.ClearInterrupt()
	}
	if err != nil {
		return nil, toError(err, expression), clean
	}
	return out, nil, clean
}

// newScope makes the top-level scope of an evaluation or script and points Luxon at its
// time zone. copyData is set for scripts.
func (v *vm) newScope(c *Context, copyData bool) *scope {
	zone := v.ev.opts.DefaultTimezone
	if c != nil && c.Timezone != "" {
		zone = c.Timezone
	}
	if err := v.useZone(zone); err != nil {
		panic(err)
	}
	if c == nil {
		return newScope(nil, 0, copyData)
	}
	return newScope(c, c.ItemIndex, copyData)
}

// evalTemplateValue evaluates a compiled template in the current scope. A lone segment gives
// its value; anything else gives a string.
func (v *vm) evalTemplateValue(t *compiledTemplate) (goja.Value, error) {
	if t.static {
		return v.rt.ToValue(t.text), nil
	}
	if t.lone {
		for _, p := range t.parts {
			if p.code {
				return v.runPart(p)
			}
		}
	}
	var b strings.Builder
	for _, p := range t.parts {
		if !p.code {
			b.WriteString(p.text)
			continue
		}
		val, err := v.runPart(p)
		if err != nil {
			return nil, err
		}
		s, err := v.toText(val)
		if err != nil {
			return nil, err
		}
		b.WriteString(s)
	}
	return v.rt.ToValue(b.String()), nil
}

func (v *vm) runPart(p compiledPart) (goja.Value, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.prg == nil {
		return goja.Undefined(), nil
	}
	val, err := v.rt.RunProgram(p.prg)
	if err != nil && (v.ev.opts.LenientErrors || v.scope != nil && v.scope.c != nil && v.scope.c.Lenient) && lenient(err) {
		return goja.Undefined(), nil
	}
	return val, err
}

// toText renders a segment's value inside mixed text: null and undefined as "", plain objects
// and arrays as JSON, anything else (Dates, Luxon DateTimes, numbers) by its toString.
func (v *vm) toText(val goja.Value) (string, error) {
	if val == nil || goja.IsUndefined(val) || goja.IsNull(val) {
		return "", nil
	}
	obj, ok := val.(*goja.Object)
	if !ok {
		return val.String(), nil
	}
	if _, isFn := goja.AssertFunction(obj); !isFn {
		if proto := obj.Prototype(); proto == nil || proto == v.objectProto || obj.ClassName() == "Array" {
			s, err := v.stringify(goja.Undefined(), obj)
			if err != nil {
				return "", err
			}
			if goja.IsUndefined(s) {
				return "", nil
			}
			return s.String(), nil
		}
	}
	var out string
	err := v.try(func() { out = obj.String() })
	return out, err
}

// try runs f, turning a JavaScript exception thrown inside it into an error.
func (v *vm) try(f func()) error {
	if ex := v.rt.Try(f); ex != nil {
		return ex
	}
	return nil
}

// evalNested evaluates an expression from inside a running evaluation, in scope s (a
// $parameter value that is itself an expression, or $evaluateExpression). It shares the time
// limit of the evaluation in progress. Errors are thrown into JavaScript.
func (v *vm) evalNested(expression string, s *scope) goja.Value {
	if !strings.HasPrefix(expression, "=") {
		return v.rt.ToValue(expression)
	}
	if v.depth >= maxNesting {
		v.throwFatal(newDataError("", "Expressions are nested too deeply (more than %d levels); a parameter probably refers to itself", maxNesting))
	}
	t := v.ev.template(expression[1:])
	saved := v.scope
	v.scope = s
	v.depth++
	val, err := v.evalTemplateValue(t)
	v.depth--
	v.scope = saved
	if err != nil {
		switch err.(type) {
		case *goja.Exception, *goja.InterruptedError, *goja.StackOverflowError:
			panic(err) // rethrown as is: a timeout stays uncatchable
		}
		panic(v.rt.NewGoError(err))
	}
	return val
}
