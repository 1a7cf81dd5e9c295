package movebinarydata_test

import (
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/movebinarydata"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func binItem(json m, data []byte) workflow.Item {
	return workflow.Item{JSON: workflow.ObjectFromMap(json), Binary: map[string]workflow.BinaryData{
		"data": {Data: b64(data), MimeType: "application/json"}, "other": {Data: b64([]byte("o")), MimeType: "text/plain"},
	}}
}

func TestBinaryToJSON(t *testing.T) {
	t.Parallel()
	bom := append([]byte{0xEF, 0xBB, 0xBF}, []byte(`{"a":1}`)...)
	latin1 := []byte{'c', 'a', 'f', 0xE9}
	utf16 := []byte{0xFF, 0xFE, 'h', 0, 'i', 0}
	tests := []struct {
		name       string
		params     m
		in         workflow.Item
		wantJSON   m
		wantBinary []string
		skipped    bool
	}{
		{"set all data", m{}, binItem(m{"x": 1.0}, []byte(`{"a":1}`)), m{"a": 1.0}, []string{"other"}, false},
		{"BOM stripped by default", m{}, binItem(m{}, bom), m{"a": 1.0}, []string{"other"}, false},
		{"to one key", m{"setAllData": false, "destinationKey": "out.text"}, binItem(m{"x": 1.0}, []byte(`{"a":1}`)),
			m{"x": 1.0, "out": m{"text": `{"a":1}`}}, []string{"other"}, false},
		{"json parse", m{"setAllData": false, "options": m{"jsonParse": true}}, binItem(m{}, []byte(`[1,2]`)),
			m{"data": []any{1.0, 2.0}}, []string{"other"}, false},
		{"keep as base64", m{"setAllData": false, "options": m{"keepAsBase64": true}}, binItem(m{}, []byte("hi")),
			m{"data": b64([]byte("hi"))}, []string{"other"}, false},
		{"keep source", m{"setAllData": false, "options": m{"keepSource": true}}, binItem(m{}, []byte("hi")),
			m{"data": "hi"}, []string{"data", "other"}, false},
		{"latin1", m{"setAllData": false, "options": m{"encoding": "iso88591"}}, binItem(m{}, latin1),
			m{"data": "café"}, []string{"other"}, false},
		{"utf16 with BOM kept", m{"setAllData": false, "options": m{"encoding": "ucs2", "stripBOM": false}}, binItem(m{}, utf16),
			m{"data": "\uFEFFhi"}, []string{"other"}, false},
		{"utf16 BOM stripped", m{"setAllData": false, "options": m{"encoding": "ucs2"}}, binItem(m{}, utf16),
			m{"data": "hi"}, []string{"other"}, false},
		{"other source key", m{"setAllData": false, "sourceKey": "other"}, binItem(m{}, []byte("x")),
			m{"data": "o"}, []string{"data"}, false},
		{"missing source skips the item", m{"sourceKey": "nope"}, binItem(m{}, []byte("x")), nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"mode": "binaryToJson"}
			for k, v := range tc.params {
				params[k] = v
			}
			out, err := nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: params}, []workflow.Item{tc.in})
			require.NoError(t, err)
			if tc.skipped {
				require.Empty(t, out[0])
				return
			}
			require.Len(t, out[0], 1)
			require.Equal(t, tc.wantJSON, workflow.ToMaps(out[0][0].JSON))
			var keys []string
			for _, k := range []string{"data", "other"} {
				if _, ok := out[0][0].Binary[k]; ok {
					keys = append(keys, k)
				}
			}
			require.Equal(t, tc.wantBinary, keys)
			require.Len(t, tc.in.Binary, 2, "input unchanged")
		})
	}
}

