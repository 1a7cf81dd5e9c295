package itemlists

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// getter reads a field as lodash's get (dot notation) or as a plain key; a missing field is
// jsv.Undefined.
type getter func(obj map[string]any, field string) any

func valueGetter(disableDotNotation bool) getter {
	if disableDotNotation {
		return func(obj map[string]any, field string) any {
			if v, ok := obj[field]; ok {
				return v
			}
			return jsv.Undefined{}
		}
	}
	return func(obj map[string]any, field string) any {
		if v, ok := workflow.LookupPath(obj, field); ok {
			return v
		}
		return jsv.Undefined{}
	}
}

func isUndefined(v any) bool { _, ok := v.(jsv.Undefined); return ok }

// typeOf is JavaScript's typeof for JSON-like values.
func typeOf(v any) string {
	switch v.(type) {
	case jsv.Undefined:
		return "undefined"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil, map[string]any, []any:
		return "object"
	}
	if _, ok := jsv.Number(v); ok {
		return "number"
	}
	return "object"
}

// isObject is typeof v === 'object' && v !== null.
func isObject(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// isEmptyValue is summarize's isEmpty: undefined, null or "".
func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case jsv.Undefined, nil:
		return true
	case string:
		return x == ""
	}
	return false
}

// defined turns undefined into null for storing in JSON.
func defined(v any) any {
	switch x := v.(type) {
	case jsv.Undefined:
		return nil
	case float64:
		// JSON has no NaN or Infinity; JSON.stringify writes null.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	}
	return v
}

// spread copies what JavaScript's object spread {...v} copies: an object's keys or an array's
// indexes.
func spread(dst map[string]any, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			dst[k] = e
		}
	case []any:
		for i, e := range x {
			dst[strconv.Itoa(i)] = e
		}
	}
}

// values is Object.values: an object's values in JavaScript key order.
func values(m map[string]any) []any {
	keys := sortedKeys(m)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// sortedKeys is the order used where JavaScript would use insertion order, which Go maps do not
// keep: array-index keys first in numeric order, then the others sorted.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return workflow.JSKeyOrder(keys)
}

// unset removes the value at a lodash path, as lodash's unset does.
func unset(obj map[string]any, path string) {
	if _, ok := obj[path]; ok {
		delete(obj, path)
		return
	}
	keys := workflow.SplitPath(path)
	var cur any = obj
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				delete(c, k)
				return
			}
			cur = c[k]
		case []any:
			idx, err := strconv.Atoi(k)
			if err != nil || idx < 0 || idx >= len(c) {
				return
			}
			if last {
				// lodash leaves a hole, which JSON writes as null.
				c[idx] = nil
				return
			}
			cur = c[idx]
		default:
			return
		}
	}
}

// pick is lodash's pick with paths: a new object holding only the given fields.
func pick(obj map[string]any, paths []string) map[string]any {
	out := map[string]any{}
	for _, p := range paths {
		if v, ok := obj[p]; ok {
			out[p] = workflow.DeepCopy(v)
			continue
		}
		if v, ok := workflow.LookupPath(obj, p); ok {
			workflow.SetPath(out, p, workflow.DeepCopy(v))
		}
	}
	return out
}

// flattenKeys lists the dotted paths of an object's leaves, as n8n's flattenKeys (lodash
// reduce + merge): arrays are walked by index, empty objects and arrays have no leaves.
func flattenKeys(obj map[string]any) []string {
	var keys []string
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], append(slices.Clone(path), k))
			}
		case []any:
			for i, e := range x {
				walk(e, append(slices.Clone(path), strconv.Itoa(i)))
			}
		default:
			keys = append(keys, strings.Join(path, "."))
		}
	}
	walk(obj, nil)
	return keys
}

// stringify is JSON.stringify for values used as keys and in concatenations.
func stringify(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
