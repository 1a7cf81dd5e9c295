package spreadsheetfile

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A spreadsheet that unpacks past the limit is refused before it is read into memory.
func TestReadXLSXUnzipLimit(t *testing.T) {
	data, err := writeXLSX(sheet{{"a"}, {"b"}}, "Sheet")
	require.NoError(t, err)
	old := maxUncompressed
	maxUncompressed = 100
	defer func() { maxUncompressed = old }()
	_, err = readXLSX(data, readOptions{})
	require.EqualError(t, err, "The spreadsheet unpacks to more than 100 bytes, the limit for reading a spreadsheet")
}
