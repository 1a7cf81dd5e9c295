package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestNodeTypesList(t *testing.T) {
	e := startServer(t, nil)
	res, b := e.do(t, "GET", "rest/node-types", "")
	require.Equal(t, 200, res.StatusCode)
	var all []map[string]any
	decodeData(t, b, &all)
	reg := core.ForInstance(e.cfg)
	require.Len(t, all, len(reg.Types()))
	versions := map[string][]any{}
	for _, d := range all {
		require.NotContains(t, d, "properties")
		require.Contains(t, d, "displayName")
		versions[d["name"].(string)] = append(versions[d["name"].(string)], d["version"])
	}
	require.ElementsMatch(t, []any{1.0, 2.0, []any{3.0, 4.0, 4.1, 4.2}}, versions["n8n-nodes-base.httpRequest"])

	res, b = e.do(t, "GET", "rest/node-types?onlyLatest=true", "")
	require.Equal(t, 200, res.StatusCode)
	var latest []map[string]any
	decodeData(t, b, &latest)
	require.Len(t, latest, len(reg.Latest()))
	for _, d := range latest {
		if d["name"] == "n8n-nodes-base.httpRequest" {
			require.Equal(t, []any{3.0, 4.0, 4.1, 4.2}, d["version"])
		}
	}

	_, b = e.do(t, "GET", "rest/node-types?onlyLatest=true&includeProperties=true", "")
	decodeData(t, b, &latest)
	require.Contains(t, latest[0], "properties")
}

func TestNodeTypesByNameAndVersion(t *testing.T) {
	e := startServer(t, nil)
	body := `{"nodeInfos":[{"name":"n8n-nodes-base.httpRequest","version":1},{"name":"n8n-nodes-base.webhook","version":1},
		{"name":"n8n-nodes-base.httpRequest","version":9},{"name":"n8n-nodes-base.nope","version":1}]}`
	res, b := e.do(t, "POST", "rest/node-types", body, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(b))
	var got []map[string]any
	decodeData(t, b, &got)
	require.Len(t, got, 2, "unknown types and versions are left out")
	require.Equal(t, "n8n-nodes-base.httpRequest", got[0]["name"])
	require.Equal(t, 1.0, got[0]["version"])
	require.NotEmpty(t, got[0]["properties"])
	require.NotEmpty(t, got[1]["webhooks"], "fields beyond Go's struct are kept")

	res, b = e.do(t, "POST", "rest/node-types", `{}`, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"data":[]}`, string(b))
	res, _ = e.do(t, "POST", "rest/node-types", `{nope`, "Content-Type", "application/json")
	require.Equal(t, 400, res.StatusCode)
}

// The node creator offers the latest version of a type; a stored node keeps its version, and the
// details the NDV draws are that version's, never a neighbour's: a version the type does not list
// gets no description at all (the editor then shows the node as unknown).
func TestNodeTypesLatestForNewStoredForExisting(t *testing.T) {
	e := startServer(t, nil)
	_, b := e.do(t, "GET", "rest/node-types?onlyLatest=true", "")
	var latest []map[string]any
	decodeData(t, b, &latest)
	byName := map[string]map[string]any{}
	for _, d := range latest {
		byName[d["name"].(string)] = d
	}
	require.Equal(t, []any{3.0, 4.0, 4.1, 4.2}, byName["n8n-nodes-base.httpRequest"]["version"])
	require.Equal(t, 4.2, byName["n8n-nodes-base.httpRequest"]["defaultVersion"])
	require.Equal(t, []any{1.0, 2.0}, byName["n8n-nodes-base.code"]["version"])
	require.Equal(t, 2.0, byName["n8n-nodes-base.code"]["defaultVersion"], "a new Code node gets version 2, as in n8n 1.x")

	body := `{"nodeInfos":[{"name":"n8n-nodes-base.httpRequest","version":1},{"name":"n8n-nodes-base.httpRequest","version":2},
		{"name":"n8n-nodes-base.webhook","version":3},{"name":"n8n-nodes-base.set","version":9}]}`
	res, b := e.do(t, "POST", "rest/node-types", body, "Content-Type", "application/json")
	require.Equal(t, 200, res.StatusCode, string(b))
	var got []struct {
		Name       string           `json:"name"`
		Version    any              `json:"version"`
		Properties []map[string]any `json:"properties"`
	}
	decodeData(t, b, &got)
	require.Len(t, got, 2, "webhook@3 and set@9 are not versions this instance has")
	names := func(props []map[string]any) []string {
		var out []string
		for _, p := range props {
			out = append(out, p["name"].(string))
		}
		return out
	}
	require.Equal(t, 1.0, got[0].Version)
	require.Equal(t, 2.0, got[1].Version)
	require.NotContains(t, names(got[0].Properties), "nodeCredentialType", "version 1 keeps its own parameters")
	require.Contains(t, names(got[1].Properties), "nodeCredentialType")
}

func TestNodeIcon(t *testing.T) {
	e := startServer(t, nil)
	res, b := e.do(t, "GET", "rest/node-icon/n8n-nodes-base.webhook", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, "image/svg+xml", res.Header.Get("Content-Type"))
	require.Equal(t, "private, max-age=604800", res.Header.Get("Cache-Control"))
	require.Contains(t, string(b), "<svg")
	etag := res.Header.Get("ETag")
	require.NotEmpty(t, etag)

	res, _ = e.do(t, "GET", "rest/node-icon/n8n-nodes-base.webhook", "", "If-None-Match", etag)
	require.Equal(t, 304, res.StatusCode)

	res, b = e.do(t, "GET", "rest/node-icon/n8n-nodes-base.respondToWebhook", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), "<svg")

	res, b = e.do(t, "GET", "rest/node-icon/n8n-nodes-base.httpRequest", "")
	require.Equal(t, 404, res.StatusCode)
	require.JSONEq(t, `{"code":404,"message":"Node does not have a file icon."}`, string(b))
	res, _ = e.do(t, "GET", "rest/node-icon/n8n-nodes-base.nope", "")
	require.Equal(t, 404, res.StatusCode)
	res, _ = e.do(t, "GET", "rest/node-icon/@scope/pkg.node", "")
	require.Equal(t, 404, res.StatusCode)

	require.NoError(t, e.in.Store.SetSetting(context.Background(), store.SettingOwnerSetUp, "true"))
	res, err := (&http.Client{}).Get(e.base + "rest/node-icon/n8n-nodes-base.webhook")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 401, res.StatusCode, "icons need a signed-in user like every /rest call")
}

func TestNodeParameterOptionsAndTranslationHeaders(t *testing.T) {
	e := startServer(t, nil)
	q := url.Values{}
	q.Set("nodeTypeAndVersion", `{"name":"n8n-nodes-base.httpRequest","version":2}`)
	q.Set("methodName", "getNothing")
	q.Set("currentNodeParameters", `{}`)
	res, b := e.do(t, "GET", "rest/node-parameter-options?"+q.Encode(), "")
	require.Equal(t, 404, res.StatusCode)
	require.Contains(t, string(b), `does not have the method \"getNothing\" defined!`)

	q.Set("nodeTypeAndVersion", `{"name":"n8n-nodes-base.nope","version":1}`)
	res, _ = e.do(t, "GET", "rest/node-parameter-options?"+q.Encode(), "")
	require.Equal(t, 404, res.StatusCode)

	q.Set("nodeTypeAndVersion", `{nope`)
	res, _ = e.do(t, "GET", "rest/node-parameter-options?"+q.Encode(), "")
	require.Equal(t, 400, res.StatusCode)
	res, _ = e.do(t, "GET", "rest/node-parameter-options", "")
	require.Equal(t, 400, res.StatusCode)

	q.Set("nodeTypeAndVersion", `{"name":"n8n-nodes-base.set","version":1}`)
	q.Del("methodName")
	res, b = e.do(t, "GET", "rest/node-parameter-options?"+q.Encode(), "")
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"data":[]}`, string(b))

	res, b = e.do(t, "GET", "rest/node-translation-headers", "")
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{}`, string(b), "only the built-in English texts: n8n sends no headers")
}

