// Package filter evaluates n8n 1.x's filter-conditions parameter (type "filter"), shared by IF 2,
// Filter 2 and the rules of Switch 3: a list of conditions, each a left value, an operator {type, operation,
// rightType, singleValue} and a right value, combined with "and" or "or". Operands are
// converted to the operator's type first: in strict type validation a value of another type is
// an error, in loose validation it is converted when it can be (the string "10" to a number). The node's
// options ignoreCase and looseTypeValidation override the settings stored in the value.
//
// The conditions have their own version, which the node's type version picks: from version 2 a
// loose boolean operand is parsed ("false" is false) before falling back to JavaScript truthiness,
// and from version 3 an empty string or empty list given as a number is no value at all.
package filter

import (
	"fmt"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes/internal/fieldtype"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Error is a condition that cannot be evaluated (an operand of the wrong type, a bad regular
// expression), with a hint for the user.
type Error struct {
	Message     string
	Description string
}

func (e *Error) Error() string { return e.Message }

// TypeHint is the description of a type error, as n8n words it.
const TypeHint = "Try changing the type of comparison."

// Value is a filter parameter's value.
type Value struct {
	CaseSensitive bool
	Strict        bool
	// Version is the conditions' version (1 to 3).
	Version    int
	Combinator string
	Conditions []map[string]any
}

// Parse reads a filter parameter value ({options, conditions, combinator}); a missing
// combinator is "and", missing options are case sensitive, loose and version 1.
func Parse(v any) Value {
	m, _ := v.(map[string]any)
	val := Value{CaseSensitive: true, Combinator: "and", Version: 1}
	if opts, ok := m["options"].(map[string]any); ok {
		if b, ok := opts["caseSensitive"].(bool); ok {
			val.CaseSensitive = b
		}
		val.Strict = opts["typeValidation"] == "strict"
		if n, ok := workflow.Number(opts["version"]); ok && n >= 1 {
			val.Version = int(n)
		}
	}
	if c, ok := m["combinator"].(string); ok && c != "" {
		val.Combinator = c
	}
	list, _ := m["conditions"].([]any)
	for _, c := range list {
		if cm, ok := c.(map[string]any); ok {
			val.Conditions = append(val.Conditions, cm)
		}
	}
	return val
}

// WithNodeOptions applies a node's options to the evaluation as IF 2, Filter 2 and Switch 3
// do through their filter type options: ignoreCase makes comparisons case insensitive and
// looseTypeValidation converts operands instead of refusing them. Options the node does not
// set leave the value's own settings.
func (v Value) WithNodeOptions(options map[string]any) Value {
	if b, ok := options["ignoreCase"].(bool); ok {
		v.CaseSensitive = !b
	}
	if b, ok := options["looseTypeValidation"].(bool); ok {
		v.Strict = !b
	}
	return v
}

// Execute reports whether an item passes: every condition for "and", any for "or". No
// conditions pass with "and" and fail with "or"; an unknown combinator fails.
func (v Value) Execute(itemIndex int) (bool, error) {
	switch v.Combinator {
	case "and":
		for i, c := range v.Conditions {
			ok, err := v.condition(c, i, itemIndex)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case "or":
		for i, c := range v.Conditions {
			ok, err := v.condition(c, i, itemIndex)
			if err != nil || ok {
				return ok, err
			}
		}
	}
	return false, nil
}

func operand(c map[string]any, key string) any {
	if v, ok := c[key]; ok {
		return v
	}
	return workflow.Undefined{}
}

func (v Value) parseOperand(value any, typ string, index, itemIndex int) (any, error) {
	if typ == "any" || value == nil || jsv.IsUndefined(value) {
		return value, nil
	}
	switch typ {
	case "boolean":
		if !v.Strict {
			if v.Version >= 2 {
				if b, ok := fieldtype.ParseBoolean(value); ok {
					return b, nil
				}
			}
			return workflow.Truthy(value), nil
		}
	case "number":
		if f, ok := value.(float64); ok && f != f {
			return value, nil
		}
		if v.Version >= 3 && isEmptyOperand(value) {
			return nil, nil
		}
	}
	out, err := fieldtype.Validate("filter", value, typ, fieldtype.Options{Strict: v.Strict, ParseStrings: true})
	if err == nil {
		return out, nil
	}
	from := strings.ToLower(jsv.TypeOf(value))
	suffix := fmt.Sprintf("[condition %d, item %d]", index, itemIndex)
	if v.Strict {
		return nil, &Error{Message: fmt.Sprintf("Wrong type: '%s' is %s but was expecting %s %s",
			jsv.ToString(value), article(from), article(typ), suffix), Description: TypeHint}
	}
	return nil, &Error{Message: fmt.Sprintf("Conversion error: the %s '%s' can't be converted to %s %s",
		from, jsv.ToString(value), article(typ), suffix), Description: TypeHint}
}

// isEmptyOperand reports an empty (or blank) string or an empty list, which a number would
// otherwise read as 0.
func isEmptyOperand(value any) bool {
	switch x := value.(type) {
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	}
	return false
}

func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

func (v Value) condition(c map[string]any, index, itemIndex int) (bool, error) {
	op, _ := c["operator"].(map[string]any)
	typ, _ := op["type"].(string)
	operation, _ := op["operation"].(string)
	rightType, _ := op["rightType"].(string)
	if rightType == "" {
		rightType = defaultRightType(typ, operation)
	}
	singleValue, _ := op["singleValue"].(bool)
	singleValue = singleValue || singleValueOperations[operation]
	leftValue, rightValue := operand(c, "leftValue"), operand(c, "rightValue")
	left, leftErr := v.parseOperand(leftValue, typ, index, itemIndex)
	right, rightErr := v.parseOperand(rightValue, rightType, index, itemIndex)
	if rightErr != nil && singleValue {
		right, rightErr = nil, nil
	}
	if leftErr != nil && rightErr != nil && jsv.TypeOf(leftValue) == jsv.TypeOf(rightValue) {
		return false, &Error{Message: fmt.Sprintf("Comparison type expects %s but both fields are %s",
			article(typ), article(jsv.TypeOf(leftValue))), Description: TypeHint}
	}
	if leftErr != nil {
		return false, leftErr
	}
	if rightErr != nil {
		return false, rightErr
	}
	exists := left != nil && !jsv.IsUndefined(left)
	if f, ok := left.(float64); ok && f != f {
		exists = false
	}
	switch operation {
	case "exists":
		return exists, nil
	case "notExists":
		return !exists, nil
	}
	// Numbers, dates and booleans are empty when they have no value.
	if typ == "number" || typ == "dateTime" || typ == "boolean" {
		switch operation {
		case "empty":
			return !exists, nil
		case "notEmpty":
			return exists, nil
		}
	}
	switch typ {
	case "string":
		return v.stringOp(operation, left, right)
	case "number":
		return numberOp(operation, left, right), nil
	case "dateTime":
		return dateOp(operation, left, right), nil
	case "boolean":
		return booleanOp(operation, left, right), nil
	case "array":
		return v.arrayOp(operation, left, right), nil
	case "object":
		n := 0
		if m, ok := workflow.AsObject(left); ok {
			n = m.Len()
		}
		switch operation {
		case "empty":
			return n == 0, nil
		case "notEmpty":
			return n != 0, nil
		}
	}
	return false, nil
}

// singleValueOperations take no right value, whether or not the operator says so.
var singleValueOperations = map[string]bool{"exists": true, "notExists": true, "empty": true, "notEmpty": true, "true": true, "false": true}

// defaultRightType is the right operand's type when the operator does not name it: the
// array operators compare with any value (contains) or a number (length), the others with
// their own type.
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

func (v Value) stringOp(operation string, left, right any) (bool, error) {
	l, _ := left.(string)
	r, _ := right.(string)
	regex := operation == "regex" || operation == "notRegex"
	if !v.CaseSensitive {
		l = strings.ToLower(l)
		if !regex {
			r = strings.ToLower(r)
		}
	}
	switch operation {
	case "empty":
		return l == "", nil
	case "notEmpty":
		return l != "", nil
	case "equals":
		return l == r, nil
	case "notEquals":
		return l != r, nil
	case "contains":
		return strings.Contains(l, r), nil
	case "notContains":
		return !strings.Contains(l, r), nil
	case "startsWith":
		return strings.HasPrefix(l, r), nil
	case "notStartsWith":
		return !strings.HasPrefix(l, r), nil
	case "endsWith":
		return strings.HasSuffix(l, r), nil
	case "notEndsWith":
		return !strings.HasSuffix(l, r), nil
	case "regex", "notRegex":
		ok, err := jsv.RegexMatch(l, r)
		if err != nil {
			return false, &Error{Message: err.Error(), Description: "Check the regular expression."}
		}
		return ok == (operation == "regex"), nil
	}
	return false, nil
}

func numberOp(operation string, l, r any) bool {
	switch operation {
	case "equals":
		return jsv.StrictEqual(l, r)
	case "notEquals":
		return !jsv.StrictEqual(l, r)
	case "gt":
		return jsv.Greater(l, r)
	case "lt":
		return jsv.Less(l, r)
	case "gte":
		return jsv.GreaterEqual(l, r)
	case "lte":
		return jsv.LessEqual(l, r)
	}
	return false
}

func dateOp(operation string, left, right any) bool {
	l, lok := left.(time.Time)
	r, rok := right.(time.Time)
	if !lok || !rok {
		return false
	}
	a, b := l.UnixMilli(), r.UnixMilli()
	switch operation {
	case "equals":
		return a == b
	case "notEquals":
		return a != b
	case "after":
		return a > b
	case "before":
		return a < b
	case "afterOrEquals":
		return a >= b
	case "beforeOrEquals":
		return a <= b
	}
	return false
}

func booleanOp(operation string, l, r any) bool {
	switch operation {
	case "true":
		return workflow.Truthy(l)
	case "false":
		return !workflow.Truthy(l)
	case "equals":
		return jsv.StrictEqual(l, r)
	case "notEquals":
		return !jsv.StrictEqual(l, r)
	}
	return false
}

func (v Value) arrayOp(operation string, left, right any) bool {
	l, _ := left.([]any)
	n := float64(len(l))
	rn, _ := workflow.Number(right)
	switch operation {
	case "contains", "notContains":
		return v.arrayContains(l, right) == (operation == "contains")
	case "lengthEquals":
		return n == rn
	case "lengthNotEquals":
		return n != rn
	case "lengthGt":
		return n > rn
	case "lengthLt":
		return n < rn
	case "lengthGte":
		return n >= rn
	case "lengthLte":
		return n <= rn
	case "empty":
		return len(l) == 0
	case "notEmpty":
		return len(l) != 0
	}
	return false
}

// arrayContains is Array.prototype.includes; ignoring case, a string matches the strings
// equal to it in lower case.
func (v Value) arrayContains(list []any, value any) bool {
	s, isString := value.(string)
	for _, e := range list {
		if !v.CaseSensitive && isString {
			if es, ok := e.(string); ok && strings.ToLower(es) == strings.ToLower(s) {
				return true
			}
			continue
		}
		if sameValueZero(e, value) {
			return true
		}
	}
	return false
}

// sameValueZero is Array.prototype.includes' comparison: === except that NaN equals NaN.
func sameValueZero(a, b any) bool {
	fa, aok := workflow.Number(a)
	fb, bok := workflow.Number(b)
	if aok && bok && fa != fa && fb != fb {
		return true
	}
	return jsv.StrictEqual(a, b)
}
