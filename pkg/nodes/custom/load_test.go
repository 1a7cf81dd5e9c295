package custom_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/nodes/custom"
)

const validNode = `{"displayName": "Thing", "name": "thing", "version": 1,
  "requestDefaults": {"baseURL": "http://127.0.0.1:1"},
  "properties": [{"displayName": "ID", "name": "id", "type": "string", "default": "",
    "routing": {"request": {"url": "=/things/{{$value}}"}}}]}`

// writePackages lays out a custom extensions folder: package folder → file name → content.
func writePackages(t *testing.T, pkgs map[string]map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for pkg, files := range pkgs {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, pkg), 0o755))
		for name, content := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, pkg, name), []byte(content), 0o600))
		}
	}
	return dir
}

func TestLoadExamples(t *testing.T) {
	t.Parallel()
	pkgs, err := custom.Load(examples)
	require.NoError(t, err)
	require.Len(t, pkgs, 2)
	require.Equal(t, "n8n-nodes-bookshelf", pkgs[0].Name)
	require.Equal(t, "n8n-nodes-bookshelf.bookshelf", pkgs[0].Nodes[0].Description.Name)
	require.Equal(t, "bookshelfApi", pkgs[0].Credentials[0].Name)
	require.Equal(t, "n8n-nodes-signer.signer", pkgs[1].Nodes[0].Description.Name)
	d := pkgs[1].Nodes[0].Description
	require.Equal(t, []string{custom.Category}, d.Codex.Categories)
	require.Equal(t, []string{"main"}, d.Inputs)
	require.Equal(t, []string{"main"}, d.Outputs)
	// The editor gets the description with the prefixed name and category.
	b, err := json.Marshal(d)
	require.NoError(t, err)
	require.Contains(t, string(b), `"name":"n8n-nodes-signer.signer"`)
	require.Contains(t, string(b), `"routing"`)
}

func TestLoadValidPackage(t *testing.T) {
	t.Parallel()
	dir := writePackages(t, map[string]map[string]string{
		"acme": {"thing.node.json": validNode, "README.md": "not read", "package.json": `{"version": "1.0.0"}`,
			"acmeApi.credentials.json": `{"name": "acmeTestApi", "displayName": "Acme", "properties": [{"displayName": "Key", "name": "key", "type": "string", "default": ""}]}`},
	})
	pkgs, err := custom.Load(dir)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Equal(t, "acme", pkgs[0].Name, "the folder names a package without a package.json name")
	require.Equal(t, "acme.thing", pkgs[0].Nodes[0].Description.Name)
	require.Equal(t, "acmeTestApi", pkgs[0].Credentials[0].Name)
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pkgs map[string]map[string]string
		want []string
	}{
		{"invalid JSON", map[string]map[string]string{"p": {"a.node.json": `{"name": "a",`}},
			[]string{filepath.Join("p", "a.node.json"), "invalid JSON"}},
		{"invalid credential JSON", map[string]map[string]string{"p": {"a.credentials.json": `{"name": }`}},
			[]string{filepath.Join("p", "a.credentials.json"), "invalid JSON at byte"}},
		{"missing name", map[string]map[string]string{"p": {"a.node.json": `{"displayName": "A", "version": 1, "properties": []}`}},
			[]string{"a.node.json: name: missing"}},
		{"missing version", map[string]map[string]string{"p": {"a.node.json": `{"name": "a", "displayName": "A", "properties": []}`}},
			[]string{"a.node.json: version: missing"}},
		{"missing properties", map[string]map[string]string{"p": {"a.node.json": `{"name": "a", "displayName": "A", "version": 1}`}},
			[]string{"a.node.json: properties: missing"}},
		{"credential without name", map[string]map[string]string{"p": {"c.credentials.json": `{"displayName": "C", "properties": []}`}},
			[]string{"c.credentials.json: name: missing"}},
		{"credential authenticate type", map[string]map[string]string{"p": {"c.credentials.json": `{"name": "c", "displayName": "C", "properties": [], "authenticate": {"type": "bearer"}}`}},
			[]string{"c.credentials.json: authenticate.type", "not supported"}},
		{"unknown postReceive action", map[string]map[string]string{"p": {"a.node.json": `{"name": "a", "displayName": "A", "version": 1, "properties": [
			{"name": "op", "type": "options", "default": "x", "options": [{"name": "X", "value": "x", "routing": {"output": {"postReceive": [{"type": "magic"}]}}}]}]}`}},
			[]string{"a.node.json: properties.op.options[x].routing.output.postReceive[0].type", `"magic" is not supported`}},
		{"preSend", map[string]map[string]string{"p": {"a.node.json": `{"name": "a", "displayName": "A", "version": 1, "properties": [
			{"name": "q", "type": "string", "default": "", "routing": {"send": {"preSend": ["fn"]}}}]}`}},
			[]string{"properties.q.routing.send.preSend: not supported"}},
		{"pagination type", map[string]map[string]string{"p": {"a.node.json": `{"name": "a", "displayName": "A", "version": 1, "properties": [],
			"requestOperations": {"pagination": {"type": "cursorMagic"}}}`}},
			[]string{"requestOperations.pagination.type"}},
		{"dotted name", map[string]map[string]string{"p": {"a.node.json": `{"name": "x.a", "displayName": "A", "version": 1, "properties": []}`}},
			[]string{"a.node.json: name:", "must not contain a dot"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writePackages(t, tc.pkgs)
			_, err := custom.Load(dir)
			require.Error(t, err)
			for _, w := range tc.want {
				require.Contains(t, err.Error(), w)
			}
			// A process given the folder refuses to start with the same message.
			_, buildErr := infra.BuildNodes(&config.Config{CustomExtensions: dir})
			require.EqualError(t, buildErr, err.Error())
		})
	}
}

