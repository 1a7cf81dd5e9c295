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
