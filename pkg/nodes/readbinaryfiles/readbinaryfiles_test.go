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
	for _, tc := range tests {
		got, err := readbinaryfiles.Glob(context.Background(), filepath.ToSlash(dir)+"/"+tc.pattern)
		require.NoError(t, err, tc.pattern)
		var want []string
		for _, w := range tc.want {
			want = append(want, filepath.ToSlash(dir)+"/"+w)
		}
		require.Equal(t, want, got, tc.pattern)
	}
}

func TestReadBinaryFiles(t *testing.T) {
	t.Parallel()
	dir := tree(t)
	out, err := nodetest.Run(t, readbinaryfiles.Type(), nodetest.Node{Parameters: m{
		"fileSelector": dir + "/*.jpg", "dataPropertyName": "file",
	}}, nodetest.Items(m{"ignored": true}, m{}))
	require.NoError(t, err)
	require.Len(t, out[0], 2)
	b := out[0][1].Binary["file"]
	require.Equal(t, base64.StdEncoding.EncodeToString([]byte("data of b.jpg")), b.Data)
	require.Equal(t, "b.jpg", b.FileName)
	require.Equal(t, dir, b.Directory)
	require.Equal(t, "image/jpeg", b.MimeType)
	require.Equal(t, m{}, out[0][1].JSON)
	require.Equal(t, workflow.PairedItems{{Item: 0}}, *out[0][1].PairedItem)

	out, err = nodetest.Run(t, readbinaryfiles.Type(), nodetest.Node{Parameters: m{"fileSelector": dir + "/*.gif"}}, nodetest.Items(m{}))
	require.NoError(t, err)
	require.Empty(t, out[0], "no match gives no items")
}
