package graphql_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	graphqlgo "github.com/graph-gophers/graphql-go"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/httpauth/httpauthtest"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/graphql"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

const schema = `
schema { query: Query }
type Query {
	hello(name: String): String!
	fail: String
	book(id: ID!): Book
}
type Book { id: ID! title: String! }
`

type resolver struct{}

func (*resolver) Hello(args struct{ Name *string }) string {
	if args.Name == nil {
		return "Hello, world"
	}
	return "Hello, " + *args.Name
}

func (*resolver) Fail() (*string, error) { return nil, errors.New("boom") }

type book struct{ id, title string }

func (b book) ID() graphqlgo.ID { return graphqlgo.ID(b.id) }
func (b book) Title() string    { return b.title }

func (*resolver) Book(args struct{ ID graphqlgo.ID }) *book {
	if args.ID == "1" {
		return &book{"1", "Dune"}
	}
	return nil
}

// seen is what the server was sent last.
type seen struct {
	method, contentType, custom, rawQuery string
	body                                  []byte
}

// server is a GraphQL endpoint run by graphql-go: GET reads ?query=, POST a JSON body or an
// application/graphql one. /auth/ first checks the credentials a real service would.
func server(t *testing.T) (*httptest.Server, func() seen) {
	t.Helper()
	s := graphqlgo.MustParseSchema(schema, &resolver{})
	var mu sync.Mutex
	var last seen
	const realm, nonce = "test", "abc123"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		last = seen{method: r.Method, contentType: r.Header.Get("Content-Type"), custom: r.Header.Get("X-Custom"),
			rawQuery: r.URL.RawQuery, body: body}
		mu.Unlock()
		var req struct {
			Query         string         `json:"query"`
			OperationName string         `json:"operationName"`
			Variables     map[string]any `json:"variables"`
			Tenant        string         `json:"tenant"`
		}
		switch {
		case r.Method == http.MethodGet:
			// n8n sends its JSON body with GET too; the query string has the query.
			_ = json.Unmarshal(body, &req)
			req.Query = r.URL.Query().Get("query")
		case strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"):
			if err := json.Unmarshal(body, &req); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		case strings.HasPrefix(r.Header.Get("Content-Type"), "application/graphql"):
			req.Query = string(body)
		}
		if strings.HasPrefix(r.URL.Path, "/html") {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte("<html>bad gateway</html>"))
			return
		}
		if strings.HasPrefix(r.URL.Path, "/auth/") && !authorized(r, req.Tenant, realm, nonce) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", qop="auth", nonce="%s"`, realm, nonce))
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"errors":[{"message":"not authorized"}]}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		out, _ := json.Marshal(s.Exec(r.Context(), req.Query, req.OperationName, req.Variables))
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv, func() seen { mu.Lock(); defer mu.Unlock(); return last }
}

func authorized(r *http.Request, tenant, realm, nonce string) bool {
	if u, p, ok := r.BasicAuth(); ok {
		return u == "ann" && p == "secret"
	}
	switch {
	case r.Header.Get("X-Api-Key") == "k1", r.URL.Query().Get("api_key") == "k2",
		r.Header.Get("Authorization") == "Bearer tok", httpauthtest.ValidOAuth1(r, "ck", "cs", "ots"):
		return true
	case r.Header.Get("X-Team") == "t1" && r.URL.Query().Get("org") == "o1" && tenant == "acme":
		return true
	}
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Digest ") {
		p := map[string]string{}
		for _, f := range strings.Split(strings.TrimPrefix(h, "Digest "), ", ") {
			k, v, _ := strings.Cut(f, "=")
			p[k] = strings.Trim(v, `"`)
		}
		md := func(s string) string { b := md5.Sum([]byte(s)); return hex.EncodeToString(b[:]) }
		want := md(md("ann:"+realm+":secret") + ":" + nonce + ":" + p["nc"] + ":" + p["cnonce"] + ":auth:" + md(r.Method+":"+p["uri"]))
		return p["response"] == want
	}
	return false
}

func store(creds map[string]m) nodes.CredentialsFunc {
	return func(_ context.Context, ref nodes.CredentialRef) (map[string]any, error) {
		c, ok := creds[ref.Type]
		if !ok {
			return nil, fmt.Errorf("no credential %q", ref.Name)
		}
		return c, nil
	}
}

var credentials = map[string]m{
	"httpBasicAuth":  {"user": "ann", "password": "secret"},
	"httpDigestAuth": {"user": "ann", "password": "secret"},
	"httpHeaderAuth": {"name": "X-Api-Key", "value": "k1"},
	"httpQueryAuth":  {"name": "api_key", "value": "k2"},
	"httpCustomAuth": {"json": `{"headers": {"X-Team": "t1"}, "qs": {"org": "o1"}, "body": {"tenant": "acme"}}`},
	"oAuth2Api":      {"oauthTokenData": m{"access_token": "tok", "token_type": "bearer"}},
	"oAuth1Api": {"consumerKey": "ck", "consumerSecret": "cs", "signatureMethod": "HMAC-SHA1",
		"oauthTokenData": m{"oauth_token": "ot", "oauth_token_secret": "ots"}},
}

