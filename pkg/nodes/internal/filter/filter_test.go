package filter_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/internal/filter"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func one(left any, typ, op string, right any, opts m) filter.Value {
	c := m{"leftValue": left, "operator": m{"type": typ, "operation": op}}
	if right != nil {
		c["rightValue"] = right
	}
	return filter.Parse(m{"options": opts, "combinator": "and", "conditions": []any{c}})
}

func TestConditions(t *testing.T) {
	t.Parallel()
	loose := m{"caseSensitive": true, "typeValidation": "loose"}
	strict := m{"caseSensitive": true, "typeValidation": "strict"}
	ignoreCase := m{"caseSensitive": false, "typeValidation": "strict"}
	v2loose := m{"caseSensitive": true, "typeValidation": "loose", "version": 2.0}
	v3loose := m{"caseSensitive": true, "typeValidation": "loose", "version": 3.0}
	tests := []struct {
		name  string
		value filter.Value
		want  bool
	}{
		{"string equals", one("abc", "string", "equals", "abc", strict), true},
		{"string equals is case sensitive", one("ABC", "string", "equals", "abc", strict), false},
		{"string equals ignoring case", one("ABC", "string", "equals", "abc", ignoreCase), true},
		{"contains", one("hello world", "string", "contains", "o w", strict), true},
		{"notContains", one("hello", "string", "notContains", "x", strict), true},
		{"startsWith ignoring case", one("Shane", "string", "startsWith", "s", ignoreCase), true},
		{"endsWith", one("a@yahoo.com", "string", "endsWith", "@yahoo.com", strict), true},
		{"notEndsWith", one("a@yahoo.com", "string", "notEndsWith", ".com", strict), false},
		{"regex literal", one("Sam", "string", "regex", "/^[A-Z][a-z]*$/", strict), true},
		{"ignore case lowers the text but not the pattern", one("Sam", "string", "regex", "^S", ignoreCase), false},
		{"notRegex", one("SAM", "string", "notRegex", "^[a-z]+$", strict), true},
		{"string empty", one("", "string", "empty", nil, strict), true},
		{"missing string is empty", one(workflow.Undefined{}, "string", "empty", nil, strict), true},
		{"number in a string converted in loose mode", one("10", "number", "gt", "9", loose), true},
		{"number equals", one(1.0, "number", "equals", 1.0, strict), true},
		{"number lte", one(3.0, "number", "lte", 2.0, strict), false},
		{"number notEquals", one(3.0, "number", "notEquals", 2.0, strict), true},
		{"date before", one("2023-10-20T16:45:52.367Z", "dateTime", "before", "2023-10-21", strict), true},
		{"date after", one("2023-10-26T16:45:52.367Z", "dateTime", "after", "2023-10-21T00:00:00Z", strict), true},
		{"date equals", one("2023-10-26T00:00:00Z", "dateTime", "equals", "2023-10-26T00:00:00.000Z", strict), true},
		{"missing date never compares", one(nil, "dateTime", "before", "2023-10-21", strict), false},
		{"boolean true", one(true, "boolean", "true", nil, strict), true},
		{"version 1: a loose boolean is JavaScript truthiness", one("false", "boolean", "false", nil, loose), false},
		{"version 2: a loose boolean string is parsed", one("false", "boolean", "false", nil, v2loose), true},
		{"version 2: an unparsable loose boolean is truthiness", one("yes", "boolean", "true", nil, v2loose), true},
		{"version 1: an empty string is the number 0", one("", "number", "equals", 0.0, loose), true},
		{"version 3: an empty string is no number", one("", "number", "equals", 0.0, v3loose), false},
		{"version 3: an empty list is no number", one([]any{}, "number", "empty", nil, v3loose), true},
		{"number empty", one(nil, "number", "empty", nil, strict), true},
		{"number notEmpty", one(0.0, "number", "notEmpty", nil, strict), true},
		{"dateTime empty", one(workflow.Undefined{}, "dateTime", "empty", nil, strict), true},
		{"boolean notEmpty", one(false, "boolean", "notEmpty", nil, strict), true},
		{"boolean equals", one(true, "boolean", "equals", false, strict), false},
		{"exists", one("x", "any", "exists", nil, strict), true},
		{"null does not exist", one(nil, "any", "exists", nil, strict), true == false},
		{"notExists on undefined", one(workflow.Undefined{}, "string", "notExists", nil, strict), true},
		{"array contains", filter.Parse(m{"options": strict, "combinator": "and", "conditions": []any{
			m{"leftValue": []any{"a", 2.0}, "rightValue": 2.0, "operator": m{"type": "array", "operation": "contains", "rightType": "any"}}}}), true},
		{"array contains ignoring case", filter.Parse(m{"options": ignoreCase, "combinator": "and", "conditions": []any{
			m{"leftValue": []any{"a"}, "rightValue": "A", "operator": m{"type": "array", "operation": "contains", "rightType": "any"}}}}), true},
		{"array length", filter.Parse(m{"options": strict, "combinator": "and", "conditions": []any{
			m{"leftValue": []any{1.0, 2.0}, "rightValue": 2.0, "operator": m{"type": "array", "operation": "lengthGte", "rightType": "number"}}}}), true},
		{"array from a JSON string in loose mode", one("[1,2]", "array", "notEmpty", nil, loose), true},
		{"object empty", one(m{}, "object", "empty", nil, strict), true},
		{"object notEmpty", one(m{"a": 1.0}, "object", "notEmpty", nil, strict), true},
		{"unknown operation fails", one("a", "string", "sounds like", "a", strict), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := tc.value.Execute(0)
			require.NoError(t, err)
			require.Equal(t, tc.want, workflow.ToMaps(got))
		})
	}
}

