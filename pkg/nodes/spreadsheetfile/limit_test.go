package spreadsheetfile

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A spreadsheet that unpacks past the limit is refused before it is read into memory.
func TestReadXLSXUnzipLimit(t *testing.T) {
	t.Parallel()
	data, err := writeXLSX(sheet{{"a"}, {"b"}}, "Sheet")
	require.NoError(t, err)
	_, err = readXLSX(data, readOptions{maxUnpacked: 100})
	require.EqualError(t, err, "The spreadsheet unpacks to more than 100 bytes, the limit for reading a spreadsheet (FLOWMILL_UNPACK_MAX_SIZE)")
}
