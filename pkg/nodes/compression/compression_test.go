package compression_test

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/compression"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func item(files map[string]workflow.BinaryData) []workflow.Item {
	return []workflow.Item{{JSON: workflow.ObjectOf("id", 1.0), Binary: files}}
}

func file(name string, data []byte) workflow.BinaryData {
	return nodes.NewBinary(data, name, "")
}

func bytesOf(t *testing.T, b workflow.BinaryData) []byte {
	t.Helper()
	out, err := base64.StdEncoding.DecodeString(b.Data)
	require.NoError(t, err)
	return out
}

func run(t *testing.T, version float64, params m, in []workflow.Item) ([]workflow.Item, error) {
	t.Helper()
	out, err := nodetest.Run(t, compression.Type(), nodetest.Node{Version: version, Parameters: params}, in)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func TestZipRoundTrip(t *testing.T) {
	t.Parallel()
	in := item(map[string]workflow.BinaryData{
		"a": file("a.txt", []byte("hello hello hello")),
		"b": file("b.json", []byte(`{"x":1}`)),
	})
	zipped, err := run(t, 1, m{"operation": "compress", "outputFormat": "zip", "fileName": "out.zip",
		"binaryPropertyName": "a, b", "binaryPropertyOutput": "archive"}, in)
	require.NoError(t, err)
	require.Len(t, zipped, 1)
	require.Equal(t, m{"id": 1.0}, workflow.ToMaps(zipped[0].JSON))
	require.Equal(t, []string{"archive"}, keys(zipped[0].Binary))
	require.Equal(t, "out.zip", zipped[0].Binary["archive"].FileName)
	require.Equal(t, "application/zip", zipped[0].Binary["archive"].MimeType)

	unzipped, err := run(t, 1, m{"binaryPropertyName": "archive"}, zipped)
	require.NoError(t, err)
	require.Equal(t, []string{"file_0", "file_1"}, keys(unzipped[0].Binary))
	require.Equal(t, "a.txt", unzipped[0].Binary["file_0"].FileName)
	require.Equal(t, "text/plain", unzipped[0].Binary["file_0"].MimeType)
	require.Equal(t, "hello hello hello", string(bytesOf(t, unzipped[0].Binary["file_0"])))
	require.Equal(t, "b.json", unzipped[0].Binary["file_1"].FileName)
	require.Equal(t, "application/json", unzipped[0].Binary["file_1"].MimeType)
}

func TestGzip(t *testing.T) {
	t.Parallel()
	in := item(map[string]workflow.BinaryData{"data": file("report.final.csv", []byte("a,b\n1,2\n"))})
	tests := []struct {
		name     string
		version  float64
		params   m
		property string
		fileName string
	}{
		{"version 1 names data0 and .gzip", 1, m{}, "data0", "report.gzip"},
		{"version 1 prefix", 1, m{"outputPrefix": "gz_"}, "gz_0", "report.gzip"},
		{"version 1.1 keeps the extension", 1.1, m{}, "data", "report.csv.gz"},
		{"version 1.1 file name", 1.1, m{"fileName": "out.gz", "binaryPropertyOutput": "packed"}, "packed", "out.csv.gz"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			params := m{"operation": "compress", "outputFormat": "gzip"}
			for k, v := range tc.params {
				params[k] = v
			}
			out, err := run(t, tc.version, params, in)
			require.NoError(t, err)
			require.Equal(t, []string{tc.property}, keys(out[0].Binary))
			require.Equal(t, tc.fileName, out[0].Binary[tc.property].FileName)
			zr, err := gzip.NewReader(bytes.NewReader(bytesOf(t, out[0].Binary[tc.property])))
			require.NoError(t, err)
			var buf bytes.Buffer
			_, err = buf.ReadFrom(zr)
			require.NoError(t, err)
			require.Equal(t, "a,b\n1,2\n", buf.String())
		})
	}
}

