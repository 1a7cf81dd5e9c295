package comparedatasets

import (
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func key(obj *workflow.Object, k string) any {
	if v, ok := obj.Lookup(k); ok {
		return v
	}
	return workflow.Undefined{}
}

// equalFunc compares two field values, strictly or with n8n's fuzzy rules.
type equalFunc func(a, b any) bool

func fuzzyCompare(fuzzy bool, version float64) equalFunc {
	if !fuzzy {
		return jsv.Equal
	}
	if version < 2 {
		return jsv.FuzzyEqual
	}
	return func(a, b any) bool {
		// Version 2 also matches null with null, 0 and "0".
		if a == nil && (b == nil || isZero(b)) || b == nil && isZero(a) {
			return true
		}
		return jsv.FuzzyEqual(a, b)
	}
}

func isZero(v any) bool {
	if s, ok := v.(string); ok {
		return s == "0"
	}
	f, ok := workflow.Number(v)
	return ok && f == 0
}

// set is lodash's set; setting undefined creates the parents but leaves no value, as JSON shows
// an undefined property.
func set(obj *workflow.Object, path string, v any) {
	if !jsv.IsUndefined(v) {
		workflow.SetPath(obj, path, v)
		return
	}
	workflow.SetPath(obj, path, nil)
	workflow.UnsetPath(obj, path)
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
	if !workflow.Truthy(v) {
		return nil
	}
	return v
}

// definedOrNull is `v === undefined ? null : v`.
func definedOrNull(v any) any {
	if jsv.IsUndefined(v) {
		return nil
	}
	return v
}
