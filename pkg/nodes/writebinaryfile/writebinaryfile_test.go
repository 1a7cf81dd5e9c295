package writebinaryfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/writebinaryfile"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func item(json m, data string) workflow.Item {
	return workflow.Item{JSON: workflow.ObjectFromMap(json), Binary: map[string]workflow.BinaryData{"data": nodes.NewBinary([]byte(data), "x.txt", "text/plain")}}
}

func TestWriteBinaryFile(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	require.NoError(t, os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "in")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	host := nodetest.FilesHost(t, dir)
	tests := []struct {
		name     string
		params   m
		in       []workflow.Item
		cof      bool
		file     string
		want     string
		errorMsg string
	}{
		{"writes and replaces", m{"fileName": dir + "/a.txt"}, []workflow.Item{item(m{"k": 1.0}, "one"), item(m{}, "two")}, false, "a.txt", "two", ""},
		{"appends", m{"fileName": dir + "/b.txt", "options": m{"append": true}}, []workflow.Item{item(m{}, "one"), item(m{}, "two")}, false, "b.txt", "onetwo", ""},
		{"per-item file names", m{"fileName": "={{ '" + dir + "/' + $json.n }}"}, []workflow.Item{item(m{"n": "c.txt"}, "c")}, false, "c.txt", "c", ""},
		{"no binary data", m{"fileName": dir + "/d.txt"}, nodetest.Items(m{}), false, "", "", "No binary data set. So file can not be written!"},
		{"missing property", m{"fileName": dir + "/d.txt", "dataPropertyName": "nope"}, []workflow.Item{item(m{}, "x")}, false, "", "",
			`The binary property "nope" does not exist. So no file can be written!`},
		{"continueOnFail", m{"fileName": dir + "/d.txt"}, nodetest.Items(m{}), true, "", "", ""},
		{"outside the files folder", m{"fileName": outside + "/e.txt"}, []workflow.Item{item(m{}, "x")}, false, "", "",
			`The path "` + outside + `/e.txt" is outside the files folder; file nodes may only use paths under ` + dir + ` (FLOWMILL_FILES_DIR).`},
		{"through a link out of the folder", m{"fileName": "out/e.txt"}, []workflow.Item{item(m{}, "x")}, false, "", "",
			`The path "out/e.txt" is outside the files folder; file nodes may only use paths under ` + dir + ` (FLOWMILL_FILES_DIR).`},
		{"new file under a linked folder inside", m{"fileName": "in/f.txt"}, []workflow.Item{item(m{}, "f")}, false, "sub/f.txt", "f", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, writebinaryfile.Type(), nodetest.Node{Parameters: tc.params, ContinueOnFail: tc.cof, Host: host}, tc.in)
			if tc.errorMsg != "" {
				require.Equal(t, tc.errorMsg, nodetest.NodeError(t, err).Message)
				_, err = os.Stat(filepath.Join(outside, "e.txt"))
				require.ErrorIs(t, err, os.ErrNotExist, "nothing written outside the folder")
				return
			}
			require.NoError(t, err)
			if tc.cof {
				require.Equal(t, []m{{"error": "No binary data set. So file can not be written!"}}, nodetest.JSONs(out[0]))
				return
			}
			got, err := os.ReadFile(filepath.Join(dir, tc.file))
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
			require.Len(t, out[0], len(tc.in))
			for i, it := range out[0] {
				require.NotEmpty(t, it.JSON.Get("fileName"))
				require.Contains(t, it.Binary, "data", "binary data is passed on")
				require.Equal(t, workflow.PairedItems{{Item: i}}, *it.PairedItem)
			}
			require.NotContains(t, workflow.ToMaps(tc.in[0].JSON), "fileName", "input unchanged")
		})
	}
}