func run(t *testing.T, n nodetest.Node, items ...workflow.Item) ([]workflow.Item, error) {
	t.Helper()
	if len(items) == 0 {
		items = nodetest.Items(m{})
	}
	out, err := nodetest.Run(t, graphql.Type(), n, items)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

func TestRequests(t *testing.T) {
	t.Parallel()
	srv, last := server(t)
	greet := `query Greet($name: String) { hello(name: $name) }`
	cases := []struct {
		name        string
		version     float64
		params      m
		want        m
		method, ct  string
		body, query string
	}{
		{name: "JSON body with variables and operation name", version: 1.1,
			params: m{"query": greet, "variables": `{"name": "Ada"}`, "operationName": "Greet"},
			want:   m{"data": m{"hello": "Hello, Ada"}}, method: "POST", ct: "application/json",
			body: `{"query":"query Greet($name: String) { hello(name: $name) }","variables":{"name":"Ada"},"operationName":"Greet"}`},
		{name: "variables from an expression, empty operation name is null", version: 1.1,
			params: m{"query": greet, "variables": `={{ {"name": $json.who} }}`},
			want:   m{"data": m{"hello": "Hello, Bo"}}, method: "POST", ct: "application/json",
			body: `{"query":"query Greet($name: String) { hello(name: $name) }","variables":{"name":"Bo"},"operationName":null}`},
		{name: "version 1 sends the raw query by default", version: 1,
			params: m{"query": `{ book(id: "1") { id title } }`},
			want:   m{"data": m{"book": m{"id": "1", "title": "Dune"}}}, method: "POST", ct: "application/graphql",
			body: `{ book(id: "1") { id title } }`},
		{name: "raw query in version 1.1", version: 1.1,
			params: m{"query": `{ hello }`, "requestFormat": "graphql"},
			want:   m{"data": m{"hello": "Hello, world"}}, method: "POST", ct: "application/graphql", body: `{ hello }`},
		{name: "GET puts the query in the query string", version: 1.1,
			params: m{"requestMethod": "GET", "query": `{ hello }`},
			want:   m{"data": m{"hello": "Hello, world"}}, method: "GET", ct: "application/json", query: "query=%7B%20hello%20%7D"},
		{name: "string response", version: 1,
			params: m{"query": `{ hello }`, "responseFormat": "string", "dataPropertyName": "raw"},
			want:   m{"raw": `{"data":{"hello":"Hello, world"}}`}, method: "POST", ct: "application/graphql"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			params := m{"endpoint": srv.URL + "/graphql"}
			for k, v := range tc.params {
				params[k] = v
			}
			out, err := run(t, nodetest.Node{Version: tc.version, Parameters: params}, nodetest.Items(m{"who": "Bo"})...)
			require.NoError(t, err)
			require.Len(t, out, 1)
			require.Equal(t, tc.want, workflow.ToMaps(out[0].JSON))
			got := last()
			require.Equal(t, tc.method, got.method)
			require.Equal(t, tc.ct, got.contentType)
			if tc.body != "" {
				require.Equal(t, tc.body, string(got.body))
			}
			require.Equal(t, tc.query, got.rawQuery)
		})
	}
}

