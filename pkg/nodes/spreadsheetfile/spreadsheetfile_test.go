package spreadsheetfile_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/spreadsheetfile"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func fileItem(data []byte, name, mime string) []workflow.Item {
	b := nodes.NewBinary(data, name, mime)
	return []workflow.Item{{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{"data": b}}}
}

func run(t *testing.T, version float64, params m, in []workflow.Item) ([]workflow.Item, error) {
	t.Helper()
	out, err := nodetest.Run(t, spreadsheetfile.Type(), nodetest.Node{Version: version, Parameters: params}, in)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func TestReadFromFile(t *testing.T) {
	t.Parallel()
	csv := fileItem([]byte("\ufeffA,B,C\n1,,3\n4,5,6\n"), "s.csv", "text/csv")
	semi := fileItem([]byte("a;b\nx;y\n"), "s.csv", "text/csv")
	tests := []struct {
		name     string
		version  float64
		params   m
		in       []workflow.Item
		want     []m
		errorMsg string
	}{
		{"v1 types numbers", 1, m{}, csv, []m{{"A": 1.0, "C": 3.0}, {"A": 4.0, "B": 5.0, "C": 6.0}}, ""},
		{"v1 raw data", 1, m{"options": m{"rawData": true}}, csv, []m{{"A": "1", "C": "3"}, {"A": "4", "B": "5", "C": "6"}}, ""},
		{"v1 range", 1, m{"options": m{"range": "A2:B3"}}, csv, []m{{"1": 4.0, "__EMPTY": 5.0}}, ""},
		{"v1 no header row", 1, m{"options": m{"headerRow": false}}, csv, []m{{"row": []any{"A", "B", "C"}}, {"row": []any{1.0, nil, 3.0}}, {"row": []any{4.0, 5.0, 6.0}}}, ""},
		{"v1 include empty cells", 1, m{"options": m{"includeEmptyCells": true}}, csv, []m{{"A": 1.0, "B": "", "C": 3.0}, {"A": 4.0, "B": 5.0, "C": 6.0}}, ""},
		{"v2 csv strings, BOM kept", 2, m{"fileFormat": "csv"}, csv, []m{{"\ufeffA": "1", "C": "3"}, {"\ufeffA": "4", "B": "5", "C": "6"}}, ""},
		{"v2 csv BOM excluded, empty cells", 2, m{"fileFormat": "csv", "options": m{"enableBOM": true, "includeEmptyCells": true}}, csv, []m{{"A": "1", "B": "", "C": "3"}, {"A": "4", "B": "5", "C": "6"}}, ""},
		{"v2 csv row limit", 2, m{"fileFormat": "csv", "options": m{"enableBOM": true, "maxRowCount": 1.0}}, csv, []m{{"A": "1", "C": "3"}}, ""},
		{"v2 csv delimiter", 2, m{"fileFormat": "csv", "options": m{"delimiter": ";"}}, semi, []m{{"a": "x", "b": "y"}}, ""},
		{"v2 autodetect csv", 2, m{"fileFormat": "autodetect", "options": m{"headerRow": false}}, semi, []m{{"row": m{"0": "a;b"}}, {"row": m{"0": "x;y"}}}, ""},
		{"v2 csv latin1", 2, m{"fileFormat": "csv", "options": m{"encoding": "latin1"}}, fileItem([]byte("n\n\xe9\n"), "l.csv", "text/csv"), []m{{"n": "é"}}, ""},
		{"no binary property", 2, m{"fileFormat": "csv", "binaryPropertyName": "file"}, csv, nil, `Item has no binary property called "file"`},
		{"corrupt xlsx", 2, m{"fileFormat": "xlsx"}, fileItem([]byte("PK\x03\x04broken"), "x.xlsx", ""), nil, "Unsupported file: zip: not a valid zip file"},
		{"autodetect names the real problem", 2, m{"fileFormat": "autodetect"}, fileItem([]byte("PK\x03\x04broken"), "x.xlsx", ""), nil, "Unsupported file: zip: not a valid zip file"},
		{"xls input", 2, m{"fileFormat": "xls"}, fileItem([]byte{0xd0, 0xcf, 0x11, 0xe0, 0}, "x.xls", ""), nil, "Reading XLS (Excel 97-2003) files is not supported; save the file as XLSX or CSV"},
		{"wrong format", 2, m{"fileFormat": "xlsx"}, fileItem([]byte{0xd0, 0xcf, 0x11, 0xe0, 0}, "x.xls", ""), nil, "The file selected in 'Input Binary Field' is not in xlsx format"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := run(t, tc.version, tc.params, tc.in)
			if tc.errorMsg != "" {
				require.Equal(t, tc.errorMsg, nodetest.NodeError(t, err).Message)
				return
			}
			require.NoError(t, err)
			nodetest.RequireJSONs(t, tc.want, out)
		})
	}
}

