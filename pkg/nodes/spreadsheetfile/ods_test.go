package spreadsheetfile

import (
	"archive/zip"
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

func odsFile(t *testing.T, tables string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, err := z.Create("mimetype")
	require.NoError(t, err)
	w.Write([]byte("application/vnd.oasis.opendocument.spreadsheet"))
	w, err = z.Create("content.xml")
	require.NoError(t, err)
	w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><office:document-content ` +
		`xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ` +
		`xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ` +
		`xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>` +
		tables + `</office:spreadsheet></office:body></office:document-content>`))
	require.NoError(t, z.Close())
	return buf.Bytes()
}

// Sheets as office suites write them: repeated cells and rows, padding to the grid's end,
// spaces as text:s, several paragraphs in a cell.
func TestReadODS(t *testing.T) {
	t.Parallel()
	data := odsFile(t, `<table:table table:name="First"><table:table-row><table:table-cell office:value-type="string"><text:p>x</text:p></table:table-cell></table:table-row></table:table>`+
		`<table:table table:name="Data">`+
		`<table:table-row><table:table-cell office:value-type="string"><text:p>a<text:s text:c="2"/>b</text:p></table:table-cell>`+
		`<table:table-cell table:number-columns-repeated="2" office:value-type="float" office:value="7"><text:p>7.00</text:p></table:table-cell>`+
		`<table:table-cell table:number-columns-repeated="16000"/></table:table-row>`+
		`<table:table-row table:number-rows-repeated="3"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>`+
		`<table:table-row><table:table-cell/><table:table-cell office:value-type="boolean" office:boolean-value="true"><text:p>TRUE</text:p></table:table-cell>`+
		`<table:table-cell office:value-type="string"><text:p>l1</text:p><text:p>l2</text:p></table:table-cell></table:table-row>`+
		`<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>`+
		`</table:table>`)
	sh, err := readODS(data, readOptions{sheetName: "Data", maxUnpacked: 1 << 20})
	require.NoError(t, err)
	require.Equal(t, sheet{{"a  b", 7.0, 7.0}, nil, nil, nil, {nil, true, "l1\nl2"}}, sh)
	sh, err = readODS(data, readOptions{maxUnpacked: 1 << 20})
	require.NoError(t, err)
	require.Equal(t, sheet{{"x"}}, sh, "the first sheet by default")
	_, err = readODS(data, readOptions{sheetName: "Nope", maxUnpacked: 1 << 20})
	require.EqualError(t, err, `Spreadsheet does not contain sheet called "Nope"!`)
	_, err = readODS(data, readOptions{maxUnpacked: 100})
	require.EqualError(t, err, "The spreadsheet unpacks to more than 100 bytes, the limit for reading a spreadsheet (FLOWMILL_UNPACK_MAX_SIZE)")
}

// A small file whose repeats would make billions of cells is refused.
func TestReadODSRepeatBomb(t *testing.T) {
	t.Parallel()
	data := odsFile(t, `<table:table table:name="S"><table:table-row table:number-rows-repeated="1048576">`+
		`<table:table-cell table:number-columns-repeated="16384" office:value-type="float" office:value="1"/></table:table-row></table:table>`)
	_, err := readODS(data, readOptions{maxUnpacked: 1 << 20})
	require.EqualError(t, err, "The spreadsheet has more cells than the limit for reading a spreadsheet allows (FLOWMILL_UNPACK_MAX_SIZE)")
	_, err = readODS([]byte("PK\x03\x04junk"), readOptions{maxUnpacked: 1 << 20})
	require.ErrorContains(t, err, "Unsupported file:")
}