func TestHeadersAndItems(t *testing.T) {
	t.Parallel()
	srv, last := server(t)
	out, err := run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/graphql", "query": `={{ "{ hello(name: \"" + $json.n + "\") }" }}`,
		"headerParametersUi": m{"parameter": []any{m{"name": "X-Custom", "value": "yes"}}}}},
		nodetest.Items(m{"n": "A"}, m{"n": "B"})...)
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, m{"data": m{"hello": "Hello, B"}}, workflow.ToMaps(out[1].JSON))
	require.Equal(t, 1, (*out[1].PairedItem)[0].Item)
	require.Equal(t, "yes", last().custom)
}

func TestGraphQLErrors(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)
	params := m{"endpoint": srv.URL + "/graphql", "query": `{ fail hello }`}
	_, err := run(t, nodetest.Node{Parameters: params})
	ne := nodetest.NodeError(t, err)
	require.Equal(t, "boom", ne.Message)
	require.Equal(t, "NodeApiError", ne.Name)

	// A query the schema refuses.
	_, err = run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/graphql", "query": `{ nope }`}})
	require.Contains(t, nodetest.NodeError(t, err).Message, `Cannot query field "nope"`)

	// With continueOnFail the answer and the error are both output, as n8n does.
	out, err := run(t, nodetest.Node{Parameters: params, ContinueOnFail: true})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, "Hello, world", workflow.ToMaps(out[0].JSON).(m)["data"].(m)["hello"])
	require.Equal(t, m{"error": "boom"}, workflow.ToMaps(out[1].JSON))

	// The string response format is read for errors too.
	_, err = run(t, nodetest.Node{Version: 1, Parameters: m{"endpoint": srv.URL + "/auth/graphql", "query": `{ hello }`, "responseFormat": "string"}})
	require.Equal(t, "not authorized", nodetest.NodeError(t, err).Message)

	// Other shapes of the errors field.
	for body, want := range map[string]string{
		`{"data":null,"errors":[]}`:                     "Unexpected error",
		`{"errors":"rate limited"}`:                     "rate limited",
		`{"errors":{"message":"bad token","code":401}}`: "bad token",
		`{"errors":{"code":500}}`:                       `{"code":500}`,
		`{"errors":[{"message":"a"},{"message":"b"}]}`:  "a, b",
		`{"data":{"hello":"x"},"errors":null}`:          "",
	} {
		fixed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = w.Write([]byte(body))
		}))
		_, err := run(t, nodetest.Node{Parameters: m{"endpoint": fixed.URL, "query": `{ hello }`}})
		fixed.Close()
		if want == "" {
			require.NoError(t, err, body)
			continue
		}
		require.Equal(t, want, nodetest.NodeError(t, err).Message, body)
	}

	// An answer that is not JSON.
	_, err = run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/html", "query": `{ hello }`}})
	require.Equal(t, `Response body is not valid JSON. Change "Response Format" to "String"`, nodetest.NodeError(t, err).Message)

	_, err = run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/graphql", "query": `{ hello }`, "variables": `{"a":`}})
	require.Contains(t, nodetest.NodeError(t, err).Message, "Using variables failed:\n{\"a\":\n\nWith error message:\n")

	_, err = run(t, nodetest.Node{Parameters: m{"endpoint": "not a url", "query": `{ hello }`}})
	require.Equal(t, "Invalid URL: not a url", nodetest.NodeError(t, err).Message)
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	srv, _ := server(t)
	for auth, credType := range map[string]string{
		"basicAuth": "httpBasicAuth", "digestAuth": "httpDigestAuth", "headerAuth": "httpHeaderAuth", "queryAuth": "httpQueryAuth",
		"customAuth": "httpCustomAuth", "oAuth1": "oAuth1Api", "oAuth2": "oAuth2Api",
	} {
		t.Run(auth, func(t *testing.T) {
			t.Parallel()
			for _, method := range []string{"POST", "GET"} {
				params := m{"endpoint": srv.URL + "/auth/graphql", "authentication": auth, "requestMethod": method, "query": `{ hello }`}
				out, err := run(t, nodetest.Node{Parameters: params, Credentials: m{credType: m{"id": "1", "name": "cred"}}, CredentialData: store(credentials)})
				require.NoError(t, err, method)
				require.Equal(t, m{"data": m{"hello": "Hello, world"}}, workflow.ToMaps(out[0].JSON), method)
			}
		})
	}

	// Without the credential the request goes unauthenticated and the server's errors fail it.
	_, err := run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/auth/graphql", "authentication": "basicAuth", "query": `{ hello }`}})
	require.Equal(t, "not authorized", nodetest.NodeError(t, err).Message)

	_, err = run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/auth/graphql", "authentication": "oAuth2", "query": `{ hello }`},
		Credentials: m{"oAuth2Api": m{"id": "1", "name": "cred"}}, CredentialData: store(map[string]m{"oAuth2Api": {"clientId": "x"}})})
	require.Equal(t, "OAuth credentials not connected", nodetest.NodeError(t, err).Message)

	_, err = run(t, nodetest.Node{Parameters: m{"endpoint": srv.URL + "/auth/graphql", "authentication": "customAuth", "query": `{ hello }`},
		Credentials: m{"httpCustomAuth": m{"id": "1", "name": "cred"}}, CredentialData: store(map[string]m{"httpCustomAuth": {"json": "nope"}})})
	require.Equal(t, "Invalid Custom Auth JSON", nodetest.NodeError(t, err).Message)
}

func TestTLSAndEgress(t *testing.T) {
	t.Parallel()
	s := graphqlgo.MustParseSchema(schema, &resolver{})
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Query string }
		_ = json.NewDecoder(r.Body).Decode(&req)
		out, _ := json.Marshal(s.Exec(r.Context(), req.Query, "", nil))
		_, _ = w.Write(out)
	}))
	// The refused handshake is expected.
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	params := m{"endpoint": tlsSrv.URL, "query": `{ hello }`}
	_, err := run(t, nodetest.Node{Parameters: params})
	require.Contains(t, nodetest.NodeError(t, err).Message, "certificate")

	params["allowUnauthorizedCerts"] = true
	out, err := run(t, nodetest.Node{Parameters: params})
	require.NoError(t, err)
	require.Equal(t, m{"data": m{"hello": "Hello, world"}}, workflow.ToMaps(out[0].JSON))

	// The instance's egress policy decides what the node may reach.
	cfg, err := config.Load(nil, func(k string) string {
		return map[string]string{"FLOWMILL_EGRESS_DENY": "127.0.0.0/8"}[k]
	})
	require.NoError(t, err)
	host := nodes.Host{HTTP: cfg.Egress().Client(egress.Options{})}
	_, err = run(t, nodetest.Node{Parameters: params, Host: host})
	require.Equal(t, "The address 127.0.0.1 is not allowed (FLOWMILL_EGRESS_DENY).", nodetest.NodeError(t, err).Message)
}