func TestWriteToFile(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{
		{JSON: workflow.ObjectOf("name", "a<b", "n", 1.5)},
		{JSON: workflow.ObjectOf("name", "c,d", "ok", true, "obj", workflow.ObjectOf("x", 1.0, "l", []any{"p", workflow.NewObject(0)}))},
	}
	decode := func(t *testing.T, out []workflow.Item) string {
		t.Helper()
		require.Len(t, out, 1)
		b, err := base64.StdEncoding.DecodeString(out[0].Binary["data"].Data)
		require.NoError(t, err)
		return string(b)
	}
	t.Run("csv", func(t *testing.T) {
		t.Parallel()
		out, err := run(t, 2, m{"operation": "toFile", "fileFormat": "csv"}, in)
		require.NoError(t, err)
		require.Equal(t, "\ufeffname,n,ok,obj.x,obj.l.0\na<b,1.5,,,\n\"c,d\",,TRUE,1,p", decode(t, out))
		require.Equal(t, "spreadsheet.csv", out[0].Binary["data"].FileName)
		require.Equal(t, workflow.PairedItems{{Item: 0}, {Item: 1}}, *out[0].PairedItem)
	})
	t.Run("csv without header, file name", func(t *testing.T) {
		t.Parallel()
		out, err := run(t, 1, m{"operation": "toFile", "fileFormat": "csv", "options": m{"headerRow": false, "fileName": "x.csv"}}, in[:1])
		require.NoError(t, err)
		require.Equal(t, "\ufeffa<b,1.5", decode(t, out))
		require.Equal(t, "x.csv", out[0].Binary["data"].FileName)
	})
	t.Run("html escapes", func(t *testing.T) {
		t.Parallel()
		out, err := run(t, 1, m{"operation": "toFile", "fileFormat": "html"}, in[:1])
		require.NoError(t, err)
		require.Contains(t, decode(t, out), `<td data-t="s" data-v="a&lt;b" id="sjs-A2">a&lt;b</td>`)
		require.Equal(t, "html", out[0].Binary["data"].FileType)
	})
	t.Run("xlsx round trip", func(t *testing.T) {
		t.Parallel()
		out, err := run(t, 2, m{"operation": "toFile", "fileFormat": "xlsx", "options": m{"sheetName": "Data"}}, in)
		require.NoError(t, err)
		back, err := run(t, 2, m{"fileFormat": "xlsx", "options": m{"sheetName": "Data"}}, out)
		require.NoError(t, err)
		nodetest.RequireJSONs(t, []m{{"name": "a<b", "n": 1.5}, {"name": "c,d", "ok": true, "obj.x": 1.0, "obj.l.0": "p"}}, back)
		_, err = run(t, 2, m{"fileFormat": "xlsx", "options": m{"sheetName": "Nope"}}, out)
		require.Equal(t, `Spreadsheet does not contain sheet called "Nope"!`, nodetest.NodeError(t, err).Message)
	})
	t.Run("ods round trip, a zip with its mimetype first", func(t *testing.T) {
		t.Parallel()
		out, err := run(t, 2, m{"operation": "toFile", "fileFormat": "ods"}, in)
		require.NoError(t, err)
		data := decode(t, out)
		z, err := zip.NewReader(bytes.NewReader([]byte(data)), int64(len(data)))
		require.NoError(t, err)
		require.Equal(t, "mimetype", z.File[0].Name)
		back, err := run(t, 2, m{"fileFormat": "ods", "options": m{"includeEmptyCells": true}}, out)
		require.NoError(t, err)
		nodetest.RequireJSONs(t, []m{{"name": "a<b", "n": 1.5, "ok": "", "obj.x": "", "obj.l.0": ""}, {"name": "c,d", "n": "", "ok": true, "obj.x": 1.0, "obj.l.0": "p"}}, back)
	})
	t.Run("rtf", func(t *testing.T) {
		t.Parallel()
		out, err := run(t, 1, m{"operation": "toFile", "fileFormat": "rtf"}, in[:1])
		require.NoError(t, err)
		require.Equal(t, `{\rtf1\ansi\trowd\trautofit1\cellx1\cellx2\pard\intbl name\cell n\cell\pard\intbl\row\trowd\trautofit1\cellx1\cellx2\pard\intbl a<b\cell 1.5\cell\pard\intbl\row}`, decode(t, out))
	})
}
