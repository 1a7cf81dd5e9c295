package expr

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/dop251/goja"

	"github.com/flowmill/flowmill/pkg/nesting"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// errTooDeep is the error for a value nested deeper than nesting.Max, which is almost always
// circular; it wraps nesting.ErrTooDeep.
var errTooDeep = fmt.Errorf("TypeError: Converting circular structure to JSON, or %w", nesting.ErrTooDeep)

var (
	typeMapObject   = reflect.TypeOf((*mapObject)(nil))
	typeOrdered     = reflect.TypeOf((*orderedObject)(nil))
	typeSliceObject = reflect.TypeOf((*sliceObject)(nil))
	typeItemList    = reflect.TypeOf((*itemList)(nil))
)

// mapObject shows a Go map to JavaScript without copying it: reads convert values lazily,
// writes land in the map (converted with export), so Go sees what the script changed.
type mapObject struct {
	vm *vm
	m  map[string]any
}

func (o *mapObject) Get(key string) goja.Value {
	v, ok := o.m[key]
	if !ok {
		return nil
	}
	return o.vm.toJSIn(v, slot{m: o.m, key: key})
}

func (o *mapObject) Set(key string, val goja.Value) bool {
	if goja.IsUndefined(val) {
		// JSON drops undefined members, and Go has no undefined to hold.
		delete(o.m, key)
		return true
	}
	v, err := o.vm.export(val)
	if err != nil {
		panic(o.vm.rt.NewTypeError(err.Error()))
	}
	o.m[key] = v
	return true
}

func (o *mapObject) Has(key string) bool {
	_, ok := o.m[key]
	return ok
}

func (o *mapObject) Delete(key string) bool {
	delete(o.m, key)
	return true
}

// Keys are sorted: Go maps have no order, and a stable one keeps outputs reproducible.
func (o *mapObject) Keys() []string {
	keys := make([]string, 0, len(o.m))
	for k := range o.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// orderedObject shows item data (*workflow.Object) to JavaScript without copying it, in its
// key order; like mapObject, writes land in the object.
type orderedObject struct {
	vm *vm
	o  *workflow.Object
}

func (o *orderedObject) Get(key string) goja.Value {
	v, ok := o.o.Lookup(key)
	if !ok {
		return nil
	}
	return o.vm.toJSIn(v, slot{o: o.o, key: key})
}

func (o *orderedObject) Set(key string, val goja.Value) bool {
	if goja.IsUndefined(val) {
		o.o.Delete(key)
		return true
	}
	v, err := o.vm.export(val)
	if err != nil {
		panic(o.vm.rt.NewTypeError(err.Error()))
	}
	o.o.Set(key, v)
	return true
}

func (o *orderedObject) Has(key string) bool { return o.o.Has(key) }

func (o *orderedObject) Delete(key string) bool {
	o.o.Delete(key)
	return true
}

func (o *orderedObject) Keys() []string { return o.o.Keys() }

// slot is where a wrapped value is held: m[key], o[key] or parent.s[idx]; a wrapped slice
// writes itself back there when it grows.
type slot struct {
	m      map[string]any
	o      *workflow.Object
	key    string
	parent *sliceObject
	idx    int
}

// sliceObject shows a Go []any to JavaScript as a real Array. When the array changes length
// the new slice is written back to where it came from (a map key or a parent slice element),
// so push() on a nested array is seen by Go.
type sliceObject struct {
	vm *vm
	s  []any
	at slot
}

func (a *sliceObject) Len() int { return len(a.s) }

func (a *sliceObject) Get(idx int) goja.Value {
	if idx < 0 || idx >= len(a.s) {
		return nil
	}
	return a.vm.toJSIn(a.s[idx], slot{parent: a, idx: idx})
}

func (a *sliceObject) Set(idx int, val goja.Value) bool {
	if idx < 0 {
		return false
	}
	v, err := a.vm.export(val)
	if err != nil {
		panic(a.vm.rt.NewTypeError(err.Error()))
	}
	if idx >= len(a.s) {
		a.s = append(a.s, make([]any, idx+1-len(a.s))...)
		a.s[idx] = v
		a.writeBack()
		return true
	}
	a.s[idx] = v
	return true
}

func (a *sliceObject) SetLen(n int) bool {
	if n < 0 {
		return false
	}
	if n <= len(a.s) {
		clear(a.s[n:])
		a.s = a.s[:n]
	} else {
		a.s = append(a.s, make([]any, n-len(a.s))...)
	}
	a.writeBack()
	return true
}

func (a *sliceObject) writeBack() {
	switch at := a.at; {
	case at.m != nil:
		at.m[at.key] = a.s
	case at.o != nil:
		at.o.Set(at.key, a.s)
	case at.parent != nil && at.idx < len(at.parent.s):
		at.parent.s[at.idx] = a.s
	}
}

// toJS converts a Go value to JavaScript. Maps and slices are wrapped, not copied.
func (v *vm) toJS(x any) goja.Value { return v.toJSIn(x, slot{}) }

// toJSIn is toJS for a value held at a slot, so that a wrapped slice can write itself back
// when it grows.
func (v *vm) toJSIn(x any, at slot) goja.Value {
	switch x := x.(type) {
	case nil:
		return goja.Null()
	case goja.Value:
		return x
	case string:
		return v.rt.ToValue(x)
	case float64, int64, int, bool, int32, float32, uint, uint32, uint64:
		return v.rt.ToValue(x)
	case map[string]any:
		if x == nil {
			return goja.Null()
		}
		return v.rt.NewDynamicObject(&mapObject{vm: v, m: x})
	case *workflow.Object:
		if x == nil {
			return goja.Null()
		}
		return v.rt.NewDynamicObject(&orderedObject{vm: v, o: x})
	case []any:
		return v.rt.NewDynamicArray(&sliceObject{vm: v, s: x, at: at})
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return v.rt.ToValue(i)
		}
		f, _ := x.Float64()
		return v.rt.ToValue(f)
	case time.Time:
		d, err := v.rt.New(v.rt.Get("Date"), v.rt.ToValue(x.UnixMilli()))
		if err != nil {
			return goja.Undefined()
		}
		return d
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return v.toJS(m)
	case []map[string]any:
		s := make([]any, len(x))
		for i, m := range x {
			s[i] = m
		}
		return v.toJS(s)
	case []string:
		s := make([]any, len(x))
		for i, m := range x {
			s[i] = m
		}
		return v.toJS(s)
	case workflow.Item:
		return v.toJS(itemToObject(&x))
	case *workflow.Item:
		return v.toJS(itemToObject(x))
	case []workflow.Item:
		return v.newItemList(x).obj
	}
	return v.rt.ToValue(x)
}

