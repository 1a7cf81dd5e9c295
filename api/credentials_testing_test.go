package main

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/httpauth/httpauthtest"
)

// protectedServer answers 200 only to requests that authenticate the way its path says, as a
// real service would: /basic, /digest (a real challenge), /header, /query, /oauth1 (the
// HMAC-SHA1 signature recomputed with the consumer and token secrets), /redirect (302), /missing
// (404) and /token (the client credentials grant).
func protectedServer(t *testing.T) *httptest.Server {
	t.Helper()
	const realm, nonce = "flowmill-test", "n0nce"
	md := func(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authorized := false
		switch r.URL.Path {
		case "/basic":
			u, p, ok := r.BasicAuth()
			authorized = ok && u == "ada" && p == "right-pw"
		case "/digest":
			h := r.Header.Get("Authorization")
			if !strings.HasPrefix(h, "Digest ") {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm=%q, nonce=%q, qop="auth", algorithm=MD5`, realm, nonce))
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			f := map[string]string{}
			for _, part := range strings.Split(strings.TrimPrefix(h, "Digest "), ", ") {
				k, v, _ := strings.Cut(part, "=")
				f[k] = strings.Trim(v, `"`)
			}
			want := md(md("ada:"+realm+":right-pw") + ":" + nonce + ":" + f["nc"] + ":" + f["cnonce"] + ":auth:" + md(r.Method+":"+f["uri"]))
			authorized = f["username"] == "ada" && f["nonce"] == nonce && f["response"] == want
		case "/header":
			authorized = r.Header.Get("X-Api-Key") == "right-key"
		case "/query":
			authorized = r.URL.Query().Get("api_key") == "right-key"
		case "/oauth1":
			authorized = httpauthtest.ValidOAuth1(r, "consumer-key", "consumer-secret", "token-secret")
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
			return
		case "/missing":
			http.NotFound(w, r)
			return
		case "/token":
			id, secret, _ := r.BasicAuth()
			w.Header().Set("Content-Type", "application/json")
			if r.Method != http.MethodPost || r.PostFormValue("grant_type") != "client_credentials" || id != "client" || secret != "client-secret" {
				w.WriteHeader(http.StatusUnauthorized)
				_, _ = w.Write([]byte(`{"error":"invalid_client","error_description":"Client authentication failed"}`))
				return
			}
			_, _ = w.Write([]byte(`{"access_token":"at-1","token_type":"bearer","expires_in":3600}`))
			return
		}
		if !authorized {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCredentialTestEndpoint(t *testing.T) {
	e, _ := startAccounts(t, map[string]string{"FLOWMILL_EGRESS_ALLOW": "127.0.0.1/32"})
	owner := setUpOwner(t, e)
	srv := protectedServer(t)
	test := func(body string) credential.TestResult {
		t.Helper()
		var r credential.TestResult
		owner.ok(t, "POST", "rest/credentials/test", body, &r)
		return r
	}
	ok := credential.TestResult{Status: "OK", Message: "Connection successful!"}
	authFailed := credential.TestResult{Status: "Error", Message: "Authorization failed - please check your credentials"}
	generic := func(typ, data, path string) string {
		return fmt.Sprintf(`{"credentials":{"name":"x","type":%q,"data":%s},"nodeToTestWith":"n8n-nodes-base.httpRequest","testRequest":{"url":%q}}`,
			typ, data, srv.URL+path)
	}
	for _, tc := range []struct {
		name, typ, good, bad, path string
	}{
		{"basic", "httpBasicAuth", `{"user":"ada","password":"right-pw"}`, `{"user":"ada","password":"wrong"}`, "/basic"},
		{"digest", "httpDigestAuth", `{"user":"ada","password":"right-pw"}`, `{"user":"ada","password":"wrong"}`, "/digest"},
		{"header", "httpHeaderAuth", `{"name":"X-Api-Key","value":"right-key"}`, `{"name":"X-Api-Key","value":"wrong"}`, "/header"},
		{"query", "httpQueryAuth", `{"name":"api_key","value":"right-key"}`, `{"name":"api_key","value":"wrong"}`, "/query"},
		{"custom", "httpCustomAuth", `{"json":"{\"headers\":{\"X-Api-Key\":\"right-key\"}}"}`, `{"json":"{\"headers\":{\"X-Api-Key\":\"no\"}}"}`, "/header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, ok, test(generic(tc.typ, tc.good, tc.path)))
			require.Equal(t, authFailed, test(generic(tc.typ, tc.bad, tc.path)))
		})
	}

	// OAuth1: the token data and the secrets come from the stored credential.
	cred := createCredential(t, owner, "OAuth1", "oAuth1Api", `{"authUrl":"https://x/a","accessTokenUrl":"https://x/t","consumerKey":"consumer-key",
		"consumerSecret":"consumer-secret","requestTokenUrl":"https://x/r","signatureMethod":"HMAC-SHA1"}`)
	storeTokenData(t, e, cred.ID, map[string]any{"oauth_token": "token", "oauth_token_secret": "token-secret"})
	var redacted credentialJSON
	owner.ok(t, "GET", "rest/credentials/"+cred.ID+"?includeData=true", "", &redacted)
	delete(redacted.Data, "oauthTokenData")
	oauth1 := func(id string, data map[string]any) string {
		b, err := json.Marshal(map[string]any{"credentials": map[string]any{"id": id, "name": "OAuth1", "type": "oAuth1Api", "data": data},
			"testRequest": map[string]any{"url": srv.URL + "/oauth1?page=2&q=a b"}})
		require.NoError(t, err)
		return string(b)
	}
	require.Equal(t, ok, test(oauth1(cred.ID, redacted.Data)), "signed with the stored secrets")
	redacted.Data["consumerSecret"] = "another-secret"
	require.Equal(t, authFailed, test(oauth1(cred.ID, redacted.Data)), "a changed secret is used as sent")
	require.Equal(t, credential.TestResult{Status: "Error", Message: "OAuth credentials not connected"},
		test(oauth1("", redacted.Data)), "without the stored token data it is not connected")

	// Statuses other than 401 and 403, redirects, connection failures.
	require.Equal(t, ok, test(generic("httpBasicAuth", `{"user":"ada","password":"right-pw"}`, "/redirect")))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "Not Found"}, test(generic("httpBasicAuth", `{}`, "/missing")))
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	r := test(fmt.Sprintf(`{"credentials":{"name":"x","type":"httpBasicAuth","data":{}},"testRequest":{"url":%q}}`, closed.URL))
	require.Equal(t, "Error", r.Status)
	require.Contains(t, r.Message, "connection refused")

	// OAuth2: the client credentials grant fetches a token; the others connect an account.
	clientCreds := func(secret string) string {
		return fmt.Sprintf(`{"credentials":{"name":"x","type":"oAuth2Api","data":{"grantType":"clientCredentials","accessTokenUrl":%q,
			"clientId":"client","clientSecret":%q,"authentication":"header"}}}`, srv.URL+"/token", secret)
	}
	require.Equal(t, ok, test(clientCreds("client-secret")))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "invalid_client: Client authentication failed"}, test(clientCreds("wrong")))
	for _, grant := range []string{"authorizationCode", "pkce"} {
		require.Equal(t, credential.TestResult{Status: "Error", Message: "OAuth credentials are tested by connecting the account"},
			test(`{"credentials":{"name":"x","type":"oAuth2Api","data":{"grantType":"`+grant+`"}}}`))
	}
	// Generic types without a URL to test with.
	require.Equal(t, credential.TestResult{Status: "Error", Message: "No testing function found for this credential type"},
		test(`{"credentials":{"name":"x","type":"httpBasicAuth","data":{"user":"ada"}}}`))

	// Bad requests.
	for _, tc := range []struct{ body, msg string }{
		{`{}`, "credentials is required"},
		{`{"credentials":{"type":"githubApi","data":{}}}`, `credentials.type "githubApi" is not a known credential type`},
		{`{"credentials":{"type":"httpBasicAuth","data":"x"}}`, "credentials.data must be an object"},
		{fmt.Sprintf(`{"credentials":{"id":%q,"type":"httpBasicAuth","data":{}}}`, cred.ID), `credentials.type must be the stored credential's type "oAuth1Api"`},
	} {
		status, b := owner.call(t, "POST", "rest/credentials/test", tc.body)
		requireError(t, status, b, 400, tc.msg)
	}
	status, b := owner.call(t, "POST", "rest/credentials/test", `{"credentials":{"id":"nope","type":"httpBasicAuth","data":{}}}`)
	requireError(t, status, b, 404, `Credential with ID "nope" could not be found.`)
}

// The test's requests go through the egress policy: loopback is refused unless allowed.
func TestCredentialTestEgress(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	var r credential.TestResult
	owner.ok(t, "POST", "rest/credentials/test",
		fmt.Sprintf(`{"credentials":{"name":"x","type":"httpBasicAuth","data":{}},"testRequest":{"url":%q}}`, srv.URL), &r)
	require.Equal(t, "Error", r.Status)
	require.Contains(t, r.Message, "FLOWMILL_EGRESS_ALLOW")
	require.Zero(t, hits.Load())
}