func TestGunzip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write([]byte(`{"a":1}`))
	require.NoError(t, zw.Close())
	for _, tc := range []struct{ name, wantName, wantMime string }{
		{"data.json.gz", "data.json", "application/json"},
		{"data.gz", "data.txt", "text/plain"},
		{"data.gzip", "data.txt", "text/plain"},
	} {
		in := item(map[string]workflow.BinaryData{"data": file(tc.name, buf.Bytes())})
		out, err := run(t, 1.1, m{}, in)
		require.NoError(t, err, tc.name)
		got := out[0].Binary["file_0"]
		require.Equal(t, tc.wantName, got.FileName, tc.name)
		require.Equal(t, tc.wantMime, got.MimeType, tc.name)
		require.Equal(t, `{"a":1}`, string(bytesOf(t, got)), tc.name)
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]workflow.BinaryData
		want  string
	}{
		{"corrupt zip", map[string]workflow.BinaryData{"data": file("x.zip", []byte("PK\x03\x04 not a zip"))}, "invalid zip data"},
		{"corrupt gzip", map[string]workflow.BinaryData{"data": file("x.gz", []byte("nope"))}, "invalid gzip data"},
		{"missing property", map[string]workflow.BinaryData{"other": file("x.zip", nil)}, "The item has no binary field 'data' [item 0]"},
		{"no binary", nil, "No binary data exists on item!"},
	}
	for _, tc := range tests {
		_, err := run(t, 1, m{}, item(tc.files))
		require.Equal(t, tc.want, nodetest.NodeError(t, err).Message, tc.name)
	}
	out, err := nodetest.Run(t, compression.Type(), nodetest.Node{ContinueOnFail: true},
		item(map[string]workflow.BinaryData{"data": file("x.zip", []byte("junk"))}))
	require.NoError(t, err)
	require.Equal(t, []m{{"error": "invalid zip data"}}, nodetest.JSONs(out[0]))
}

// zipBomb is a zip whose one file inflates to size zero bytes, with its declared size set to
// declared (a forged header cannot get past the cap either).
func zipBomb(t *testing.T, size int, declared uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "zeros.bin", Method: zip.Deflate})
	require.NoError(t, err)
	_, err = w.Write(make([]byte, size))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	b := buf.Bytes()
	if declared != 0 {
		// Patch the uncompressed size in the central directory entry (offset 24 from its start).
		i := bytes.LastIndex(b, []byte("PK\x01\x02"))
		b[i+24], b[i+25], b[i+26], b[i+27] = byte(declared), byte(declared>>8), byte(declared>>16), byte(declared>>24)
	}
	return b
}

func TestDecompressionIsBounded(t *testing.T) {
	t.Parallel()
	host := nodes.Host{UnpackMaxBytes: 1 << 20}
	// A header that declares the size fails before inflating; one that lies about it fails
	// as soon as more comes out than it declared.
	for declared, want := range map[uint64]string{
		0:  "The decompressed output exceeds the maximum allowed size of 1 MB",
		10: "invalid zip data",
	} {
		bomb := zipBomb(t, 4<<20, declared)
		require.Less(t, len(bomb), 16<<10)
		_, err := nodetest.Run(t, compression.Type(), nodetest.Node{Host: host}, item(map[string]workflow.BinaryData{"data": file("bomb.zip", bomb)}))
		require.Equal(t, want, nodetest.NodeError(t, err).Message)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(make([]byte, 2<<20))
	require.NoError(t, zw.Close())
	_, err := nodetest.Run(t, compression.Type(), nodetest.Node{Host: host}, item(map[string]workflow.BinaryData{"data": file("bomb.gz", buf.Bytes())}))
	require.Equal(t, "The decompressed output exceeds the maximum allowed size of 1 MB", nodetest.NodeError(t, err).Message)

	// The cap is per run: two archives under it each, over it together.
	half := zipBomb(t, 600<<10, 0)
	in := []workflow.Item{
		{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{"data": file("a.zip", half)}},
		{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{"data": file("b.zip", half)}},
	}
	_, err = nodetest.Run(t, compression.Type(), nodetest.Node{Host: host}, in[:1])
	require.NoError(t, err)
	_, err = nodetest.Run(t, compression.Type(), nodetest.Node{Host: host}, in)
	require.Equal(t, "The decompressed output exceeds the maximum allowed size of 1 MB", nodetest.NodeError(t, err).Message)
}

func keys(b map[string]workflow.BinaryData) []string {
	var out []string
	for _, k := range []string{"a", "b", "archive", "data", "data0", "gz_0", "packed", "file_0", "file_1"} {
		if _, ok := b[k]; ok {
			out = append(out, k)
		}
	}
	return out
}
