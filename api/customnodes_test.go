package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
)

func TestCustomNodesListed(t *testing.T) {
	dir, err := filepath.Abs("../examples/custom-nodes")
	require.NoError(t, err)
	e := startServer(t, map[string]string{"FLOWMILL_CUSTOM_EXTENSIONS": dir})

	res, b := e.do(t, "GET", "rest/node-types?onlyLatest=true&includeProperties=true", "")
	require.Equal(t, 200, res.StatusCode)
	var all []map[string]any
	decodeData(t, b, &all)
	byName := map[string]map[string]any{}
	for _, d := range all {
		byName[d["name"].(string)] = d
	}
	for _, name := range []string{"n8n-nodes-bookshelf.bookshelf", "n8n-nodes-signer.signer"} {
		d, ok := byName[name]
		require.True(t, ok, name)
		require.Equal(t, []any{"Custom Nodes"}, d["codex"].(map[string]any)["categories"])
		require.NotEmpty(t, d["properties"])
	}
	require.Contains(t, byName, "n8n-nodes-base.httpRequest", "built-in nodes stay")

	res, b = e.do(t, "GET", "rest/credential-types", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), `"name":"bookshelfApi"`)
	require.Contains(t, string(b), `"name":"signerApi"`)
}

// A scoped package's types (@scope/package.node) get their documentation page under
// /docs/nodes/<@scope>/<type>, the address their documentationUrl names (the editor's Docs tab).
func TestCustomNodesOfScopedPackageDocumented(t *testing.T) {
	dir := t.TempDir()
	pkg := filepath.Join(dir, "bookshelf")
	require.NoError(t, os.CopyFS(pkg, os.DirFS("../examples/custom-nodes/n8n-nodes-bookshelf")))
	require.NoError(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name": "@acme/n8n-nodes-bookshelf"}`), 0o600))
	e := startServer(t, map[string]string{"FLOWMILL_CUSTOM_EXTENSIONS": dir})

	res, b := e.do(t, "GET", "rest/node-types?onlyLatest=true", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), `"documentationUrl":"`+e.cfg.BasePath+`docs/nodes/@acme/n8n-nodes-bookshelf.bookshelf"`)
	res, b = e.do(t, "GET", "docs/nodes/@acme/n8n-nodes-bookshelf.bookshelf", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), "<h1>Bookshelf</h1>")
	require.Contains(t, string(b), `data-node-type="@acme/n8n-nodes-bookshelf.bookshelf"`)
	res, b = e.do(t, "GET", "docs/nodes/@acme/n8n-nodes-nope.bookshelf", "")
	require.Equal(t, 404, res.StatusCode)
	require.Contains(t, string(b), "@acme/n8n-nodes-nope.bookshelf")
}

func TestCustomNodesRefuseToStart(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "broken"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken", "x.node.json"), []byte(`{"name": "x"`), 0o600))
	env := infratest.Env(t, map[string]string{"FLOWMILL_CUSTOM_EXTENSIONS": dir})
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	require.NoError(t, err)
	in, err := infra.Open(context.Background(), cfg, cfg.Logger(io.Discard))
	if in != nil {
		in.Close()
	}
	require.ErrorContains(t, err, filepath.Join(dir, "broken", "x.node.json")+": invalid JSON")
}
