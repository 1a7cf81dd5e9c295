package readbinaryfile_test

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/readbinaryfile"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestReadBinaryFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	host := nodetest.FilesHost(t, dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"x":1}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b"), []byte("plain"), 0o644))
	in := []workflow.Item{
		{JSON: workflow.ObjectFromMap(m{"f": "a.json"}), Binary: map[string]workflow.BinaryData{"old": {Data: "eA==", MimeType: "text/plain"}}},
		{JSON: workflow.ObjectFromMap(m{"f": "b"})},
	}
	tests := []struct {
		name     string
		params   m
		in       []workflow.Item
		cof      bool
		check    func(t *testing.T, out []workflow.Item)
		errorMsg string
	}{
		{"reads per item", m{"filePath": "={{ '" + dir + "/' + $json.f }}"}, in, false, func(t *testing.T, out []workflow.Item) {
			require.Len(t, out, 2)
			a := out[0].Binary["data"]
			require.Equal(t, base64.StdEncoding.EncodeToString([]byte(`{"x":1}`)), a.Data)
			require.Equal(t, "application/json", a.MimeType)
			require.Equal(t, "a.json", a.FileName)
			require.Equal(t, "json", a.FileExtension)
			require.Equal(t, dir, a.Directory)
			require.Contains(t, out[0].Binary, "old")
			require.Equal(t, m{"f": "a.json"}, workflow.ToMaps(out[0].JSON))
			require.Equal(t, "text/plain", out[1].Binary["data"].MimeType)
			require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[1].PairedItem)
		}, ""},
		{"property name", m{"filePath": dir + "/b", "dataPropertyName": "file"}, nodetest.Items(m{}), false, func(t *testing.T, out []workflow.Item) {
			require.Contains(t, out[0].Binary, "file")
		}, ""},
		{"missing file", m{"filePath": dir + "/nope"}, nodetest.Items(m{}), false, nil, `The file "` + dir + `/nope" could not be found.`},
		{"outside the files folder", m{"filePath": "/etc/passwd"}, nodetest.Items(m{}), false, nil,
			`The path "/etc/passwd" is outside the files folder; file nodes may only use paths under ` + dir + ` (FLOWMILL_FILES_DIR).`},
		{"escape with ..", m{"filePath": "../b"}, nodetest.Items(m{}), false, nil,
			`The path "../b" is outside the files folder; file nodes may only use paths under ` + dir + ` (FLOWMILL_FILES_DIR).`},
		{"relative to the files folder", m{"filePath": "b"}, nodetest.Items(m{}), false, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, base64.StdEncoding.EncodeToString([]byte("plain")), out[0].Binary["data"].Data)
		}, ""},
		{"missing file with continueOnFail", m{"filePath": dir + "/nope"}, nodetest.Items(m{}), true, func(t *testing.T, out []workflow.Item) {
			require.Equal(t, []m{{"error": `The file "` + dir + `/nope" could not be found.`}}, nodetest.JSONs(out))
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, readbinaryfile.Type(), nodetest.Node{Parameters: tc.params, ContinueOnFail: tc.cof, Host: host}, tc.in)
			if tc.errorMsg != "" {
				require.Equal(t, tc.errorMsg, nodetest.NodeError(t, err).Message)
				return
			}
			require.NoError(t, err)
			tc.check(t, out[0])
		})
	}
	require.Equal(t, m{"f": "a.json"}, workflow.ToMaps(in[0].JSON), "input unchanged")
	require.Len(t, in[0].Binary, 1, "input unchanged")
}

// Without a file fence (Host.Files) the node may read nothing.
func TestReadBinaryFileNoFileAccess(t *testing.T) {
	t.Parallel()
	_, err := nodetest.Run(t, readbinaryfile.Type(), nodetest.Node{Parameters: m{"filePath": "/etc/hostname"}}, nodetest.Items(m{}))
	require.Contains(t, nodetest.NodeError(t, err).Message, "FLOWMILL_FILES_DIR")
}
