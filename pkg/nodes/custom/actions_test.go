package custom_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/custom"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

// actionsNode exercises the routing features the examples leave out.
const actionsNode = `{"displayName": "Actions", "name": "actions", "version": 1,
 "credentials": [{"name": "actionsTestApi"}],
 "requestDefaults": {"baseURL": "={{$credentials.url}}"},
 "properties": [
  {"displayName": "Operation", "name": "operation", "type": "options", "default": "set", "options": [
    {"name": "Set", "value": "set", "routing": {"request": {"url": "/echo", "method": "POST"},
      "output": {"postReceive": [{"type": "set", "properties": {"value": "={{ {\"status\": $response.statusCode, \"got\": $response.body.body} }}"}}]}}},
    {"name": "Filter", "value": "filter", "routing": {"request": {"url": "/numbers"},
      "output": {"postReceive": [
        {"type": "filter", "properties": {"pass": "={{ $responseItem.n % 2 === 0 }}"}},
        {"type": "limit", "properties": {"maxResults": "2"}},
        {"type": "rootProperty", "enabled": false, "properties": {"property": "nope"}}]}}},
    {"name": "Offset", "value": "offset", "routing": {"request": {"url": "/offset"},
      "send": {"paginate": true},
      "operations": {"pagination": {"type": "offset", "properties": {"limitParameter": "take", "offsetParameter": "skip", "pageSize": 3, "rootProperty": "rows"}}}}},
    {"name": "File", "value": "file", "routing": {"request": {"url": "/file"},
      "output": {"postReceive": [{"type": "binaryData", "properties": {"destinationProperty": "={{$value}}Data"}}]}}}
  ]},
  {"displayName": "Tag", "name": "tag", "type": "string", "default": "x",
    "routing": {"send": {"property": "a.b", "propertyInDotNotation": false}}},
  {"displayName": "Fields", "name": "fields", "type": "fixedCollection", "typeOptions": {"multipleValues": true}, "default": {},
    "options": [{"name": "field", "displayName": "Field", "values": [
      {"displayName": "Name", "name": "name", "type": "string", "default": ""},
      {"displayName": "Value", "name": "value", "type": "string", "default": "",
        "routing": {"send": {"type": "body", "property": "=fields.{{$parent.name}}", "value": "={{$value.toUpperCase()}}"}}}]}]}
 ]}`

const actionsCredential = `{"name": "actionsTestApi", "displayName": "Actions", "properties": [
  {"displayName": "URL", "name": "url", "type": "string", "default": ""},
  {"displayName": "Key", "name": "key", "type": "string", "default": ""}],
 "authenticate": {"type": "generic", "properties": {
   "qs": {"api_key": "={{$credentials.key}}"},
   "body": {"signedBy": "={{$credentials.key}}"},
   "auth": {"username": "user", "password": "={{$credentials.key}}"}}}}`

func actionsType(t *testing.T) nodes.Type {
	t.Helper()
	dir := writePackages(t, map[string]map[string]string{"test-actions": {
		"actions.node.json": actionsNode, "actions.credentials.json": actionsCredential}})
	pkgs, err := custom.Load(dir)
	require.NoError(t, err)
	require.NoError(t, custom.Register(nodes.NewRegistry(), pkgs, func(string) bool { return false }))
	return pkgs[0].Nodes[0]
}

func TestPostReceiveActionsAndSend(t *testing.T) {
	t.Parallel()
	typ := actionsType(t)
	var mu sync.Mutex
	var calls []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls = append(calls, r.URL.RequestURI())
		mu.Unlock()
		if u, p, ok := r.BasicAuth(); !ok || u != "user" || p != "k1" || r.URL.Query().Get("api_key") != "k1" {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		switch r.URL.Path {
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			_ = json.NewEncoder(w).Encode(map[string]any{"body": json.RawMessage(b)})
		case "/numbers":
			_, _ = w.Write([]byte(`[{"n":1},{"n":2},{"n":3},{"n":4},{"n":6}]`))
		case "/offset":
			skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
			take, _ := strconv.Atoi(r.URL.Query().Get("take"))
			var rows []map[string]any
			for i := skip; i < min(skip+take, 7); i++ {
				rows = append(rows, map[string]any{"row": i})
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"rows": rows})
		case "/file":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("hello file"))
		}
	}))
	t.Cleanup(srv.Close)
	run := func(params map[string]any) []map[string]any {
		t.Helper()
		outs, err := nodetest.Run(t, typ, nodetest.Node{
			Parameters:     params,
			Credentials:    map[string]any{"actionsTestApi": map[string]any{"id": "1", "name": "A"}},
			CredentialData: creds(map[string]any{"url": srv.URL, "key": "k1"}),
		}, nodetest.Items(map[string]any{}))
		require.NoError(t, err)
		return nodetest.JSONs(outs[0])
	}

	got := run(map[string]any{"operation": "set", "tag": "t1",
		"fields": map[string]any{"field": []any{map[string]any{"name": "city", "value": "oslo"}}}})
	require.Equal(t, []map[string]any{{"status": 200.0, "got": map[string]any{"fields": map[string]any{"city": "OSLO"}, "signedBy": "k1"}}}, normalize(t, got))
	require.Contains(t, calls[len(calls)-1], "a.b=t1", "propertyInDotNotation false keeps the dotted name; send defaults to the query")

	require.Equal(t, []map[string]any{{"n": 2.0}, {"n": 4.0}}, normalize(t, run(map[string]any{"operation": "filter"})))

	calls = nil
	rows := run(map[string]any{"operation": "offset"})
	require.Len(t, rows, 7)
	require.Equal(t, 3, len(calls), "pages of 3 until a short one")
	require.Contains(t, calls[2], "skip=6")

	outs, err := nodetest.Run(t, typ, nodetest.Node{
		Parameters:     map[string]any{"operation": "file"},
		Credentials:    map[string]any{"actionsTestApi": map[string]any{"id": "1", "name": "A"}},
		CredentialData: creds(map[string]any{"url": srv.URL, "key": "k1"}),
	}, nodetest.Items(map[string]any{}))
	require.NoError(t, err)
	bin, ok := outs[0][0].Binary["fileData"]
	require.True(t, ok)
	b, err := nodes.BinaryBytes(bin)
	require.NoError(t, err)
	require.Equal(t, "hello file", string(b))
	require.Equal(t, "text/plain", bin.MimeType)
}

func normalize(t *testing.T, v any) []map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out []map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}
