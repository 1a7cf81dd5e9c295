package workflow_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestSplitPath(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"a":             {"a"},
		"a.b.c":         {"a", "b", "c"},
		"a[0].b":        {"a", "0", "b"},
		`a["b.c"].d`:    {"a", "b.c", "d"},
		"a['x y']":      {"a", "x y"},
		"data[1]":       {"data", "1"},
		"a..b":          {"a", "", "b"},
		".a":            {"", "a"},
		"values.string": {"values", "string"},
	}
	for in, want := range tests {
		require.Equal(t, want, workflow.SplitPath(in), in)
	}
}

func TestLookupAndSetPath(t *testing.T) {
	t.Parallel()
	obj := m{"a": m{"b": []any{m{"c": 1.0}}}, "x.y": "literal"}
	v, ok := workflow.LookupPath(obj, "a.b[0].c")
	require.True(t, ok)
	require.Equal(t, 1.0, v)
	v, ok = workflow.LookupPath(obj, "x.y")
	require.True(t, ok, "an existing key is used as written")
	require.Equal(t, "literal", v)
	_, ok = workflow.LookupPath(obj, "a.b[1]")
	require.False(t, ok)

	workflow.SetPath(obj, "a.b[0].d", true)
	workflow.SetPath(obj, "n.list[2]", "z")
	workflow.SetPath(obj, "x.y", "changed")
	workflow.SetPath(obj, "a.b", "replaced")
	workflow.SetPath(obj, "__proto__.p", 1)
	require.Equal(t, m{
		"a":   m{"b": "replaced"},
		"n":   m{"list": []any{nil, nil, "z"}},
		"x.y": "changed",
	}, obj)
	workflow.SetPath(obj, "a.b.c", 1.0)
	require.Equal(t, m{"c": 1.0}, obj["a"].(m)["b"], "a primitive on the way is replaced by an object")
}