// export converts a JavaScript value to plain Go data as JSON.stringify would see it:
// objects become *workflow.Object in their key order, arrays []any, numbers int64 or float64, Dates and other
// objects with toJSON (Luxon DateTime, Duration, Interval) the result of toJSON, functions and
// undefined nil. Wrapped Go maps and slices come back as themselves.
func (v *vm) export(x goja.Value) (any, error) { return v.exportDepth(x, 0, false) }

// exportTop is export for use outside JavaScript: an exception thrown while converting (by a
// toJSON method or a data global's getter) is returned rather than panicking. With detach,
// wrapped Go maps and slices come back as copies, so the result shares nothing with the
// data it was computed from. The result, wrapped Go data included (a script can nest maps
// through them one assignment at a time), is never nested deeper than nesting.Max.
func (v *vm) exportTop(x goja.Value, detach bool) (out any, err error) {
	if ex := v.rt.Try(func() { out, err = v.exportDepth(x, 0, detach) }); ex != nil {
		return nil, ex
	}
	if err == nil && nesting.Value(out) != nil {
		return nil, errTooDeep
	}
	return out, err
}

func (v *vm) exportDepth(x goja.Value, depth int, detach bool) (any, error) {
	if x == nil || goja.IsUndefined(x) || goja.IsNull(x) {
		return nil, nil
	}
	obj, ok := x.(*goja.Object)
	if !ok {
		switch e := x.Export().(type) {
		case *big.Int:
			return e.String(), nil
		case float64:
			if depth > 0 && (math.IsNaN(e) || math.IsInf(e, 0)) {
				return nil, nil
			}
			return e, nil
		default:
			if _, isSym := x.(*goja.Symbol); isSym {
				return nil, nil
			}
			return e, nil
		}
	}
	if depth >= nesting.Max {
		return nil, errTooDeep
	}
	switch obj.ExportType() {
	case typeMapObject:
		if detach {
			return workflow.CopyJSON(obj.Export().(*mapObject).m), nil
		}
		return obj.Export().(*mapObject).m, nil
	case typeOrdered:
		if detach {
			return obj.Export().(*orderedObject).o.Clone(), nil
		}
		return obj.Export().(*orderedObject).o, nil
	case typeSliceObject:
		if detach {
			return workflow.DeepCopy(obj.Export().(*sliceObject).s), nil
		}
		return obj.Export().(*sliceObject).s, nil
	case typeItemList:
		return obj.Export().(*itemList).export(depth, detach)
	}
	if _, isFn := goja.AssertFunction(obj); isFn {
		return nil, nil
	}
	if toJSON, ok := goja.AssertFunction(obj.Get("toJSON")); ok {
		r, err := toJSON(obj)
		if err != nil {
			return nil, err
		}
		if r2, ok := r.(*goja.Object); ok && r2 == obj {
			return nil, errTooDeep
		}
		return v.exportDepth(r, depth+1, detach)
	}
	if obj.ClassName() == "Array" {
		n := int(obj.Get("length").ToInteger())
		out := make([]any, n)
		for i := range n {
			e, err := v.exportDepth(obj.Get(strconv.Itoa(i)), depth+1, detach)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	keys := obj.Keys()
	out := workflow.NewObject(len(keys))
	for _, k := range keys {
		pv := obj.Get(k)
		if pv == nil || goja.IsUndefined(pv) {
			continue
		}
		if po, ok := pv.(*goja.Object); ok {
			if _, isFn := goja.AssertFunction(po); isFn {
				continue
			}
		}
		e, err := v.exportDepth(pv, depth+1, detach)
		if err != nil {
			return nil, err
		}
		out.Set(k, e)
	}
	return out, nil
}
