package fieldtype_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/internal/fieldtype"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestValidateLoose(t *testing.T) {
	t.Parallel()
	loose := fieldtype.Options{}
	tests := []struct {
		value any
		typ   string
		want  any
	}{
		{"3.14", "number", 3.14},
		{" ", "number", 0.0},
		{true, "number", 1.0},
		{"TRUE", "boolean", true},
		{"0", "boolean", false},
		{1.0, "boolean", true},
		{`["a", 1]`, "array", []any{"a", 1.0}},
		{"['a']", "array", []any{"a"}},
		{`{"a": {"b": 1}}`, "object", m{"a": m{"b": 1.0}}},
		{"{a: 'x'}", "object", m{"a": "x"}},
		{5.0, "string", 5.0},
		{nil, "number", nil},
		{workflow.Undefined{}, "object", workflow.Undefined{}},
	}
	for _, tc := range tests {
		got, err := fieldtype.Validate("f", tc.value, tc.typ, loose)
		require.NoError(t, err, "%v as %s", tc.value, tc.typ)
		require.Equal(t, tc.want, workflow.ToMaps(got), "%v as %s", tc.value, tc.typ)
	}
}

func TestValidateErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value any
		typ   string
		opts  fieldtype.Options
		msg   string
	}{
		{"abc", "number", fieldtype.Options{}, "'f' expects a number but we got 'abc'"},
		{"2", "boolean", fieldtype.Options{}, "'f' expects a boolean but we got '2'"},
		{"", "boolean", fieldtype.Options{}, "'f' expects a boolean but we got ''"},
		{"3", "array", fieldtype.Options{}, "'f' expects a array but we got '3'"},
		{[]any{1.0}, "object", fieldtype.Options{}, "'f' expects a object but we got array"},
		{"1", "number", fieldtype.Options{Strict: true}, "'f' expects a number but we got '1'"},
		{1.0, "string", fieldtype.Options{Strict: true, ParseStrings: true}, "'f' expects a string but we got '1'"},
		{"x", "dateTime", fieldtype.Options{}, "'f' expects a dateTime but we got 'x'"},
	} {
		_, err := fieldtype.Validate("f", tc.value, tc.typ, tc.opts)
		require.EqualError(t, err, tc.msg)
	}
}

func TestStringsAndDates(t *testing.T) {
	t.Parallel()
	s, err := fieldtype.Validate("f", m{"a": []any{1.0}}, "string", fieldtype.Options{ParseStrings: true})
	require.NoError(t, err)
	require.Equal(t, `{"a":[1]}`, s)
	require.Equal(t, "", fieldtype.ToString(workflow.Undefined{}))

	d, ok := fieldtype.ParseDateTime("2023-10-21")
	require.True(t, ok)
	require.Equal(t, time.Date(2023, 10, 21, 0, 0, 0, 0, time.Local), d, "a date alone is local midnight")
	d, ok = fieldtype.ParseDateTime("2023-10-20T16:45:52.367Z")
	require.True(t, ok)
	require.Equal(t, int64(1697820352367), d.UnixMilli())
	_, ok = fieldtype.ParseDateTime("not a date")
	require.False(t, ok)
}
