// Package fieldtype checks and converts values to the field types of n8n 1.x (its
// validateFieldType): string, number, boolean, dateTime, array and object. Set 3.x uses it for
// its typed fields, the filter conditions of IF 2, Filter 2 and Switch 3 for their operands.
package fieldtype

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Options tune Validate. Strict refuses a value whose JavaScript type is not already the
// wanted one; ParseStrings converts values to strings for the string type (otherwise any
// value is a valid string).
type Options struct {
	Strict       bool
	ParseStrings bool
}

// Validate converts v to the field type typ ("string", "number", "boolean", "dateTime",
// "array", "object"; other types accept any value). null and undefined are valid and come back
// as they are. A value that cannot be converted is an error naming the field and the value:
// "'name' expects a number but we got 'abc'". A dateTime comes back as a time.Time.
func Validate(name string, v any, typ string, o Options) (any, error) {
	if v == nil || jsv.IsUndefined(v) {
		return v, nil
	}
	fail := func() (any, error) {
		return nil, fmt.Errorf("'%s' expects a %s but we got %s", name, typ, Describe(v))
	}
	switch strings.ToLower(typ) {
	case "string":
		if !o.ParseStrings {
			return v, nil
		}
		if _, ok := v.(string); o.Strict && !ok {
			return fail()
		}
		return ToString(v), nil
	case "number":
		if o.Strict && jsv.TypeOf(v) != "number" {
			return fail()
		}
		f := jsv.ToNumber(v)
		if math.IsNaN(f) {
			return fail()
		}
		return f, nil
	case "boolean":
		if _, ok := v.(bool); o.Strict && !ok {
			return fail()
		}
		b, ok := ParseBoolean(v)
		if !ok {
			return fail()
		}
		return b, nil
	case "datetime":
		t, ok := ParseDateTime(v)
		if !ok {
			return nil, fmt.Errorf("'%s' expects a %s but we got %s", name, typ, Describe(v))
		}
		return t, nil
	case "object":
		if o.Strict && jsv.TypeOf(v) != "object" {
			return fail()
		}
		obj, ok := ParseObject(v)
		if !ok {
			return fail()
		}
		return obj, nil
	case "array":
		if _, ok := v.([]any); o.Strict && !ok {
			return fail()
		}
		arr, ok := ParseArray(v)
		if !ok {
			return fail()
		}
		return arr, nil
	}
	return v, nil
}

// Describe names a value in error messages as n8n does: 'text' for primitives, array, object,
// 'null'.
func Describe(v any) string {
	switch v.(type) {
	case nil:
		return "'null'"
	case []any:
		return "array"
	case map[string]any, *workflow.Object:
		return "object"
	}
	return "'" + jsv.ToString(v) + "'"
}

// ToString converts a value to a string as n8n's string fields do: objects and arrays as JSON,
// undefined as the empty string, anything else as JavaScript's String().
func ToString(v any) string {
	switch v.(type) {
	case map[string]any, *workflow.Object, []any, nil:
		return Stringify(v)
	case workflow.Undefined:
		return ""
	}
	return jsv.ToString(v)
}

// Stringify is JSON.stringify for JSON-like values.
func Stringify(v any) string {
	if t, ok := v.(time.Time); ok {
		return `"` + t.UTC().Format("2006-01-02T15:04:05.000Z") + `"`
	}
	b, err := json.Marshal(v)
	if err != nil {
		return jsv.ToString(v)
	}
	return string(b)
}

// ParseBoolean reads true/false (any case), booleans, and values whose number is 0 or 1.
func ParseBoolean(v any) (bool, bool) {
	if b, ok := v.(bool); ok {
		return b, true
	}
	if s, ok := v.(string); ok {
		switch strings.ToLower(s) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
		if strings.TrimSpace(s) == "" {
			return false, false
		}
	}
	switch jsv.ToNumber(v) {
	case 0:
		return false, true
	case 1:
		return true, true
	}
	return false, false
}

// ParseArray keeps arrays and parses strings holding a JSON array (single quotes allowed).
func ParseArray(v any) ([]any, bool) {
	if a, ok := v.([]any); ok {
		return a, true
	}
	s := jsv.ToString(v)
	out, err := workflow.DecodeJSONValue([]byte(s))
	if err != nil {
		if out, err = workflow.DecodeJSONValue([]byte(strings.ReplaceAll(s, "'", `"`))); err != nil {
			return nil, false
		}
	}
	a, ok := out.([]any)
	return a, ok
}

var unquotedKey = regexp.MustCompile(`([{,]\s*)([A-Za-z0-9_$]+)\s*:`)

// ParseObject keeps objects and parses strings holding a JSON object; as n8n's jsonParse with
// acceptJSObject, unquoted keys and single quotes are accepted.
func ParseObject(v any) (*workflow.Object, bool) {
	if m, ok := workflow.AsObject(v); ok {
		return m, true
	}
	out, ok := ParseJSObject(jsv.ToString(v))
	if !ok {
		return nil, false
	}
	m, ok := out.(*workflow.Object)
	return m, ok && m != nil
}

// ParseJSON parses JSON text into JSON-like values (objects as *workflow.Object in document
// order, numbers as float64).
func ParseJSON(s string) (any, bool) {
	out, err := workflow.DecodeJSONValue([]byte(s))
	if err != nil {
		return nil, false
	}
	return out, true
}

// ParseJSObject parses JSON, or failing that a JavaScript object literal with unquoted keys
// and single-quoted strings.
func ParseJSObject(s string) (any, bool) {
	if out, err := workflow.DecodeJSONValue([]byte(s)); err == nil {
		return out, true
	}
	fixed := unquotedKey.ReplaceAllString(strings.ReplaceAll(s, "'", `"`), `$1"$2":`)
	out, err := workflow.DecodeJSONValue([]byte(fixed))
	if err != nil {
		return nil, false
	}
	return out, true
}

var dateOnly = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// ParseDateTime reads dates as n8n's tryToParseDateTime does with luxon: ISO 8601 (a date
// without a time is local midnight), HTTP and RFC 2822 dates, SQL date-times, then what
// JavaScript's Date.parse accepts.
func ParseDateTime(v any) (time.Time, bool) {
	if t, ok := v.(time.Time); ok {
		return t, true
	}
	s := strings.TrimSpace(jsv.ToString(v))
	if dateOnly.MatchString(s) {
		t, err := time.ParseInLocation("2006-01-02", s, time.Local)
		return t, err == nil
	}
	return jsv.ParseDate(s)
}
