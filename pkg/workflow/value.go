package workflow

import (
	"encoding/json"
	"math"
)

// DeepEqual compares JSON-like values as lodash's isEqual does for data: numbers by value
// whatever their Go type, maps by keys, slices element-wise.
func DeepEqual(a, b any) bool {
	if fa, ok := Number(a); ok {
		fb, ok := Number(b)
		return ok && (fa == fb || (math.IsNaN(fa) && math.IsNaN(fb)))
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case map[string]any:
		if y, ok := b.(*Object); ok {
			return objectEqualsMap(y, x)
		}
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !DeepEqual(xv, yv) {
				return false
			}
		}
		return true
	case *Object:
		switch y := b.(type) {
		case map[string]any:
			return objectEqualsMap(x, y)
		case *Object:
			if x.Len() != y.Len() {
				return false
			}
			for _, e := range x.Members() {
				yv, ok := y.Lookup(e.Key)
				if !ok || !DeepEqual(e.Value, yv) {
					return false
				}
			}
			return true
		}
		return false
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !DeepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// objectEqualsMap compares an object with a map by keys, order aside (lodash isEqual).
func objectEqualsMap(o *Object, m map[string]any) bool {
	if o.Len() != len(m) {
		return false
	}
	for _, e := range o.Members() {
		mv, ok := m[e.Key]
		if !ok || !DeepEqual(e.Value, mv) {
			return false
		}
	}
	return true
}

// DeepCopy copies objects, maps and slices of JSON-like values; other values are returned as
// they are.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case *Object:
		return x.Clone()
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = DeepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = DeepCopy(e)
		}
		return s
	}
	return v
}

// CopyJSON deep-copies an item's JSON object; nil stays nil.
func CopyJSON(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return DeepCopy(m).(map[string]any)
}

// Undefined is JavaScript's undefined: a value that is missing rather than null. Node code and
// displayOptions rules tell the two apart, as n8n does.
type Undefined struct{}

// Number returns v as a float64 when it is a Go number type or a json.Number; strings and other
// values are not numbers (ok is false).
func Number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case uint64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// IsObject reports whether v is an object or an array: JavaScript's
// `typeof v === 'object' && v !== null` for JSON-like values.
func IsObject(v any) bool {
	switch v.(type) {
	case map[string]any, []any, *Object:
		return true
	}
	return false
}

// Truthy reports JavaScript truthiness: null, Undefined, false, "", 0 and NaN are false; every
// object and array, even an empty one, is true.
func Truthy(v any) bool {
	switch x := v.(type) {
	case nil, Undefined:
		return false
	case bool:
		return x
	case string:
		return x != ""
	}
	if f, ok := Number(v); ok {
		return f != 0 && !math.IsNaN(f)
	}
	return true
}
