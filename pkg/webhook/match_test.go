package webhook

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBestMatchPrefersMostStaticSegments(t *testing.T) {
	patterns := []string{"hook1/:kind/:id", "hook1/user/:id", "hook1/user/:id/:extra"}
	pattern, params, ok := bestMatch("hook1/user/7", patterns)
	require.True(t, ok)
	require.Equal(t, "hook1/user/:id", pattern)
	require.Equal(t, map[string]string{"id": "7"}, params)

	pattern, params, ok = bestMatch("hook1/team/7", patterns)
	require.True(t, ok)
	require.Equal(t, "hook1/:kind/:id", pattern)
	require.Equal(t, map[string]string{"kind": "team", "id": "7"}, params)

	_, _, ok = bestMatch("hook1/a/b/c/d", patterns)
	require.False(t, ok)
	_, _, ok = bestMatch("hook1/a", nil)
	require.False(t, ok)
}

func TestMatchDynamic(t *testing.T) {
	t.Parallel()
	params, static, ok := matchDynamic([]string{"user", ":id"}, []string{"user", "7"})
	require.True(t, ok)
	require.Equal(t, map[string]string{"id": "7"}, params)
	require.Equal(t, 1, static)
	_, _, ok = matchDynamic([]string{"user", ":id"}, []string{"team", "7"})
	require.False(t, ok)
	_, _, ok = matchDynamic([]string{":id"}, []string{"a", "b"})
	require.False(t, ok)
}
