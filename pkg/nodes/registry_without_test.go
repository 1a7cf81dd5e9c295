package nodes_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
)

func TestRegistryWithout(t *testing.T) {
	t.Parallel()
	typ := func(name string, version float64) nodes.Type {
		d := nodes.MustParseDescription([]byte(`{"displayName": "X", "name": "` + name + `", "group": ["transform"],
		  "version": ` + map[float64]string{1: "1", 2: "2"}[version] + `, "defaults": {"name": "X"},
		  "inputs": ["main"], "outputs": ["main"], "properties": []}`))
		return nodes.Type{Description: d, Node: nodes.NodeFunc(nil)}
	}
	r := nodes.NewRegistry()
	r.MustRegister(typ("test.a", 1))
	r.MustRegister(typ("test.b", 1))
	r.MustRegister(typ("test.b", 2))
	r.MustRegister(typ("test.c", 1))

	w := r.Without("test.b", "test.unknown")
	_, ok := w.Get("test.b", 1)
	require.False(t, ok)
	_, ok = w.Get("test.b", 2)
	require.False(t, ok)
	require.Len(t, w.Types(), 2)
	require.Equal(t, "test.c", w.Latest()[1].Description.Name)
	require.Len(t, r.Types(), 4, "the original registry keeps every type")
	require.Len(t, r.Without().Types(), 4)
}
