package comparedatasets

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type getter func(obj any, field string) any

// valueGetter reads a field as lodash's get, or as a plain key with dot notation disabled; a
// missing field is jsv.Undefined.
func valueGetter(disableDot bool) getter {
	if disableDot {
		return func(obj any, field string) any {
			if m, ok := obj.(map[string]any); ok {
				if v, ok := m[field]; ok {
					return v
				}
			}
			return jsv.Undefined{}
		}
	}
	return func(obj any, field string) any {
		if v, ok := workflow.LookupPath(obj, field); ok {
			return v
		}
		return jsv.Undefined{}
	}
}

func key(obj map[string]any, k string) any {
	if v, ok := obj[k]; ok {
		return v
	}
	return jsv.Undefined{}
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

// isEqual is lodash's isEqual, undefined included.
func isEqual(a, b any) bool {
	ua, ub := isUndefined(a), isUndefined(b)
	if ua || ub {
		return ua && ub
	}
	return workflow.DeepEqual(a, b)
}

func isFalsy(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}

// equalFunc compares two field values, strictly or with n8n's fuzzy rules.
type equalFunc func(a, b any) bool

func fuzzyCompare(fuzzy bool, version float64) equalFunc {
	if !fuzzy {
		return isEqual
	}
	return func(a, b any) bool {
		if a != nil && b != nil && typeOf(a) == typeOf(b) {
			return isEqual(a, b)
		}
		if version >= 2 {
			if a == nil && (b == nil || isZero(b)) || b == nil && isZero(a) {
				return true
			}
		}
		if isFalsy(a) && isFalsy(b) || isFalsy(a) && isUndefined(b) || isUndefined(a) && isFalsy(b) {
			return true
		}
		ta, tb := typeOf(a), typeOf(b)
		switch {
		case ta == "number" && tb == "string":
			return jsv.ToString(a) == b.(string)
		case ta == "string" && tb == "number":
			return a.(string) == jsv.ToString(b)
		case a != nil && ta == "object" && tb == "string":
			return parsedEqual(b.(string), a)
		case b != nil && ta == "string" && tb == "object":
			return parsedEqual(a.(string), b)
		}
		if ta == "boolean" && (tb == "string" || tb == "number") {
			return boolMatches(a.(bool), b)
		}
		if tb == "boolean" && (ta == "string" || ta == "number") {
			return boolMatches(b.(bool), a)
		}
		return isEqual(a, b)
	}
}

func isZero(v any) bool {
	if s, ok := v.(string); ok {
		return s == "0"
	}
	f, ok := jsv.Number(v)
	return ok && f == 0
}

// boolMatches: true matches "true" (any case), 1 and "1"; false matches "false", 0 and "0".
func boolMatches(b bool, v any) bool {
	if s, ok := v.(string); ok {
		if strings.ToLower(s) == strconv.FormatBool(b) {
			return true
		}
		return (b && s == "1") || (!b && s == "0")
	}
	f, _ := jsv.Number(v)
	return (b && f == 1) || (!b && f == 0)
}

func parsedEqual(s string, v any) bool {
	var parsed any
	if err := json.Unmarshal([]byte(s), &parsed); err != nil {
		return false
	}
	return isEqual(parsed, v)
}

// unset removes the value at a lodash path.
func unset(obj any, path string) {
	if m, ok := obj.(map[string]any); ok {
		if _, ok := m[path]; ok {
			delete(m, path)
			return
		}
	}
	keys := workflow.SplitPath(path)
	cur := obj
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
				c[idx] = nil
				return
			}
			cur = c[idx]
		default:
			return
		}
	}
}

// set is lodash's set; setting undefined creates the parents but leaves no value, as JSON shows
// an undefined property.
func set(obj map[string]any, path string, v any) {
	if !isUndefined(v) {
		workflow.SetPath(obj, path, v)
		return
	}
	workflow.SetPath(obj, path, nil)
	unset(obj, path)
}

// keysOf lists an object's keys; Go maps keep no insertion order, so they are sorted.
func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return workflow.JSKeyOrder(keys)
}

func splitTrim(s string) []string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts
}

// orNull is `v || null`.
func orNull(v any) any {
	if !jsv.Truthy(v) {
		return nil
	}
	return v
}

// definedOrNull is `v === undefined ? null : v`.
func definedOrNull(v any) any {
	if isUndefined(v) {
		return nil
	}
	return v
}