func TestRegisterConflicts(t *testing.T) {
	t.Parallel()
	cred := func(name string) string {
		return `{"name": "` + name + `", "displayName": "X", "properties": []}`
	}
	tests := []struct {
		name string
		pkgs map[string]map[string]string
		want string
	}{
		{"node type of a built-in", map[string]map[string]string{"n8n-nodes-base": {"noop.node.json": `{"name": "noOp", "displayName": "No Op", "version": 1, "properties": []}`}},
			`node type "n8n-nodes-base.noOp" conflicts with a built-in node type`},
		{"node type of another package", map[string]map[string]string{
			"one": {"package.json": `{"name": "n8n-nodes-same"}`, "thing.node.json": validNode},
			"two": {"package.json": `{"name": "n8n-nodes-same"}`, "thing.node.json": validNode}},
			`node type "n8n-nodes-same.thing" is also defined by package n8n-nodes-same`},
		{"unknown credential type", map[string]map[string]string{"p": {"a.node.json": `{"name": "a", "displayName": "A", "version": 1, "properties": [], "credentials": [{"name": "nowhereApi"}]}`}},
			`node type "p.a" uses credential type "nowhereApi", which neither a built-in nor a package defines`},
		{"credential type of a built-in", map[string]map[string]string{"p": {"c.credentials.json": cred("httpHeaderAuth")}},
			`credential type "httpHeaderAuth" conflicts with a built-in credential type`},
		{"credential type of another package", map[string]map[string]string{
			"one": {"c.credentials.json": cred("sharedConflictApi")}, "two": {"c.credentials.json": cred("sharedConflictApi")}},
			`credential type "sharedConflictApi" is also defined by package one`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := writePackages(t, tc.pkgs)
			_, err := infra.BuildNodes(&config.Config{CustomExtensions: dir})
			require.ErrorContains(t, err, tc.want)
			require.ErrorContains(t, err, "custom nodes: package ")
		})
	}
}

func TestLoadMissingFolder(t *testing.T) {
	t.Parallel()
	_, err := infra.BuildNodes(&config.Config{CustomExtensions: filepath.Join(t.TempDir(), "absent")})
	require.ErrorContains(t, err, "custom nodes:")
	require.ErrorContains(t, err, "absent")
}
