package custom_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

const examples = "../../../examples/custom-nodes"

// registry holds the examples, loaded and registered as a process does at start, before any
// test runs: registering credential types is not meant to race with lookups.
var registry *nodes.Registry

func TestMain(m *testing.M) {
	r, err := infra.BuildNodes(&config.Config{CustomExtensions: examples})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	registry = r
	os.Exit(m.Run())
}

// exampleType returns an example node type.
func exampleType(t *testing.T, name string) nodes.Type {
	t.Helper()
	typ, ok := registry.Get(name, 1)
	require.True(t, ok, name)
	return *typ
}

func creds(data map[string]any) nodes.CredentialsFunc {
	return func(context.Context, nodes.CredentialRef) (map[string]any, error) { return data, nil }
}

// bookshelf serves /books in pages of two with a cursor, and /books/{id}; it wants X-API-Key.
func bookshelf(t *testing.T, seen *[]string) *httptest.Server {
	t.Helper()
	books := []map[string]any{
		{"id": "1", "title": "Dune", "year": 1965, "author": "Herbert"},
		{"id": "2", "title": "Aniara", "year": 1956, "author": "Martinson"},
		{"id": "3", "title": "Solaris", "year": 1961, "author": "Lem"},
		{"id": "4", "title": "Blindsight", "year": 2006, "author": "Watts"},
		{"id": "5", "title": "Kindred", "year": 1979, "author": "Butler"},
	}
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		*seen = append(*seen, r.URL.RequestURI())
		mu.Unlock()
		if r.Header.Get("X-API-Key") != "secret" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"bad key"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/books" {
			start, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
			end := min(start+2, len(books))
			if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && start+n < end {
				end = start + n
			}
			page := map[string]any{"data": books[start:end]}
			if end < len(books) {
				page["nextCursor"] = strconv.Itoa(end)
			}
			_ = json.NewEncoder(w).Encode(page)
			return
		}
		for _, b := range books {
			if r.URL.Path == "/books/"+b["id"].(string) {
				_ = json.NewEncoder(w).Encode(b)
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message":"no such book"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func titles(items []map[string]any) []any {
	var out []any
	for _, it := range items {
		out = append(out, it["title"])
	}
	return out
}

func TestBookshelf(t *testing.T) {
	t.Parallel()
	typ := exampleType(t, "n8n-nodes-bookshelf.bookshelf")
	tests := []struct {
		name      string
		params    map[string]any
		want      []any
		wantCalls []string
	}{
		{"list follows the limit in the query and output", map[string]any{"operation": "list", "limit": 1},
			[]any{"Dune"}, []string{"/books?limit=1"}},
		{"list returns all pages", map[string]any{"operation": "list", "returnAll": true},
			[]any{"Dune", "Aniara", "Solaris", "Blindsight", "Kindred"},
			[]string{"/books", "/books?cursor=2", "/books?cursor=4"}},
		{"collection options send a filter and sort the output",
			map[string]any{"operation": "list", "limit": 2, "filters": map[string]any{"author": "Lem", "sortBy": "year"}},
			[]any{"Aniara", "Dune"}, []string{"/books?author=Lem&limit=2"}},
		{"get puts the id in the URL", map[string]any{"operation": "get", "bookId": "={{ $json.id }}"},
			[]any{"Solaris"}, []string{"/books/3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var seen []string
			srv := bookshelf(t, &seen)
			outs, err := nodetest.Run(t, typ, nodetest.Node{
				Parameters:     tc.params,
				Credentials:    map[string]any{"bookshelfApi": map[string]any{"id": "1", "name": "Books"}},
				CredentialData: creds(map[string]any{"baseUrl": srv.URL, "apiKey": "secret"}),
			}, nodetest.Items(map[string]any{"id": "3"}))
			require.NoError(t, err)
			require.Equal(t, tc.want, titles(nodetest.JSONs(outs[0])))
			require.Equal(t, tc.wantCalls, seen)
			for _, it := range outs[0] {
				require.Equal(t, 0, (*it.PairedItem)[0].Item)
			}
		})
	}
}

func TestBookshelfErrors(t *testing.T) {
	t.Parallel()
	typ := exampleType(t, "n8n-nodes-bookshelf.bookshelf")
	var seen []string
	srv := bookshelf(t, &seen)
	run := func(apiKey, bookID string, host nodes.Host) error {
		_, err := nodetest.Run(t, typ, nodetest.Node{
			Parameters:     map[string]any{"operation": "get", "bookId": bookID},
			Credentials:    map[string]any{"bookshelfApi": map[string]any{"id": "1", "name": "Books"}},
			CredentialData: creds(map[string]any{"baseUrl": srv.URL, "apiKey": apiKey}),
			Host:           host,
		}, nodetest.Items(map[string]any{}))
		return err
	}
	e := nodetest.NodeError(t, run("wrong", "1", nodes.Host{}))
	require.Equal(t, "Authorization failed - please check your credentials", e.Message)
	require.Equal(t, "bad key", e.Description)
	require.Equal(t, "401", e.HTTPCode)
	e = nodetest.NodeError(t, run("secret", "9", nodes.Host{}))
	require.Equal(t, "The resource you are requesting could not be found", e.Message)

	cfg, err := config.Load(nil, func(k string) string {
		return map[string]string{"FLOWMILL_EGRESS_DENY": "127.0.0.0/8"}[k]
	})
	require.NoError(t, err)
	before := len(seen)
	err = run("secret", "1", nodes.Host{HTTP: cfg.Egress().Client(egress.Options{})})
	require.ErrorContains(t, err, "127.0.0.1")
	require.ErrorContains(t, err, "not allowed")
	require.Len(t, seen, before, "a denied request never reaches the server")
}

func TestSigner(t *testing.T) {
	t.Parallel()
	typ := exampleType(t, "n8n-nodes-signer.signer")
	key := []byte("signing-key")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/sign" || r.Header.Get("Authorization") != "Bearer tok" ||
			r.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprintf(w, `{"message":"unexpected %s %s"}`, r.Method, r.URL.Path)
			return
		}
		var body struct {
			Payload string `json:"payload"`
			Signing struct {
				Algorithm string `json:"algorithm"`
			} `json:"signing"`
		}
		require.NoError(t, json.NewDecoder(r.Body).Decode(&body))
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(body.Payload))
		_ = json.NewEncoder(w).Encode(map[string]any{"signature": hex.EncodeToString(mac.Sum(nil)), "algorithm": body.Signing.Algorithm})
	}))
	t.Cleanup(srv.Close)
	outs, err := nodetest.Run(t, typ, nodetest.Node{
		Parameters:     map[string]any{"headerName": "X-Hub-Signature"},
		Credentials:    map[string]any{"signerApi": map[string]any{"id": "1", "name": "Signer"}},
		CredentialData: creds(map[string]any{"url": srv.URL, "token": "tok"}),
	}, nodetest.Items(map[string]any{"event": "push"}, map[string]any{"event": "tag"}))
	require.NoError(t, err)
	sign := func(s string) string {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(s))
		return hex.EncodeToString(mac.Sum(nil))
	}
	nodetest.RequireJSONs(t, []map[string]any{
		{"header": "X-Hub-Signature", "signature": sign(`{"event":"push"}`), "algorithm": "sha256"},
		{"header": "X-Hub-Signature", "signature": sign(`{"event":"tag"}`), "algorithm": "sha256"},
	}, outs[0])
	require.Equal(t, [][]string{{"header", "signature", "algorithm"}, {"header", "signature", "algorithm"}}, nodetest.Keys(outs[0]))
	require.Equal(t, 1, (*outs[0][1].PairedItem)[0].Item)
}

func TestExampleCredentialTest(t *testing.T) {
	t.Parallel()
	exampleType(t, "n8n-nodes-signer.signer")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/health" || r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	typ, ok := credential.Lookup("signerApi")
	require.True(t, ok)
	in := credential.TestInput{Client: http.DefaultClient}
	require.Equal(t, credential.TestOK, typ.TestCredential(context.Background(), map[string]any{"url": srv.URL, "token": "tok"}, in).Status)
	require.Equal(t, credential.TestError, typ.TestCredential(context.Background(), map[string]any{"url": srv.URL, "token": "bad"}, in).Status)
}
