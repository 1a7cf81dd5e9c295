package nodes_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
)

// Every built-in node type has a hand-written documentation page with an example.
func TestEveryNodeHasADocPage(t *testing.T) {
	t.Parallel()
	for _, typ := range core.Registry().Latest() {
		d, ok := nodes.DocFor(typ.Description.Name)
		require.True(t, ok, "%s has no doc.md in its folder", typ.Description.Name)
		require.Contains(t, d.Markdown, "## Example", typ.Description.Name)
		require.Greater(t, len(d.Markdown), 80, typ.Description.Name)
	}
	_, ok := nodes.DocFor("n8n-nodes-base.nope")
	require.False(t, ok)
	require.Equal(t, "docs/nodes/n8n-nodes-base.set", nodes.DocumentationPath("n8n-nodes-base.set"))
}
