package spreadsheetfile

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// The 3×3 sheet gives the same bytes as n8n's XLS writer (testdata/abc.xls is its output).
func TestWriteXLSMatchesN8n(t *testing.T) {
	t.Parallel()
	want, err := os.ReadFile("testdata/abc.xls")
	require.NoError(t, err)
	got, err := writeXLS(sheet{{"A", "B", "C"}, {1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, "Sheet")
	require.NoError(t, err)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("first difference at byte %d: got % x, want % x", i, got[i:min(i+16, len(got))], want[i:min(i+16, len(want))])
		}
	}
	require.Equal(t, len(want), len(got))
}