func TestCombinator(t *testing.T) {
	t.Parallel()
	yes := m{"leftValue": "a", "rightValue": "a", "operator": m{"type": "string", "operation": "equals"}}
	no := m{"leftValue": "a", "rightValue": "b", "operator": m{"type": "string", "operation": "equals"}}
	for _, tc := range []struct {
		combinator string
		conds      []any
		want       bool
	}{
		{"and", []any{yes, no}, false},
		{"and", []any{yes, yes}, true},
		{"or", []any{no, yes}, true},
		{"or", []any{no, no}, false},
		{"and", nil, true},
		{"or", nil, false},
	} {
		got, err := filter.Parse(m{"combinator": tc.combinator, "conditions": tc.conds}).Execute(0)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, "%s %v", tc.combinator, tc.conds)
	}
}

func TestTypeErrors(t *testing.T) {
	t.Parallel()
	strict := m{"caseSensitive": true, "typeValidation": "strict"}
	loose := m{"caseSensitive": true, "typeValidation": "loose"}
	_, err := one("10", "number", "gt", 9.0, strict).Execute(3)
	require.EqualError(t, err, "Wrong type: '10' is a string but was expecting a number [condition 0, item 3]")
	var fe *filter.Error
	require.ErrorAs(t, err, &fe)
	require.Equal(t, filter.TypeHint, fe.Description)

	_, err = one("abc", "number", "gt", 9.0, loose).Execute(0)
	require.EqualError(t, err, "Conversion error: the string 'abc' can't be converted to a number [condition 0, item 0]")

	_, err = one("2020-01-01", "dateTime", "after", "not a date", loose).Execute(1)
	require.EqualError(t, err, "Conversion error: the string 'not a date' can't be converted to a dateTime [condition 0, item 1]")

	_, err = one("x", "string", "regex", "([", strict).Execute(0)
	require.Error(t, err)

	_, err = one("ten", "number", "gt", "nine", loose).Execute(0)
	require.EqualError(t, err, "Comparison type expects a number but both fields are a string")
	_, err = one("ten", "number", "gt", true, loose).Execute(0)
	require.EqualError(t, err, "Conversion error: the string 'ten' can't be converted to a number [condition 0, item 0]")
}

