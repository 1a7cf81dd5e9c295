package credential_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
)

func TestCheckData(t *testing.T) {
	for _, tc := range []struct {
		typ, data, err string
	}{
		{"httpBasicAuth", `{}`, ""},
		{"httpBasicAuth", `{"user":"ada"}`, ""},
		{"httpBasicAuth", `{"user":"ada","extra":"x"}`, `extra is not a property of the credential type "httpBasicAuth"`},
		{"httpBasicAuth", `{"user":["ada"]}`, `user value must be a string`},
		{"oAuth2Api", `{"accessTokenUrl":"t","clientId":"c","clientSecret":"s"}`, `authUrl is required`},
		{"oAuth2Api", `{"grantType":"clientCredentials","accessTokenUrl":"t","clientId":"c","clientSecret":"s"}`, ""},
		{"oAuth2Api", `{"grantType":"pkce","authUrl":"={{$env.AUTH}}","accessTokenUrl":"t","clientId":"c","clientSecret":"s"}`, ""},
		{"oAuth2Api", `{"grantType":"implicit","accessTokenUrl":"t","clientId":"c","clientSecret":"s"}`, `grantType value must be one of "authorizationCode", "clientCredentials", "pkce"`},
		{"oAuth2Api", `{"grantType":"clientCredentials","accessTokenUrl":"t","clientId":"c","clientSecret":"s","oauthTokenData":{"access_token":"a"}}`, ""},
		{"oAuth2Api", `{"grantType":"clientCredentials","accessTokenUrl":"t","clientId":"c","clientSecret":"s","oauthTokenData":"a"}`, `oauthTokenData value must be an object`},
		{"httpCustomAuth", `{"json":""}`, `json is required`},
		{"httpCustomAuth", `{"json":"{\"qs\":{}}"}`, ""},
	} {
		typ, ok := credential.Lookup(tc.typ)
		require.True(t, ok)
		var data map[string]any
		require.NoError(t, json.Unmarshal([]byte(tc.data), &data))
		err := typ.CheckData(data)
		if tc.err == "" {
			require.NoError(t, err, tc.data)
			continue
		}
		var de *credential.DataError
		require.ErrorAs(t, err, &de, tc.data)
		require.Equal(t, tc.err, err.Error(), tc.data)
	}
}

func TestExtendsAndDisplayed(t *testing.T) {
	child := &credential.Type{Name: "serviceOAuth2Api", Extends: []string{"oAuth2Api"}, Properties: []credential.Property{
		{Name: "grantType", Type: "hidden", Default: "clientCredentials"},
		{Name: "region", Type: "options", Default: "eu", Options: []credential.Option{{Name: "EU", Value: "eu"}, {Name: "US", Value: "us"}},
			DisplayOptions: &credential.DisplayOptions{Hide: map[string][]any{"grantType": {"pkce"}}}},
	}}
	require.True(t, child.OAuth())
	props := child.AllProperties()
	require.Equal(t, "grantType", props[0].Name)
	require.Equal(t, "hidden", props[0].Type, "the child's property replaces the parent's")
	require.Equal(t, "region", props[len(props)-1].Name)
	require.NoError(t, child.CheckData(map[string]any{"accessTokenUrl": "t", "clientId": "c", "clientSecret": "s", "region": "us"}),
		"the hidden grant type makes authUrl not shown, so not required")
	require.Error(t, child.CheckData(map[string]any{"accessTokenUrl": "t", "clientId": "c", "clientSecret": "s", "region": "asia"}))
	require.False(t, credential.Displayed(props[len(props)-1], map[string]any{"grantType": "pkce"}))
	require.True(t, credential.Displayed(props[len(props)-1], map[string]any{"grantType": "clientCredentials"}))
}

func TestRedactAndKeepSecrets(t *testing.T) {
	typ, _ := credential.Lookup("oAuth2Api")
	stored := map[string]any{"clientId": "c", "clientSecret": "s", "accessTokenUrl": "t",
		"oauthTokenData": map[string]any{"access_token": "a"}}
	redacted := typ.Redact(stored)
	require.Equal(t, map[string]any{"clientId": "c", "clientSecret": credential.BlankValue, "accessTokenUrl": "t", "oauthTokenData": true}, redacted)
	require.Equal(t, "s", stored["clientSecret"], "the stored data is not changed")
	empty := typ.Redact(map[string]any{"clientSecret": ""})
	require.Equal(t, "", empty["clientSecret"], "an empty secret is not hidden: there is nothing to keep")

	back := credential.KeepSecrets(redacted, stored)
	require.Equal(t, stored, back, "sent back unchanged, the data is what was stored")
	changed := credential.KeepSecrets(map[string]any{"clientId": "c2", "clientSecret": "new"}, stored)
	require.Equal(t, map[string]any{"clientId": "c2", "clientSecret": "new", "oauthTokenData": map[string]any{"access_token": "a"}}, changed)
	fresh := credential.KeepSecrets(map[string]any{"clientSecret": credential.BlankValue, "oauthTokenData": true}, nil)
	require.Empty(t, fresh, "nothing stored: the sentinel and the redacted token data carry nothing")
}

func TestDeclarativeTest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path != "/v1/me":
			http.NotFound(w, r)
		case r.Header.Get("Authorization") == "token good" && r.URL.Query().Get("fields") == "login":
			_, _ = w.Write([]byte(`{"login":"ada","account":{"state":"active"}}`))
		case r.Header.Get("Authorization") == "token suspended":
			_, _ = w.Write([]byte(`{"login":"ada","account":{"state":"suspended"}}`))
		case r.Header.Get("Authorization") == "token teapot":
			w.WriteHeader(http.StatusTeapot)
		default:
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	typ := &credential.Type{Name: "exampleApi",
		Properties: []credential.Property{{Name: "server", Type: "string"}, {Name: "token", Type: "string"}},
		Authenticate: &credential.Authenticate{Type: "generic", Properties: credential.AuthenticateProperties{
			Headers: map[string]string{"Authorization": "=token {{$credentials.token}}"}}},
		Test: &credential.TestRequest{
			Request: credential.TestRequestOptions{BaseURL: "={{$credentials?.server}}/v1", URL: "/me", QS: map[string]string{"fields": "login"}},
			Rules: []credential.TestRule{
				{Type: "responseCode", Properties: credential.TestRuleProperties{Value: 401, Message: "The token is not valid"}},
				{Type: "responseSuccessBody", Properties: credential.TestRuleProperties{Key: "account.state", Value: "suspended", Message: "The account is suspended"}},
			},
		},
	}
	run := func(token string) credential.TestResult {
		return typ.TestCredential(context.Background(), map[string]any{"server": srv.URL, "token": token}, credential.TestInput{Client: srv.Client()})
	}
	require.Equal(t, credential.TestResult{Status: "OK", Message: "Connection successful!"}, run("good"))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "The token is not valid"}, run("bad"))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "The account is suspended"}, run("suspended"))
	require.Equal(t, credential.TestResult{Status: "Error", Message: "I'm a teapot"}, run("teapot"))

	typ.Test.Request.URL = "={{$credentials.token.toUpperCase()}}"
	r := run("good")
	require.Equal(t, "Error", r.Status)
	require.Contains(t, r.Message, "is not supported")
}
