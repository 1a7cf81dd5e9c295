package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExcludedNodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  string
		want []string
	}{
		{"", nil},
		{"n8n-nodes-base.executeCommand", []string{"n8n-nodes-base.executeCommand"}},
		{" a , b,,", []string{"a", "b"}},
		{`["n8n-nodes-base.executeCommand", "n8n-nodes-base.readBinaryFile"]`, []string{"n8n-nodes-base.executeCommand", "n8n-nodes-base.readBinaryFile"}},
	} {
		c, err := Load(nil, func(k string) string {
			if k == "FLOWMILL_NODES_EXCLUDE" {
				return tc.env
			}
			return ""
		})
		require.NoError(t, err)
		require.Equal(t, tc.want, c.ExcludedNodes(), tc.env)
	}
}
