package switchnode

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// conditionsError is a condition whose values do not have the operator's type.
type conditionsError struct{ message, description string }

func (e *conditionsError) Error() string { return e.message }

// filterOptions are the settings of a filter parameter's evaluation.
type filterOptions struct {
	caseSensitive bool
	loose         bool
}

// evalConditions evaluates a resolved filter parameter value ({conditions, combinator}) for
// item itemIndex as n8n 1.x's filter type does: "and" needs every condition, "or" one of them.
func evalConditions(value any, o filterOptions, itemIndex int) (bool, error) {
	v, _ := value.(map[string]any)
	list, _ := v["conditions"].([]any)
	combinator, _ := v["combinator"].(string)
	if combinator == "" {
		combinator = "and"
	}
	for i, c := range list {
		cond, _ := c.(map[string]any)
		pass, err := evalCondition(cond, o, i, itemIndex)
		if err != nil {
			return false, err
		}
		switch {
		case combinator == "and" && !pass:
			return false, nil
		case combinator == "or" && pass:
			return true, nil
		}
	}
	return combinator == "and", nil
}

// singleValue operations take no right value.
var singleValue = map[string]bool{"exists": true, "notExists": true, "empty": true, "notEmpty": true, "true": true, "false": true}

func evalCondition(cond map[string]any, o filterOptions, index, itemIndex int) (bool, error) {
	op, _ := cond["operator"].(map[string]any)
	typ, _ := op["type"].(string)
	operation, _ := op["operation"].(string)
	rightType, _ := op["rightType"].(string)
	if rightType == "" {
		rightType = defaultRightType(typ, operation)
	}
	left, right := valueOr(cond, "leftValue"), valueOr(cond, "rightValue")
	suffix := fmt.Sprintf("[condition %d, item %d]", index, itemIndex)
	l, ok := parseFilterValue(left, typ, !o.loose)
	if !ok {
		return false, typeError(left, typ, !o.loose, suffix)
	}
	r, ok := parseFilterValue(right, rightType, !o.loose)
	if !ok && !singleValue[operation] {
		return false, typeError(right, rightType, !o.loose, suffix)
	}
	exists := l != nil && !jsv.IsUndefined(l)
	switch operation {
	case "exists":
		return exists, nil
	case "notExists":
		return !exists, nil
	}
	switch typ {
	case "string":
		ls, rs := stringOrEmpty(l), stringOrEmpty(r)
		if !o.caseSensitive {
			ls = strings.ToLower(ls)
			if operation != "regex" && operation != "notRegex" {
				rs = strings.ToLower(rs)
			}
		}
		switch operation {
		case "empty":
			return ls == "", nil
		case "notEmpty":
			return ls != "", nil
		case "equals":
			return ls == rs, nil
		case "notEquals":
			return ls != rs, nil
		case "contains":
			return strings.Contains(ls, rs), nil
		case "notContains":
			return !strings.Contains(ls, rs), nil
		case "startsWith":
			return strings.HasPrefix(ls, rs), nil
		case "notStartsWith":
			return !strings.HasPrefix(ls, rs), nil
		case "endsWith":
			return strings.HasSuffix(ls, rs), nil
		case "notEndsWith":
			return !strings.HasSuffix(ls, rs), nil
		case "regex", "notRegex":
			m, err := jsv.RegexMatch(ls, rs)
			if err != nil {
				return false, err
			}
			return m == (operation == "regex"), nil
		}
	case "number":
		if !exists && !isSet(r) {
			// undefined === undefined in JavaScript
			return operation == "equals", nil
		}
		ln, rn := jsv.ToNumber(l), jsv.ToNumber(r)
		if !exists {
			ln = math.NaN()
		}
		if !isSet(r) {
			rn = math.NaN()
		}
		switch operation {
		case "equals":
			return ln == rn, nil
		case "notEquals":
			return ln != rn, nil
		case "gt":
			return ln > rn, nil
		case "lt":
			return ln < rn, nil
		case "gte":
			return ln >= rn, nil
		case "lte":
			return ln <= rn, nil
		}
	case "dateTime":
		lt, lok := l.(time.Time)
		rt, rok := r.(time.Time)
		if !lok || !rok {
			return false, nil
		}
		a, b := lt.UnixMilli(), rt.UnixMilli()
		switch operation {
		case "equals":
			return a == b, nil
		case "notEquals":
			return a != b, nil
		case "after":
			return a > b, nil
		case "before":
			return a < b, nil
		case "afterOrEquals":
			return a >= b, nil
		case "beforeOrEquals":
			return a <= b, nil
		}
	case "boolean":
		lb, _ := l.(bool)
		switch operation {
		case "true":
			return lb, nil
		case "false":
			return !lb, nil
		case "equals":
			return jsv.StrictEqual(l, r), nil
		case "notEquals":
			return !jsv.StrictEqual(l, r), nil
		}
	case "array":
		arr, _ := l.([]any)
		if operation == "contains" || operation == "notContains" {
			if s, ok := r.(string); ok && !o.caseSensitive {
				r = strings.ToLower(s)
			}
			found := false
			for _, e := range arr {
				if jsv.StrictEqual(e, r) {
					found = true
					break
				}
			}
			return found == (operation == "contains"), nil
		}
		n, rn := float64(len(arr)), jsv.ToNumber(r)
		switch operation {
		case "lengthEquals":
			return n == rn, nil
		case "lengthNotEquals":
			return n != rn, nil
		case "lengthGt":
			return n > rn, nil
		case "lengthLt":
			return n < rn, nil
		case "lengthGte":
			return n >= rn, nil
		case "lengthLte":
			return n <= rn, nil
		case "empty":
			return len(arr) == 0, nil
		case "notEmpty":
			return len(arr) != 0, nil
		}
	case "object":
		obj, _ := l.(map[string]any)
		switch operation {
		case "empty":
			return len(obj) == 0, nil
		case "notEmpty":
			return len(obj) != 0, nil
		}
	}
	return false, nil
}

