package readbinaryfiles_test

import (
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/readbinaryfiles"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"a.jpg", "b.jpg", "c.txt", ".hidden.jpg", "sub/d.jpg", "sub/deep/e.jpg", "sub/f.png", ".git/g.jpg"} {
		p := filepath.Join(dir, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("data of "+f), 0o644))
	}
	return dir
}

func TestGlob(t *testing.T) {
	t.Parallel()
	dir := tree(t)
	tests := []struct {
		pattern string
		want    []string
	}{
		{"*.jpg", []string{"a.jpg", "b.jpg"}},
		{"**/*.jpg", []string{"a.jpg", "b.jpg", "sub/d.jpg", "sub/deep/e.jpg"}},
		{"sub/**", []string{"sub/d.jpg", "sub/deep/e.jpg", "sub/f.png"}},
		{"sub/*.{jpg,png}", []string{"sub/d.jpg", "sub/f.png"}},
		{"?.txt", []string{"c.txt"}},
		{"[ab].jpg", []string{"a.jpg", "b.jpg"}},
		{"[!a].jpg", []string{"b.jpg"}},
		{".*.jpg", []string{".hidden.jpg"}},
		{"c.txt", []string{"c.txt"}},
		{"sub", nil},
		{"*.gif", nil},
	}
	resolve := nodetest.FilesHost(t, dir).Files.Resolve
	for _, tc := range tests {
		got, err := readbinaryfiles.Glob(context.Background(), resolve, filepath.ToSlash(dir)+"/"+tc.pattern)
		require.NoError(t, err, tc.pattern)
		var want []string
		for _, w := range tc.want {
			want = append(want, filepath.ToSlash(dir)+"/"+w)
		}
		require.Equal(t, want, got, tc.pattern)
		got, err = readbinaryfiles.Glob(context.Background(), resolve, tc.pattern)
		require.NoError(t, err, tc.pattern)
		require.Equal(t, tc.want, got, "%s relative to the files folder", tc.pattern)
	}
}

// A pattern whose fixed folder lies outside the files folder is refused; matches that are links
// leading out of it are left out.
func TestGlobFence(t *testing.T) {
	t.Parallel()
	dir, outside := tree(t), tree(t)
	require.NoError(t, os.Symlink(filepath.Join(outside, "a.jpg"), filepath.Join(dir, "link.jpg")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "b.jpg"), filepath.Join(dir, "inside.jpg")))
	resolve := nodetest.FilesHost(t, dir).Files.Resolve
	got, err := readbinaryfiles.Glob(context.Background(), resolve, "*.jpg")
	require.NoError(t, err)
	require.Equal(t, []string{"a.jpg", "b.jpg", "inside.jpg"}, got)
	for _, pattern := range []string{outside + "/*.jpg", "../*.jpg", "/etc/*", outside + "/a.jpg"} {
		_, err = readbinaryfiles.Glob(context.Background(), resolve, pattern)
		require.ErrorContains(t, err, "is outside the files folder", pattern)
		require.ErrorContains(t, err, "(FLOWMILL_FILES_DIR)", pattern)
	}
}

func TestReadBinaryFiles(t *testing.T) {
	t.Parallel()
	dir := tree(t)
	host := nodetest.FilesHost(t, dir)
	out, err := nodetest.Run(t, readbinaryfiles.Type(), nodetest.Node{Parameters: m{
		"fileSelector": dir + "/*.jpg", "dataPropertyName": "file",
	}, Host: host}, nodetest.Items(m{"ignored": true}, m{}))
	require.NoError(t, err)
	require.Len(t, out[0], 2)
	b := out[0][1].Binary["file"]
	require.Equal(t, base64.StdEncoding.EncodeToString([]byte("data of b.jpg")), b.Data)
	require.Equal(t, "b.jpg", b.FileName)
	require.Equal(t, dir, b.Directory)
	require.Equal(t, "image/jpeg", b.MimeType)
	require.Equal(t, m{}, workflow.ToMaps(out[0][1].JSON))
	require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[0][1].PairedItem)

	out, err = nodetest.Run(t, readbinaryfiles.Type(), nodetest.Node{Parameters: m{"fileSelector": dir + "/*.gif"}, Host: host}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Empty(t, out[0], "no match gives no items")

	_, err = nodetest.Run(t, readbinaryfiles.Type(), nodetest.Node{Parameters: m{"fileSelector": "/etc/*"}, Host: host}, nodetest.Items(m{}))
	require.Equal(t, `The path "/etc" is outside the files folder; file nodes may only use paths under `+dir+` (FLOWMILL_FILES_DIR).`,
		nodetest.NodeError(t, err).Message)
}