// A node type with a load-options method, as the editor calls it.
func TestLoadParameterOptions(t *testing.T) {
	t.Parallel()
	desc := nodes.MustParseDescription([]byte(`{"displayName":"Zones","name":"test.zones","group":["transform"],"version":1,
		"defaults":{"name":"Zones"},"inputs":["main"],"outputs":["main"],"properties":[{"displayName":"Zone","name":"zone","type":"options",
		"typeOptions":{"loadOptionsMethod":"getZones"},"default":""}]}`))
	var seen nodes.LoadOptionsRequest
	reg := nodes.NewRegistry()
	reg.MustRegister(nodes.Type{Description: desc, Node: nodes.NodeFunc(func(context.Context, *nodes.Execution) ([][]workflow.Item, error) {
		return nil, nil
	}), LoadOptions: map[string]nodes.LoadOptionsFunc{
		"getZones": func(_ context.Context, req nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
			seen = req
			return []nodes.OptionValue{{Name: "Berlin", Value: "Europe/Berlin", Description: "CET"}, {Name: "UTC", Value: "UTC"}}, nil
		},
		"broken": func(context.Context, nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
			return nil, errors.New("upstream down")
		},
	}})
	q, err := parseOptionsQuery(`{"name":"test.zones","version":1}`, `{"zone":"x"}`, `{"someApi":{"id":"1","name":"c"}}`)
	require.NoError(t, err)
	q.methodName, q.path = "getZones", "parameters.zone"
	got, err := loadParameterOptions(context.Background(), reg, q, q.request())
	require.NoError(t, err)
	b, err := json.Marshal(got)
	require.NoError(t, err)
	require.JSONEq(t, `[{"name":"Berlin","value":"Europe/Berlin","description":"CET"},{"name":"UTC","value":"UTC"}]`, string(b))
	require.Equal(t, "parameters.zone", seen.Path)
	require.Equal(t, map[string]any{"zone": "x"}, seen.Parameters)
	require.Contains(t, seen.Credentials, "someApi")

	q.methodName = "broken"
	_, err = loadParameterOptions(context.Background(), reg, q, q.request())
	require.Equal(t, 500, statusOf(err))
	require.ErrorContains(t, err, "upstream down")

	q.methodName, q.declarative = "", true
	_, err = loadParameterOptions(context.Background(), reg, q, q.request())
	require.Equal(t, 400, statusOf(err))
}
