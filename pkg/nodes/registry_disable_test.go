package nodes_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
)

func TestRegistryDisable(t *testing.T) {
	t.Parallel()
	d := nodes.MustParseDescription([]byte(`{"displayName": "X", "name": "test.a", "group": ["transform"], "version": 1,
	  "defaults": {"name": "X"}, "inputs": ["main"], "outputs": ["main"], "properties": []}`))
	r := nodes.NewRegistry()
	r.MustRegister(nodes.Type{Description: d, Node: nodes.NodeFunc(nil)})

	w := r.Disable(map[string]string{"test.a": "with SOME_SETTING", "test.absent": "with OTHER"})
	_, ok := w.Get("test.a", 1)
	require.False(t, ok)
	require.Empty(t, w.Types())
	var de *nodes.DisabledError
	require.ErrorAs(t, w.Disabled("test.a"), &de)
	require.EqualError(t, de, `The node type "test.a" is disabled on this instance; an admin can turn it on with SOME_SETTING.`)
	require.NoError(t, w.Disabled("test.unknown"), "an unknown type is not a disabled one")
	require.NoError(t, r.Disabled("test.a"), "the original registry is unchanged")
	require.Error(t, w.Without("test.b").Disabled("test.a"), "a registry made from it remembers")
}
