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

// isEmptyValue is summarize's isEmpty: undefined, null or "".
func isEmptyValue(v any) bool {
	switch x := v.(type) {
	case workflow.Undefined, nil:
		return true
	case string:
		return x == ""
	}
	return false
}

// defined turns undefined into null for storing in JSON.
func defined(v any) any {
	switch x := v.(type) {
	case workflow.Undefined:
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
func spread(dst *workflow.Object, v any) {
	switch x := v.(type) {
	case *workflow.Object:
		for k, e := range x.All() {
			dst.Set(k, e)
		}
	case map[string]any:
		for _, k := range jsv.Keys(x) {
			dst.Set(k, x[k])
		}
	case []any:
		for i, e := range x {
			dst.Set(strconv.Itoa(i), e)
		}
	}
}

// values is Object.values: an object's values in JavaScript key order.
func values(m any) []any {
	keys := jsv.Keys(m)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i], _ = workflow.LookupPath(m, k)
	}
	return out
}

// pick is lodash's pick with paths: a new object holding only the given fields.
func pick(obj *workflow.Object, paths []string) *workflow.Object {
	out := workflow.NewObject(len(paths))
	for _, p := range paths {
		if v, ok := obj.Lookup(p); ok {
			out.Set(p, workflow.DeepCopy(v))
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
func flattenKeys(obj *workflow.Object) []string {
	var keys []string
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		switch x := v.(type) {
		case *workflow.Object:
			for k, e := range x.All() {
				walk(e, append(slices.Clone(path), k))
			}
		case map[string]any:
			for _, k := range jsv.Keys(x) {
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
