package jsv

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Compare applies one of the comparison operations of n8n's IF and Switch (v1) nodes with the
// same coercions: `(v1 || 0) < (v2 || 0)` for numbers and dates, `===` for equality, String()
// for contains, and JavaScript regular expressions.
func Compare(op string, v1, v2 any) (bool, error) {
	switch op {
	case "after", "larger":
		return Greater(Or(v1, 0.0), Or(v2, 0.0)), nil
	case "before", "smaller":
		return Less(Or(v1, 0.0), Or(v2, 0.0)), nil
	case "largerEqual":
		return GreaterEqual(Or(v1, 0.0), Or(v2, 0.0)), nil
	case "smallerEqual":
		return LessEqual(Or(v1, 0.0), Or(v2, 0.0)), nil
	case "equal":
		return StrictEqual(v1, v2), nil
	case "notEqual":
		return !StrictEqual(v1, v2), nil
	case "contains":
		return strings.Contains(ToString(Or(v1, "")), ToString(Or(v2, ""))), nil
	case "notContains":
		return !strings.Contains(ToString(Or(v1, "")), ToString(Or(v2, ""))), nil
	case "startsWith", "notStartsWith", "endsWith", "notEndsWith":
		method := "startsWith"
		if op == "endsWith" || op == "notEndsWith" {
			method = "endsWith"
		}
		s, err := stringReceiver(v1, method)
		if err != nil {
			return false, err
		}
		r := strings.HasPrefix(s, ToString(v2))
		if method == "endsWith" {
			r = strings.HasSuffix(s, ToString(v2))
		}
		if strings.HasPrefix(op, "not") {
			r = !r
		}
		return r, nil
	case "isEmpty":
		return IsEmpty(v1), nil
	case "isNotEmpty":
		return !IsEmpty(v1), nil
	case "regex", "notRegex":
		m, err := RegexMatch(ToString(Or(v1, "")), ToString(Or(v2, "")))
		if err != nil {
			return false, err
		}
		if op == "notRegex" {
			m = !m
		}
		return m, nil
	}
	return false, fmt.Errorf("compareOperationFunctions[operation] is not a function (operation %q)", op)
}

// stringReceiver mirrors calling a String method on v1: non-strings fail as in JavaScript.
func stringReceiver(v any, method string) (string, error) {
	switch x := v.(type) {
	case string:
		return x, nil
	case nil:
		return "", fmt.Errorf("Cannot read properties of null (reading '%s')", method)
	case workflow.Undefined:
		return "", fmt.Errorf("Cannot read properties of undefined (reading '%s')", method)
	}
	return "", fmt.Errorf("value1.%s is not a function", method)
}

// IsEmpty is IF's isEmpty: undefined, null, "", NaN, an object or array without entries, or an
// invalid date.
func IsEmpty(v any) bool {
	switch x := v.(type) {
	case nil, workflow.Undefined:
		return true
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	case *workflow.Object:
		return x.Len() == 0
	case []any:
		return len(x) == 0
	case time.Time:
		return x.IsZero()
	}
	if f, ok := workflow.Number(v); ok {
		return math.IsNaN(f)
	}
	return false
}

var regexLiteral = regexp.MustCompile(`^/(.*?)/([gimusy]*)$`)

// RegexMatch reports whether s matches pattern, given as "/source/flags" or as a bare source,
// with JavaScript regular expression syntax.
func RegexMatch(s, pattern string) (bool, error) {
	source, flags := pattern, ""
	if m := regexLiteral.FindStringSubmatch(pattern); m != nil {
		source, flags = m[1], m[2]
	}
	opts := regexp2.ECMAScript
	for _, f := range flags {
		switch f {
		case 'i':
			opts |= regexp2.IgnoreCase
		case 'm':
			opts |= regexp2.Multiline
		case 's':
			opts |= regexp2.Singleline
		}
	}
	re, err := regexp2.Compile(source, opts)
	if err != nil {
		return false, fmt.Errorf("Invalid regular expression: /%s/: %w", source, err)
	}
	re.MatchTimeout = time.Second
	ok, err := re.MatchString(s)
	if err != nil {
		return false, errors.New("regular expression took too long")
	}
	return ok, nil
}

// DateTimeValue converts a value to milliseconds as IF and Switch do for dateTime rules:
// strings are parsed as JavaScript's Date does for common formats, numbers are kept.
func DateTimeValue(v any) (float64, error) {
	switch x := v.(type) {
	case string:
		if t, ok := ParseDate(x); ok {
			return float64(t.UnixMilli()), nil
		}
	case time.Time:
		return float64(x.UnixMilli()), nil
	default:
		if f, ok := workflow.Number(v); ok && !math.IsNaN(f) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("The value \"%s\" is not a valid DateTime.", ToString(v))
}

var dateLayouts = []struct {
	layout string
	local  bool
}{
	{time.RFC3339Nano, false},
	{"2006-01-02T15:04:05.999999999Z0700", false},
	{"2006-01-02T15:04Z07:00", false},
	{"2006-01-02", false},
	{"2006-01", false},
	{"2006", false},
	{"2006-01-02T15:04:05.999999999", true},
	{"2006-01-02T15:04", true},
	{"2006-01-02 15:04:05.999999999Z07:00", false},
	{"2006-01-02 15:04:05.999999999", true},
	{"2006-01-02 15:04", true},
	{time.RFC1123, false},
	{time.RFC1123Z, false},
	{"Mon Jan 02 2006 15:04:05 GMT-0700", false},
	{"Mon, 02 Jan 2006 15:04:05 GMT", false},
	{"January 2, 2006 15:04:05", true},
	{"January 2, 2006", true},
	{"Jan 2, 2006", true},
	{"01/02/2006", true},
	{"01/02/2006 15:04:05", true},
	{"1/2/2006", true},
	{"1/2/2006 15:04:05", true},
	{"2006/1/2", true},
	{"2006/1/2 15:04:05", true},
	{"2006/1/2 15:04", true},
}

// ParseDate parses the date formats JavaScript's Date accepts in practice. ISO dates without a
// time are UTC; date-times without an offset are local time, as in JavaScript.
func ParseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	for _, l := range dateLayouts {
		loc := time.UTC
		if l.local {
			loc = time.Local
		}
		if t, err := time.ParseInLocation(l.layout, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
