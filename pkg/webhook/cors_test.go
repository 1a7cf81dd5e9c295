package webhook

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIPAllowed(t *testing.T) {
	for _, tc := range []struct {
		list, remote string
		want         bool
	}{
		{"", "1.2.3.4:5", true},
		{"1.2.3.4", "1.2.3.4:5", true},
		{"1.2.3.4", "1.2.3.5:5", false},
		{"10.0.0.", "10.0.0.9", true},
		{" 9.9.9.9 , 127.0.0.1", "127.0.0.1:80", true},
		{"192.168.0.0/16", "192.168.4.2:1", true},
		{"192.168.0.0/16", "192.169.0.1:1", false},
		{"::1", "[::1]:80", true},
	} {
		require.Equal(t, tc.want, ipAllowed(tc.list, tc.remote), "%q %q", tc.list, tc.remote)
	}
}

func TestAllowOrigin(t *testing.T) {
	require.Empty(t, allowOrigin("", "https://a"))
	require.Empty(t, allowOrigin("*", "https://a"))
	require.Equal(t, "https://b", allowOrigin("https://a, https://b", "https://b"))
	require.Equal(t, "https://a", allowOrigin("https://a,https://b", "https://c"))
	require.Equal(t, "https://a", allowOrigin("https://a", ""))
}