func TestJSONToBinary(t *testing.T) {
	t.Parallel()
	in := workflow.Item{JSON: workflow.ObjectFromMap(m{"a": 1.0, "nested": m{"text": "café"}})}
	tests := []struct {
		name     string
		params   m
		wantData []byte
		wantJSON m
		wantMime string
		wantName string
		key      string
	}{
		{"convert all", m{}, []byte(`{"a":1,"nested":{"text":"café"}}`), m{}, "application/json", "", "data"},
		{"one key", m{"convertAllData": false, "sourceKey": "nested.text"}, []byte(`"café"`), m{"a": 1.0, "nested": m{}}, "application/json", "", "data"},
		{"raw data", m{"convertAllData": false, "sourceKey": "nested.text", "options": m{"useRawData": true}}, []byte("café"), m{"a": 1.0, "nested": m{}}, "application/json", "", "data"},
		{"latin1 with BOM ignored", m{"convertAllData": false, "sourceKey": "nested.text", "options": m{"useRawData": true, "encoding": "iso88591"}},
			[]byte{'c', 'a', 'f', 0xE9}, m{"a": 1.0, "nested": m{}}, "application/json", "", "data"},
		{"utf8 with BOM", m{"convertAllData": false, "sourceKey": "a", "options": m{"addBOM": true, "encoding": "utf8"}},
			[]byte{0xEF, 0xBB, 0xBF, '1'}, m{"nested": m{"text": "café"}}, "application/json", "", "data"},
		{"keep source, mime type, file name, key", m{"destinationKey": "file", "options": m{"keepSource": true, "mimeType": "text/plain", "fileName": "a.json"}},
			[]byte(`{"a":1,"nested":{"text":"café"}}`), m{"a": 1.0, "nested": m{"text": "café"}}, "text/plain", "a.json", "file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"mode": "jsonToBinary"}
			for k, v := range tc.params {
				params[k] = v
			}
			out, err := nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: params}, []workflow.Item{in})
			require.NoError(t, err)
			got := out[0][0]
			require.Equal(t, tc.wantJSON, workflow.ToMaps(got.JSON))
			b := got.Binary[tc.key]
			data, err := nodes.BinaryBytes(b)
			require.NoError(t, err)
			require.Equal(t, tc.wantData, data)
			require.Equal(t, tc.wantMime, b.MimeType)
			require.Equal(t, tc.wantName, b.FileName)
			require.Equal(t, workflow.PairedItems{{Item: 0}}, *got.PairedItem)
		})
	}
	require.Equal(t, m{"text": "café"}, workflow.ToMaps(in.JSON.Get("nested")), "input unchanged")

	out, err := nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: m{"mode": "jsonToBinary", "convertAllData": false,
		"sourceKey": "b64", "options": m{"dataIsBase64": true}}}, nodetest.Items(m{"b64": b64([]byte("raw"))}))
	require.NoError(t, err)
	require.Equal(t, b64([]byte("raw")), out[0][0].Binary["data"].Data)

	out, err = nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: m{"mode": "jsonToBinary", "convertAllData": false,
		"sourceKey": "missing"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Empty(t, out[0])
}

func TestErrors(t *testing.T) {
	t.Parallel()
	bad := binItem(m{}, []byte("not json"))
	_, err := nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: m{"mode": "binaryToJson"}}, []workflow.Item{bad})
	require.Error(t, err)
	out, err := nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: m{"mode": "binaryToJson"}, ContinueOnFail: true}, []workflow.Item{bad})
	require.NoError(t, err)
	require.Contains(t, workflow.ToMaps(out[0][0].JSON), "error")
	_, err = nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: m{"mode": "binaryToJson", "setAllData": false,
		"options": m{"encoding": "klingon"}}}, []workflow.Item{bad})
	require.ErrorContains(t, err, "Encoding not recognized")
}

func TestJSONToBinaryFileFields(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{JSON: workflow.ObjectOf("id", 1.0, "title", "My Title", "list", []any{1.0})}}
	run := func(params m) workflow.BinaryData {
		t.Helper()
		params["mode"] = "jsonToBinary"
		out, err := nodetest.Run(t, movebinarydata.Type(), nodetest.Node{Parameters: params}, in)
		require.NoError(t, err)
		return out[0][0].Binary["data"]
	}
	b := run(m{})
	require.Equal(t, workflow.BinaryData{Data: b64([]byte(`{"id":1,"title":"My Title","list":[1]}`)), MimeType: "application/json",
		FileType: "json", FileSize: "38 B", FileExtension: "json"}, b, "keys are written in the item's order")
	b = run(m{"convertAllData": false, "sourceKey": "title", "options": m{"fileName": "example.json"}})
	require.Equal(t, workflow.BinaryData{Data: b64([]byte(`"My Title"`)), MimeType: "application/json", FileName: "example.json",
		FileType: "json", FileSize: "10 B", FileExtension: "json"}, b)
	b = run(m{"convertAllData": false, "sourceKey": "list", "options": m{"useRawData": true, "mimeType": "text/csv"}})
	require.Equal(t, b64([]byte(`[1]`)), b.Data, "raw data still writes objects and arrays as JSON")
	require.Equal(t, "text", b.FileType)
	require.Equal(t, "csv", b.FileExtension)
	b = run(m{"convertAllData": false, "sourceKey": "title", "options": m{"dataIsBase64": true}})
	require.Equal(t, []byte{0x33, 0x24, 0xe2, 0xb6, 0x57}, must(nodes.BinaryBytes(b)), `"My Title" read as base64, the space skipped`)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
