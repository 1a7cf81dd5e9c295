package expr

import (
	"fmt"
	"math"

	"github.com/dop251/goja"
)

// Sizes the guards estimate allocations with: one element of a JavaScript array is an
// interface value; a character of a string takes up to two bytes.
const (
	elementBytes = 16
	charBytes    = 2
)

// typedArrays are the typed-array constructors and their element sizes.
var typedArrays = map[string]float64{
	"Int8Array": 1, "Uint8Array": 1, "Uint8ClampedArray": 1, "Int16Array": 2, "Uint16Array": 2,
	"Int32Array": 4, "Uint32Array": 4, "Float32Array": 4, "Float64Array": 8,
	"BigInt64Array": 8, "BigUint64Array": 8,
}

// installGuards puts a size check in front of every built-in that allocates in proportion
// to an argument in one native call, where the watchdog could not stop it: the Array
// constructor, Array.from, Array.prototype.fill and join, String.prototype.repeat, padStart,
// padEnd and concat, ArrayBuffer and the typed arrays, Function.prototype.apply,
// Reflect.apply and Reflect.construct, and JSON.stringify (guardStringify). A call whose
// result would exceed the memory budget stops the evaluation as the watchdog does, before
// anything is allocated.
func (v *vm) installGuards() error {
	if v.ev.watch == nil {
		return nil
	}
	rt := v.rt
	global := rt.GlobalObject()
	array := global.Get("Array").ToObject(rt)
	arrayProto := array.Get("prototype").ToObject(rt)
	stringProto := global.Get("String").ToObject(rt).Get("prototype").ToObject(rt)

	guards := []methodGuard{
		{array, "from", "Array.from of %.0f elements", func(call goja.FunctionCall) (float64, float64) {
			n := v.lengthOf(call.Argument(0))
			return n * elementBytes, n
		}},
		{arrayProto, "fill", "fill of %.0f elements", func(call goja.FunctionCall) (float64, float64) {
			n := fillCount(v.lengthOf(call.This), call.Argument(1), call.Argument(2))
			return n * elementBytes, n
		}},
		{arrayProto, "join", "join of %.0f elements", func(call goja.FunctionCall) (float64, float64) {
			n := v.lengthOf(call.This)
			sep := 1.0
			if s := call.Argument(0); !goja.IsUndefined(s) {
				sep = stringLength(s)
			}
			return n * sep * charBytes, n
		}},
		{stringProto, "repeat", "repeat to %.0f characters", func(call goja.FunctionCall) (float64, float64) {
			n := stringLength(call.This) * call.Argument(0).ToFloat()
			return n * charBytes, n
		}},
		{stringProto, "padStart", "padStart to %.0f characters", func(call goja.FunctionCall) (float64, float64) {
			n := call.Argument(0).ToFloat()
			return n * charBytes, n
		}},
		{stringProto, "padEnd", "padEnd to %.0f characters", func(call goja.FunctionCall) (float64, float64) {
			n := call.Argument(0).ToFloat()
			return n * charBytes, n
		}},
		{stringProto, "concat", "concat to %.0f characters", func(call goja.FunctionCall) (float64, float64) {
			n := stringLength(call.This)
			for _, a := range call.Arguments {
				n += stringLength(a)
			}
			return n * charBytes, n
		}},
	}
	// apply and Reflect.apply/construct spread an array-like into arguments, all at once.
	arguments := func(i int) func(goja.FunctionCall) (float64, float64) {
		return func(call goja.FunctionCall) (float64, float64) {
			n := v.lengthOf(call.Argument(i))
			return n * elementBytes, n
		}
	}
	reflect := global.Get("Reflect").ToObject(rt)
	functionProto := global.Get("Function").ToObject(rt).Get("prototype").ToObject(rt)
	guards = append(guards,
		methodGuard{functionProto, "apply", "apply with %.0f arguments", arguments(1)},
		methodGuard{reflect, "apply", "Reflect.apply with %.0f arguments", arguments(2)},
		methodGuard{reflect, "construct", "Reflect.construct with %.0f arguments", arguments(1)},
	)
	for _, g := range guards {
		if err := v.guardMethod(g); err != nil {
			return err
		}
	}

	// Array(n) and new Array(n) are guarded by a proxy, so the global Array stays what
	// scripts expect of it ([] instanceof Array, x.constructor === Array, Array.isArray).
	arrayProxy, err := v.guardConstructor("Array", "an Array of %.0f elements", func(args []goja.Value) (float64, float64) {
		if len(args) != 1 {
			return 0, 0
		}
		var n float64
		switch x := args[0].Export().(type) {
		case int64:
			n = float64(x)
		case float64:
			n = x
		default:
			return 0, 0 // new Array("a") is an array of one element
		}
		return n * elementBytes, n
	})
	if err != nil {
		return err
	}
	if err := arrayProto.DefineDataProperty("constructor", arrayProxy, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	// map, filter, slice and the like create their result through constructor[Symbol.species];
	// for plain arrays that is the original Array, so they skip the proxy (their sizes are
	// bounded by the array they start from). Subclasses keep their own species.
	species := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		if call.This == arrayProxy {
			return array
		}
		return call.This
	})
	if err := array.DefineAccessorPropertySymbol(goja.SymSpecies, species, nil, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	if err := v.guardStringify(global.Get("JSON").ToObject(rt)); err != nil {
		return err
	}
	if _, err := v.guardConstructor("ArrayBuffer", "an ArrayBuffer of %.0f bytes", func(args []goja.Value) (float64, float64) {
		n := argFloat(args, 0)
		return n, n
	}); err != nil {
		return err
	}
	for name, size := range typedArrays {
		if global.Get(name) == nil {
			continue
		}
		if _, err := v.guardConstructor(name, "a "+name+" of %.0f elements", func(args []goja.Value) (float64, float64) {
			if len(args) == 0 {
				return 0, 0
			}
			var n float64
			switch a := args[0].(type) {
			case *goja.Object:
				if _, isBuffer := a.Export().(goja.ArrayBuffer); isBuffer {
					return 0, 0 // a view of memory already allocated
				}
				n = v.lengthOf(a)
			default:
				n = a.ToFloat()
			}
			return n * size, n
		}); err != nil {
			return err
		}
	}
	return nil
}