// Operators as the editor stores them in Switch 3 rules: no rightType and no singleValue flag,
// so the right operand's type and whether it is used follow from the operation.
func TestOperatorsWithoutRightTypeOrSingleValue(t *testing.T) {
	t.Parallel()
	strict := m{"caseSensitive": true, "typeValidation": "strict"}
	loose := m{"caseSensitive": true, "typeValidation": "loose"}
	ignoreCase := m{"caseSensitive": false, "typeValidation": "strict"}
	tests := []struct {
		typ, op     string
		left, right any
		opts        m
		want        bool
	}{
		{"string", "exists", "", nil, strict, true},
		{"string", "exists", nil, nil, strict, false},
		{"string", "notEmpty", "a", 5.0, strict, true},
		{"string", "equals", "Abc", "abc", strict, false},
		{"string", "equals", "Abc", "abc", ignoreCase, true},
		{"string", "notStartsWith", "hello", "he", strict, false},
		{"string", "regex", "Hello", "/^h/i", strict, true},
		{"string", "notRegex", "Hello", "^h", strict, true},
		{"string", "equals", 5.0, "5", loose, true},
		{"string", "equals", []any{1.0, "a"}, `[1,"a"]`, loose, true},
		{"number", "gt", 5.0, 3.0, strict, true},
		{"number", "notEquals", workflow.Undefined{}, 3.0, strict, true},
		{"number", "equals", "3", 3.0, loose, true},
		{"dateTime", "beforeOrEquals", "2024-01-01T00:00:00Z", "2024-01-01", strict, true},
		{"boolean", "false", "false", 1.0, m{"typeValidation": "loose", "version": 2.0}, true},
		{"boolean", "true", "false", 1.0, loose, true},
		{"boolean", "true", true, "not a boolean", strict, true},
		{"array", "contains", []any{"a", "B"}, "b", ignoreCase, true},
		{"array", "contains", []any{1.0}, "1", ignoreCase, false},
		{"array", "contains", []any{"a", "b"}, "B", ignoreCase, true},
		{"array", "contains", []any{1.0, "x"}, 1.0, strict, true},
		{"array", "lengthLt", []any{1.0}, 2.0, strict, true},
		{"array", "lengthEquals", []any{1.0, 2.0}, "2", loose, true},
		{"array", "notEmpty", `[1]`, nil, loose, true},
		{"object", "empty", m{}, "x", strict, true},
		{"object", "notEmpty", `{"a":1}`, nil, loose, true},
	}
	for _, tc := range tests {
		c := m{"leftValue": tc.left, "rightValue": tc.right, "operator": m{"type": tc.typ, "operation": tc.op}}
		got, err := filter.Parse(m{"options": tc.opts, "conditions": []any{c}}).Execute(0)
		require.NoError(t, err, "%s %s %v %v", tc.typ, tc.op, tc.left, tc.right)
		require.Equal(t, tc.want, workflow.ToMaps(got), "%s %s %v %v", tc.typ, tc.op, tc.left, tc.right)
	}
}

func TestEmptyCombinatorIsAnd(t *testing.T) {
	t.Parallel()
	yes := m{"leftValue": 1.0, "rightValue": 1.0, "operator": m{"type": "number", "operation": "equals"}}
	no := m{"leftValue": 1.0, "rightValue": 2.0, "operator": m{"type": "number", "operation": "equals"}}
	got, err := filter.Parse(m{"combinator": "", "conditions": []any{yes}}).Execute(0)
	require.NoError(t, err)
	require.True(t, got)
	got, err = filter.Parse(m{"combinator": "", "conditions": []any{yes, no}}).Execute(0)
	require.NoError(t, err)
	require.False(t, got)
}

func TestNodeOptions(t *testing.T) {
	t.Parallel()
	stored := m{"caseSensitive": true, "typeValidation": "strict"}
	v := one("ABC", "string", "equals", "abc", stored)
	got, err := v.WithNodeOptions(m{"ignoreCase": true}).Execute(0)
	require.NoError(t, err)
	require.True(t, got, "ignoreCase on the node overrides the stored case sensitivity")
	got, err = v.WithNodeOptions(m{}).Execute(0)
	require.NoError(t, err)
	require.False(t, got, "options the node does not set keep the stored ones")

	v = one("10", "number", "gt", 9.0, stored)
	_, err = v.WithNodeOptions(m{"looseTypeValidation": false}).Execute(0)
	require.EqualError(t, err, "Wrong type: '10' is a string but was expecting a number [condition 0, item 0]")
	got, err = v.WithNodeOptions(m{"looseTypeValidation": true}).Execute(0)
	require.NoError(t, err)
	require.True(t, got, "looseTypeValidation converts the string")

	v = one("10", "number", "gt", 9.0, m{"typeValidation": "loose"})
	_, err = v.WithNodeOptions(m{"looseTypeValidation": false}).Execute(0)
	require.Error(t, err, "a node that turns loose validation off is strict")
}

func TestTypeErrorNamesConditionAndItem(t *testing.T) {
	t.Parallel()
	strict := m{"caseSensitive": true, "typeValidation": "strict"}
	loose := m{"caseSensitive": true, "typeValidation": "loose"}
	c := m{"leftValue": "x", "rightValue": "x", "operator": m{"type": "string", "operation": "equals"}}
	bad := m{"leftValue": []any{1.0}, "rightValue": "x", "operator": m{"type": "string", "operation": "equals"}}
	_, err := filter.Parse(m{"options": strict, "conditions": []any{c, c, bad}}).Execute(5)
	require.EqualError(t, err, "Wrong type: '1' is an object but was expecting a string [condition 2, item 5]")
	_, err = one("soon", "dateTime", "after", "2024-01-01", loose).Execute(0)
	require.EqualError(t, err, "Conversion error: the string 'soon' can't be converted to a dateTime [condition 0, item 0]")
}
