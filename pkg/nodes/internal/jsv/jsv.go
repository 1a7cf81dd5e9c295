// Package jsv gives Go values JavaScript's semantics where n8n's nodes rely on them: truthiness,
// `||`, strict equality, relational comparison with its type coercion, String() and Number().
// Undefined, Number and Truthy themselves live in pkg/workflow, which needs them as well.
// Values are JSON-like: nil (null), bool, numbers, string, []any, map[string]any, time.Time.
package jsv

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// IsUndefined reports whether v is undefined (a missing value), not null.
func IsUndefined(v any) bool { _, ok := v.(workflow.Undefined); return ok }

// TypeOf is JavaScript's typeof for JSON-like values: "undefined", "string", "boolean",
// "number", or "object" for null, objects, arrays, dates and anything else.
func TypeOf(v any) string {
	switch v.(type) {
	case workflow.Undefined:
		return "undefined"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil, map[string]any, []any, *workflow.Object:
		return "object"
	}
	if _, ok := workflow.Number(v); ok {
		return "number"
	}
	return "object"
}

// Or is JavaScript's `v || fallback`.
func Or(v, fallback any) any {
	if workflow.Truthy(v) {
		return v
	}
	return fallback
}

// ToPrimitive converts objects as JavaScript does with the number hint: arrays to their joined
// string, other objects to "[object Object]", dates to their time in milliseconds.
func ToPrimitive(v any) any {
	switch x := v.(type) {
	case []any:
		return ToString(x)
	case map[string]any, *workflow.Object:
		return "[object Object]"
	case time.Time:
		return float64(x.UnixMilli())
	}
	return v
}

// ToNumber is JavaScript's workflow.Number(v).
func ToNumber(v any) float64 {
	if f, ok := workflow.Number(v); ok {
		return f
	}
	switch x := ToPrimitive(v).(type) {
	case nil:
		return 0
	case workflow.Undefined:
		return math.NaN()
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		return stringToNumber(x)
	case float64:
		return x
	}
	return math.NaN()
}

func stringToNumber(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	switch s {
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	lower := strings.ToLower(s)
	for _, p := range []struct {
		prefix string
		base   int
	}{{"0x", 16}, {"0o", 8}, {"0b", 2}} {
		if strings.HasPrefix(lower, p.prefix) {
			n, err := strconv.ParseUint(s[2:], p.base, 64)
			if err != nil {
				return math.NaN()
			}
			return float64(n)
		}
	}
	if strings.ContainsAny(lower, "xpn_") || strings.Contains(lower, "inf") {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

// ToString is JavaScript's String(v).
func ToString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case workflow.Undefined:
		return "undefined"
	case string:
		return x
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e == nil {
				continue
			}
			if _, ok := e.(workflow.Undefined); ok {
				continue
			}
			parts[i] = ToString(e)
		}
		return strings.Join(parts, ",")
	case map[string]any, *workflow.Object:
		return "[object Object]"
	case time.Time:
		return x.Format("Mon Jan 02 2006 15:04:05 GMT-0700 (MST)")
	}
	if f, ok := workflow.Number(v); ok {
		return FormatNumber(f)
	}
	return "[object Object]"
}

// FormatNumber formats a number as JavaScript's Number.prototype.toString does.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	// Shortest round-trip digits and the decimal exponent n with 10^(n-1) <= f < 10^n.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	n := exp + 1
	k := len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	ev := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return sign + digits + "e" + es + ev
	}
	return sign + digits[:1] + "." + digits[1:] + "e" + es + ev
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// StrictEqual is JavaScript's `a === b`: objects are equal only to themselves.
func StrictEqual(a, b any) bool {
	if fa, ok := workflow.Number(a); ok {
		fb, ok := workflow.Number(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case workflow.Undefined:
		_, ok := b.(workflow.Undefined)
		return ok
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case time.Time:
		return false
	case *workflow.Object:
		y, ok := b.(*workflow.Object)
		return ok && x == y
	case map[string]any, []any:
		va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
		return va.Kind() == vb.Kind() && va.Pointer() == vb.Pointer() && va.Len() == vb.Len()
	}
	return false
}

// less is the abstract relational comparison a < b; ok is false when the result is undefined
// (a NaN was involved).
func less(a, b any) (result, ok bool) {
	pa, pb := ToPrimitive(a), ToPrimitive(b)
	sa, aStr := pa.(string)
	sb, bStr := pb.(string)
	if aStr && bStr {
		return sa < sb, true
	}
	na, nb := ToNumber(pa), ToNumber(pb)
	if math.IsNaN(na) || math.IsNaN(nb) {
		return false, false
	}
	return na < nb, true
}

// Less is `a < b`.
func Less(a, b any) bool { r, ok := less(a, b); return ok && r }

// Greater is `a > b`.
func Greater(a, b any) bool { r, ok := less(b, a); return ok && r }

// LessEqual is `a <= b`.
func LessEqual(a, b any) bool { r, ok := less(b, a); return ok && !r }

// GreaterEqual is `a >= b`.
func GreaterEqual(a, b any) bool { r, ok := less(a, b); return ok && !r }
