package filetype_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/internal/filetype"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
		want string
	}{
		{"a.txt", "x", "text/plain"},
		{"a.PNG", "x", "image/png"},
		{"a.json", "{}", "application/json"},
		{"download", "\x89PNG\r\n\x1a\n0000", "image/png"},
		{"download", "%PDF-1.4", "application/pdf"},
		{"download", "<html></html>", "text/plain"},
		{"", "plain words", "text/plain"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, filetype.Detect(tc.name, []byte(tc.data)), tc.name)
	}
	require.Equal(t, "", filetype.ByName("noext"))
}
