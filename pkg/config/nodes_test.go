package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExcludedNodes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  string
		want []string
	}{
		{"", nil},
		{"n8n-nodes-base.executeCommand", []string{"n8n-nodes-base.executeCommand"}},
		{" a , b,,", []string{"a", "b"}},
		{`["n8n-nodes-base.executeCommand", "n8n-nodes-base.readBinaryFile"]`, []string{"n8n-nodes-base.executeCommand", "n8n-nodes-base.readBinaryFile"}},
	} {
		c, err := Load(nil, func(k string) string {
			if k == "FLOWMILL_NODES_EXCLUDE" {
				return tc.env
			}
			return ""
		})
		require.NoError(t, err)
		require.Equal(t, tc.want, c.ExcludedNodes(), tc.env)
	}
}

func TestDisabledNodes(t *testing.T) {
	t.Parallel()
	load := func(env map[string]string) (*Config, error) {
		return Load(nil, func(k string) string { return env[k] })
	}
	const shell, watcher = "n8n-nodes-base.executeCommand", "n8n-nodes-base.localFileTrigger"
	enable, exclude := "with FLOWMILL_NODES_ENABLE", "by removing it from FLOWMILL_NODES_EXCLUDE"
	for _, tc := range []struct {
		env  map[string]string
		want map[string]string
	}{
		{nil, map[string]string{shell: enable, watcher: enable}},
		{map[string]string{"FLOWMILL_NODES_ENABLE": shell}, map[string]string{watcher: enable}},
		{map[string]string{"FLOWMILL_NODES_ENABLE": `["` + shell + `","` + watcher + `"]`}, map[string]string{}},
		{map[string]string{"FLOWMILL_NODES_ENABLE": shell, "FLOWMILL_NODES_EXCLUDE": shell + ",n8n-nodes-base.set"},
			map[string]string{shell: exclude, watcher: enable, "n8n-nodes-base.set": exclude}},
	} {
		c, err := load(tc.env)
		require.NoError(t, err)
		require.Equal(t, tc.want, c.DisabledNodes(), "%v", tc.env)
	}
	_, err := load(map[string]string{"FLOWMILL_NODES_ENABLE": shell + ",n8n-nodes-base.set"})
	require.EqualError(t, err, `FLOWMILL_NODES_ENABLE: "n8n-nodes-base.set" is not an off-by-default node type (`+shell+", "+watcher+
		`); other node types are on unless FLOWMILL_NODES_EXCLUDE names them`)
}

func TestFilesDir(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	load := func(files string) (*Config, error) {
		return Load(nil, func(k string) string {
			return map[string]string{"FLOWMILL_DATA_DIR": data, "FLOWMILL_FILES_DIR": files}[k]
		})
	}
	c, err := load("")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(data, "files"), c.FilesDir)
	c, err = load("/srv/flowmill-files/")
	require.NoError(t, err)
	require.Equal(t, "/srv/flowmill-files", c.FilesDir)
	c, err = load("rel")
	require.NoError(t, err)
	wd, _ := os.Getwd()
	require.Equal(t, filepath.Join(wd, "rel"), c.FilesDir, "a relative folder is made absolute once")
	_, err = load(data + "/")
	require.ErrorContains(t, err, "FLOWMILL_FILES_DIR: "+data+" is the data folder, which holds the encryption key and the database")
}