// defaultRightType is the right value's type when the operator does not name it: the editor's
// array operators compare with any value (contains) or a number (length).
func defaultRightType(typ, operation string) string {
	if typ == "array" {
		if strings.HasPrefix(operation, "length") {
			return "number"
		}
		if operation == "contains" || operation == "notContains" {
			return "any"
		}
	}
	return typ
}

func valueOr(m map[string]any, key string) any {
	if v, ok := m[key]; ok {
		return v
	}
	return workflow.Undefined{}
}

func isSet(v any) bool { return v != nil && !jsv.IsUndefined(v) }

func stringOrEmpty(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if !isSet(v) {
		return ""
	}
	return jsv.ToString(v)
}

// parseFilterValue converts a value to the operator's type as n8n's type validation does:
// strict validation accepts only values of that type (dates may be strings), loose validation
// converts strings, numbers and booleans. Missing values and type "any" pass unchanged.
func parseFilterValue(v any, typ string, strict bool) (any, bool) {
	if typ == "any" || !isSet(v) {
		return v, true
	}
	switch typ {
	case "string":
		if strict {
			_, ok := v.(string)
			return v, ok
		}
		switch v.(type) {
		case map[string]any, []any:
			// Objects and arrays become their JSON text.
			b, _ := json.Marshal(v)
			return string(b), true
		}
		return jsv.ToString(v), true
	case "number":
		if jsv.TypeOf(v) == "number" {
			return jsv.ToNumber(v), true
		}
		if strict {
			return v, false
		}
		switch v.(type) {
		case string, bool:
			f := jsv.ToNumber(v)
			return f, !math.IsNaN(f)
		}
		return v, false
	case "boolean":
		if b, ok := v.(bool); ok {
			return b, true
		}
		if strict {
			return v, false
		}
		switch strings.ToLower(strings.TrimSpace(jsv.ToString(v))) {
		case "true", "1", "yes", "y", "t":
			return true, true
		case "false", "0", "no", "n", "f":
			return false, true
		}
		return v, false
	case "dateTime":
		switch x := v.(type) {
		case time.Time:
			return x, true
		case string:
			t, ok := jsv.ParseDate(x)
			return t, ok
		}
		if f, ok := workflow.Number(v); ok && !strict {
			return time.UnixMilli(int64(f)), true
		}
		return v, false
	case "array":
		if _, ok := v.([]any); ok {
			return v, true
		}
		if s, ok := v.(string); ok && !strict {
			var a []any
			if json.Unmarshal([]byte(s), &a) == nil {
				return a, true
			}
		}
		return v, false
	case "object":
		if _, ok := v.(map[string]any); ok {
			return v, true
		}
		if s, ok := v.(string); ok && !strict {
			var o map[string]any
			if json.Unmarshal([]byte(s), &o) == nil && o != nil {
				return o, true
			}
		}
		return v, false
	}
	return v, true
}

func typeError(v any, typ string, strict bool, suffix string) error {
	from := strings.ToLower(jsv.TypeOf(v))
	if strict {
		return &conditionsError{
			message:     fmt.Sprintf("Wrong type: '%s' is %s but was expecting %s %s", jsv.ToString(v), article(from), article(typ), suffix),
			description: "Try changing the type of comparison.",
		}
	}
	return &conditionsError{
		message:     fmt.Sprintf("Conversion error: the %s '%s' can't be converted to %s %s", from, jsv.ToString(v), article(typ), suffix),
		description: "Try changing the type of comparison.",
	}
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}
