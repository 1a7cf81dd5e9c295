package switchnode

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestConditionOperators(t *testing.T) {
	t.Parallel()
	strict := filterOptions{caseSensitive: true}
	loose := filterOptions{caseSensitive: true, loose: true}
	tests := []struct {
		typ, op     string
		left, right any
		o           filterOptions
		want        bool
	}{
		{"string", "exists", "", nil, strict, true},
		{"string", "exists", nil, nil, strict, false},
		{"string", "notExists", workflow.Undefined{}, nil, strict, true},
		{"string", "empty", "", nil, strict, true},
		{"string", "notEmpty", "a", nil, strict, true},
		{"string", "equals", "Abc", "abc", strict, false},
		{"string", "equals", "Abc", "abc", filterOptions{}, true},
		{"string", "contains", "hello", "ell", strict, true},
		{"string", "notStartsWith", "hello", "he", strict, false},
		{"string", "endsWith", "hello", "lo", strict, true},
		{"string", "regex", "Hello", "/^h/i", strict, true},
		{"string", "notRegex", "Hello", "^h", strict, true},
		{"string", "equals", 5.0, "5", loose, true},
		{"string", "equals", []any{1.0, "a"}, `[1,"a"]`, loose, true},
		{"number", "gt", 5.0, 3.0, strict, true},
		{"number", "lte", 3.0, 3.0, strict, true},
		{"number", "notEquals", workflow.Undefined{}, 3.0, strict, true},
		{"number", "equals", "3", 3.0, loose, true},
		{"dateTime", "after", "2024-02-01", "2024-01-01", strict, true},
		{"dateTime", "beforeOrEquals", "2024-01-01T00:00:00Z", "2024-01-01", strict, true},
		{"dateTime", "equals", nil, "2024-01-01", strict, false},
		{"boolean", "true", true, nil, strict, true},
		{"boolean", "false", "false", nil, loose, true},
		{"boolean", "equals", true, false, strict, false},
		{"array", "contains", []any{"a", "B"}, "b", filterOptions{}, false},
		{"array", "contains", []any{"a", "b"}, "B", filterOptions{}, true},
		{"array", "lengthLt", []any{1.0}, 2.0, strict, true},
		{"array", "notEmpty", `[1]`, nil, loose, true},
		{"object", "empty", map[string]any{}, nil, strict, true},
		{"object", "notEmpty", `{"a":1}`, nil, loose, true},
	}
	for _, tc := range tests {
		cond := map[string]any{"leftValue": tc.left, "rightValue": tc.right, "operator": map[string]any{"type": tc.typ, "operation": tc.op}}
		got, err := evalCondition(cond, tc.o, 0, 0)
		require.NoError(t, err, "%s %s %v %v", tc.typ, tc.op, tc.left, tc.right)
		require.Equal(t, tc.want, got, "%s %s %v %v", tc.typ, tc.op, tc.left, tc.right)
	}
}

func TestConditionCombinators(t *testing.T) {
	t.Parallel()
	yes := map[string]any{"leftValue": 1.0, "rightValue": 1.0, "operator": map[string]any{"type": "number", "operation": "equals"}}
	no := map[string]any{"leftValue": 1.0, "rightValue": 2.0, "operator": map[string]any{"type": "number", "operation": "equals"}}
	for _, tc := range []struct {
		combinator string
		conds      []any
		want       bool
	}{
		{"and", []any{yes, no}, false},
		{"and", []any{yes, yes}, true},
		{"or", []any{no, yes}, true},
		{"or", []any{no, no}, false},
		{"", []any{yes}, true},
	} {
		got, err := evalConditions(map[string]any{"combinator": tc.combinator, "conditions": tc.conds}, filterOptions{}, 0)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, tc.combinator)
	}
}

func TestConditionTypeErrors(t *testing.T) {
	t.Parallel()
	cond := map[string]any{"leftValue": []any{1.0}, "rightValue": "x", "operator": map[string]any{"type": "string", "operation": "equals"}}
	_, err := evalCondition(cond, filterOptions{}, 2, 5)
	require.EqualError(t, err, "Wrong type: '1' is an object but was expecting a string [condition 2, item 5]")
	cond = map[string]any{"leftValue": "soon", "rightValue": "2024-01-01", "operator": map[string]any{"type": "dateTime", "operation": "after"}}
	_, err = evalCondition(cond, filterOptions{loose: true}, 0, 0)
	require.EqualError(t, err, "Conversion error: the string 'soon' can't be converted to a dateTime [condition 0, item 0]")
}
