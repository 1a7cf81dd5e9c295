package httprequest_test

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"context"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/httpauth/httpauthtest"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

// store answers credential lookups from a map keyed by type.
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
	"oAuth2Api":      {"oauthTokenData": m{"access_token": "tok", "token_type": "bearer"}},
	"oAuth1Api": {"consumerKey": "ck", "consumerSecret": "cs", "signatureMethod": "HMAC-SHA1",
		"oauthTokenData": m{"oauth_token": "ot", "oauth_token_secret": "ots"}},
}

// authServer checks each kind of credential the way a real service would.
func authServer(t *testing.T) *httptest.Server {
	t.Helper()
	const realm, nonce = "test", "abc123"
	ok := func(w http.ResponseWriter, how string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"auth":"` + how + `"}`))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, has := r.BasicAuth(); has && u == "ann" && p == "secret" {
			ok(w, "basic")
			return
		}
		if r.Header.Get("X-Api-Key") == "k1" {
			ok(w, "header")
			return
		}
		if r.URL.Query().Get("api_key") == "k2" {
			ok(w, "query")
			return
		}
		if r.Header.Get("Authorization") == "Bearer tok" {
			ok(w, "oauth2")
			return
		}
		if httpauthtest.ValidOAuth1(r, "ck", "cs", "ots") {
			ok(w, "oauth1")
			return
		}
		if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Digest ") {
			p := map[string]string{}
			for _, f := range strings.Split(strings.TrimPrefix(h, "Digest "), ", ") {
				k, v, _ := strings.Cut(f, "=")
				p[k] = strings.Trim(v, `"`)
			}
			md := func(s string) string { b := md5.Sum([]byte(s)); return hex.EncodeToString(b[:]) }
			want := md(md("ann:"+realm+":secret") + ":" + nonce + ":" + p["nc"] + ":" + p["cnonce"] + ":auth:" + md(r.Method+":"+p["uri"]))
			if p["response"] == want && p["uri"] == r.URL.RequestURI() {
				ok(w, "digest")
				return
			}
		}
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", qop="auth", nonce="%s", opaque="o"`, realm, nonce))
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"Unauthorized"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	srv := authServer(t)
	tests := []struct {
		version  float64
		params   m
		credType string
		want     string
	}{
		{1, m{"authentication": "basicAuth"}, "httpBasicAuth", "basic"},
		{1, m{"authentication": "digestAuth"}, "httpDigestAuth", "digest"},
		{1, m{"authentication": "headerAuth"}, "httpHeaderAuth", "header"},
		{1, m{"authentication": "queryAuth"}, "httpQueryAuth", "query"},
		{1, m{"authentication": "oAuth1"}, "oAuth1Api", "oauth1"},
		{1, m{"authentication": "oAuth2"}, "oAuth2Api", "oauth2"},
		{2, m{"authentication": "genericCredentialType", "genericAuthType": "httpBasicAuth"}, "httpBasicAuth", "basic"},
		{2, m{"authentication": "genericCredentialType", "genericAuthType": "httpDigestAuth"}, "httpDigestAuth", "digest"},
		{2, m{"authentication": "genericCredentialType", "genericAuthType": "httpHeaderAuth"}, "httpHeaderAuth", "header"},
		{2, m{"authentication": "genericCredentialType", "genericAuthType": "httpQueryAuth"}, "httpQueryAuth", "query"},
		{2, m{"authentication": "genericCredentialType", "genericAuthType": "oAuth1Api"}, "oAuth1Api", "oauth1"},
		{2, m{"authentication": "genericCredentialType", "genericAuthType": "oAuth2Api"}, "oAuth2Api", "oauth2"},
		{2, m{"authentication": "predefinedCredentialType", "nodeCredentialType": "googleSheetsOAuth2Api"}, "googleSheetsOAuth2Api", "oauth2"},
	}
	creds := map[string]m{"googleSheetsOAuth2Api": credentials["oAuth2Api"]}
	for k, v := range credentials {
		creds[k] = v
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("v%g %s", tc.version, tc.credType), func(t *testing.T) {
			t.Parallel()
			typ := httprequest.TypeV1()
			if tc.version == 2 {
				typ = httprequest.TypeV2()
			}
			for _, method := range []string{"GET", "POST"} {
				params := m{"url": srv.URL + "/api?x=1", "requestMethod": method}
				for k, v := range tc.params {
					params[k] = v
				}
				out, err := nodetest.Run(t, typ, nodetest.Node{Version: tc.version, Parameters: params,
					Credentials: m{tc.credType: m{"id": "1", "name": "cred"}}, CredentialData: store(creds)}, nodetest.Items(m{}))
				require.NoError(t, err, method)
				require.Equal(t, m{"auth": tc.want}, workflow.ToMaps(out[0][0].JSON), method)
			}
		})
	}
}

func TestAuthenticationFailures(t *testing.T) {
	t.Parallel()
	srv := authServer(t)
	selected := m{"httpBasicAuth": m{"id": "1", "name": "cred"}}

	_, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Credentials: selected,
		Parameters: m{"url": srv.URL, "authentication": "basicAuth"}}, nodetest.Items(m{}))
	require.ErrorIs(t, err, nodes.ErrCredentialsNotAvailable)
	require.ErrorContains(t, err, "credentials not available")

	// A node without a credential of the chosen type sends the request as it is, as n8n does.
	_, err = nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1,
		Parameters: m{"url": srv.URL, "authentication": "basicAuth"}}, nodetest.Items(m{}))
	ne := nodetest.NodeError(t, err)
	require.Equal(t, "401", ne.HTTPCode)
	require.Equal(t, "Unauthorized", ne.Description)

	wrong := store(map[string]m{"httpBasicAuth": {"user": "ann", "password": "wrong"}})
	_, err = nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Credentials: selected, CredentialData: wrong,
		Parameters: m{"url": srv.URL, "authentication": "basicAuth"}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "status code 401")

	noToken := store(map[string]m{"oAuth2Api": {"clientId": "x"}})
	_, err = nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1, Credentials: m{"oAuth2Api": "cred"}, CredentialData: noToken,
		Parameters: m{"url": srv.URL, "authentication": "oAuth2"}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, "OAuth credentials not connected")

	_, err = nodetest.Run(t, httprequest.TypeV2(), nodetest.Node{Version: 2, Credentials: m{"stripeApi": "cred"},
		CredentialData: store(map[string]m{"stripeApi": {"secretKey": "x"}}),
		Parameters:     m{"url": srv.URL, "authentication": "predefinedCredentialType", "nodeCredentialType": "stripeApi"}}, nodetest.Items(m{}))
	require.ErrorContains(t, err, `"stripeApi" can not be used`)
}