// methodGuard is a built-in method and what one call of it would allocate: need gives the
// bytes and the count (elements, characters) that what, a format, describes in the error.
type methodGuard struct {
	obj  *goja.Object
	name string
	what string
	need func(call goja.FunctionCall) (bytes, count float64)
}

// guardMethod replaces obj[name] by a function that checks need before calling the original.
func (v *vm) guardMethod(g methodGuard) error {
	obj, name := g.obj, g.name
	orig, ok := goja.AssertFunction(obj.Get(name))
	if !ok {
		return fmt.Errorf("%s is not a function", name)
	}
	wrapped := v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		if bytes, count := g.need(call); bytes > float64(v.ev.watch.budget) {
			v.refuse(fmt.Sprintf(g.what, count), bytes)
			return goja.Undefined()
		}
		res, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return res
	}).ToObject(v.rt)
	if err := wrapped.DefineDataProperty("name", v.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	return obj.DefineDataProperty(name, wrapped, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// guardConstructor replaces the global constructor name by a proxy that checks need on calls
// and constructions (subclasses included).
func (v *vm) guardConstructor(name, what string, need func(args []goja.Value) (bytes, count float64)) (*goja.Object, error) {
	rt := v.rt
	target := rt.GlobalObject().Get(name).ToObject(rt)
	construct, ok := goja.AssertFunction(rt.GlobalObject().Get("Reflect").ToObject(rt).Get("construct"))
	if !ok {
		return nil, fmt.Errorf("Reflect.construct is not a function")
	}
	fn, ok := goja.AssertFunction(target)
	if !ok {
		return nil, fmt.Errorf("%s is not a function", name)
	}
	// goja's proxies of functions lack instanceof; the target answers it instead.
	if err := target.DefineDataPropertySymbol(goja.SymHasInstance, hasInstance(rt), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return nil, err
	}
	check := func(args []goja.Value) bool {
		if bytes, count := need(args); bytes > float64(v.ev.watch.budget) {
			v.refuse(fmt.Sprintf(what, count), bytes)
			return false
		}
		return true
	}
	proxy := rt.NewProxy(target, &goja.ProxyTrapConfig{
		Apply: func(target *goja.Object, this goja.Value, args []goja.Value) goja.Value {
			if !check(args) {
				return goja.Undefined()
			}
			res, err := fn(this, args...)
			if err != nil {
				panic(err)
			}
			return res
		},
		Construct: func(target *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
			if !check(args) {
				return rt.NewObject()
			}
			res, err := construct(goja.Undefined(), target, rt.NewArray(valuesToAny(args)...), newTarget)
			if err != nil {
				panic(err)
			}
			return res.ToObject(rt)
		},
	})
	obj := rt.ToValue(proxy).ToObject(rt)
	if err := rt.GlobalObject().DefineDataProperty(name, obj, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return nil, err
	}
	return obj, nil
}

// guardStringify makes JSON.stringify count the text it writes, through a replacer (wrapping
// the caller's replacer function, if any), and stop once the text would pass the budget: its
// size is not known before it is written (sparse arrays, objects referenced many times).
// Calls with an array of property names as replacer are not counted; the watchdog stops them
// once they return.
func (v *vm) guardStringify(json *goja.Object) error {
	rt := v.rt
	orig, ok := goja.AssertFunction(json.Get("stringify"))
	if !ok {
		return fmt.Errorf("JSON.stringify is not a function")
	}
	budget := float64(v.ev.watch.budget)
	wrapped := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		args := call.Arguments
		replacer, isFn := goja.AssertFunction(call.Argument(1))
		if r, isObj := call.Argument(1).(*goja.Object); isObj && !isFn && r.ClassName() == "Array" {
			res, err := orig(goja.Undefined(), args...)
			if err != nil {
				panic(err)
			}
			return res
		}
		indent := 0.0
		if sp := call.Argument(2); !goja.IsUndefined(sp) {
			if s, isStr := sp.(goja.String); isStr {
				indent = float64(min(s.Length(), 10))
			} else {
				indent = min(max(sp.ToFloat(), 0), 10)
			}
		}
		var size float64
		counting := rt.ToValue(func(c goja.FunctionCall) goja.Value {
			val := c.Argument(1)
			if replacer != nil {
				r, err := replacer(c.This, c.Arguments...)
				if err != nil {
					panic(err)
				}
				val = r
			}
			// key, quotes, colon, comma and indentation, then the value itself (objects and
			// arrays count their brackets here and their members as these are visited).
			size += stringLength(c.Argument(0)) + 4 + indent
			if s, isStr := val.(goja.String); isStr {
				size += float64(s.Length()) + 2
			} else {
				size += 8
			}
			if size*charBytes > budget {
				v.refuse(fmt.Sprintf("JSON.stringify to more than %.0f characters", size), size*charBytes)
				panic(rt.NewGoError(fmt.Errorf("%s", memoryMessage(v.what, v.ev.watch.budget))))
			}
			return val
		})
		res, err := orig(goja.Undefined(), call.Argument(0), counting, call.Argument(2))
		if err != nil {
			panic(err)
		}
		return res
	})
	return json.DefineDataProperty("stringify", wrapped, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// hasInstanceProgram is OrdinaryHasInstance for a constructor that is reached through a proxy.
var hasInstanceProgram = goja.MustCompile("hasInstance.js", `(function (getProto) {
	return function (x) {
		var p = this.prototype;
		if (x === null || (typeof x !== "object" && typeof x !== "function")) return false;
		while ((x = getProto(x)) !== null) if (x === p) return true;
		return false;
	};
})(Object.getPrototypeOf)`, false)

func hasInstance(rt *goja.Runtime) goja.Value {
	fn, err := rt.RunProgram(hasInstanceProgram)
	if err != nil {
		panic(err) // the program is fixed and runs on a fresh runtime
	}
	return fn
}

// refuse stops the evaluation in progress because one call would allocate bytes at once.
func (v *vm) refuse(what string, bytes float64) {
	v.memMu.Lock()
	defer v.memMu.Unlock()
	if v.memStop != nil {
		return
	}
	v.memStop = &interrupt{cause: ErrMemory, what: v.what, bytes: v.ev.watch.budget,
		detail: fmt.Sprintf("%s needs about %s", what, formatBytes(uint64(min(bytes, math.MaxInt64))))}
	v.rt.Interrupt(v.memStop)
}

// lengthOf is ToLength(x.length) as a float, 0 for null and undefined.
func (v *vm) lengthOf(x goja.Value) float64 {
	if x == nil || goja.IsUndefined(x) || goja.IsNull(x) {
		return 0
	}
	if s, ok := x.(goja.String); ok {
		return float64(s.Length())
	}
	n := x.ToObject(v.rt).Get("length")
	if n == nil {
		return 0
	}
	f := n.ToFloat()
	if math.IsNaN(f) || f < 0 {
		return 0
	}
	return f
}

// stringLength is the length of x as a string, without converting objects (whose string
// form is computed by the original method anyway).
func stringLength(x goja.Value) float64 {
	if s, ok := x.(goja.String); ok {
		return float64(s.Length())
	}
	return 0
}

// fillCount is how many elements fill(value, start, end) writes on an array of length n.
func fillCount(n float64, start, end goja.Value) float64 {
	rel := func(x goja.Value, def float64) float64 {
		if x == nil || goja.IsUndefined(x) {
			return def
		}
		f := x.ToFloat()
		if math.IsNaN(f) {
			return 0
		}
		if f < 0 {
			return max(n+f, 0)
		}
		return min(f, n)
	}
	return max(rel(end, n)-rel(start, 0), 0)
}

func argFloat(args []goja.Value, i int) float64 {
	if i >= len(args) {
		return 0
	}
	f := args[i].ToFloat()
	if math.IsNaN(f) {
		return 0
	}
	return f
}

func valuesToAny(vs []goja.Value) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}
