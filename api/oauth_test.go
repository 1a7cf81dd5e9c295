package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/oauth1"
	"github.com/flowmill/flowmill/pkg/oauthprovider"
	"github.com/flowmill/flowmill/pkg/store"
)

const connectedText = "Got connected. The window can be closed now."

// oauthServer is an api whose owner and member can connect credentials to local providers.
type oauthServer struct {
	e      *testEnv
	owner  *person
	member *person
}

func startOAuthServer(t *testing.T) *oauthServer {
	t.Helper()
	e, smtp := startAccounts(t, map[string]string{"FLOWMILL_EGRESS_ALLOW": "127.0.0.1/32"})
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	return &oauthServer{e: e, owner: owner, member: member}
}

// credential stores a credential of typ with data, owned by the owner.
func (o *oauthServer) credential(t *testing.T, typ string, data map[string]any) *store.Credential {
	t.Helper()
	ctx := context.Background()
	owner, err := o.e.in.Store.Owner(ctx)
	require.NoError(t, err)
	sealed, err := o.e.srv.credentials.Encrypt(data)
	require.NoError(t, err)
	cred := &store.Credential{Name: "Provider", Type: typ, Data: sealed}
	require.NoError(t, o.e.in.Store.CreateCredential(ctx, cred, owner.ID))
	return cred
}

func (o *oauthServer) stored(t *testing.T, id string) (string, map[string]any) {
	t.Helper()
	cred, err := o.e.in.Store.GetCredential(context.Background(), id)
	require.NoError(t, err)
	data, err := o.e.srv.credentials.Decrypt(cred.Data)
	require.NoError(t, err)
	return cred.Data, data
}

// callback calls a callback path as p's browser and returns the status and page.
func callback(t *testing.T, p *person, path string) (*http.Response, string) {
	t.Helper()
	res, b := p.raw(t, "GET", path, "")
	return res, string(b)
}

func requireSuccessPage(t *testing.T, res *http.Response, page string) {
	t.Helper()
	require.Equal(t, 200, res.StatusCode, page)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Contains(t, page, connectedText)
	script := regexp.MustCompile(`<script>(.*)</script>`).FindStringSubmatch(page)
	require.Len(t, script, 2, page)
	require.Contains(t, script[1], "window.opener.postMessage('success'")
	sum := sha256.Sum256([]byte(script[1]))
	require.Contains(t, res.Header.Get("Content-Security-Policy"), "script-src 'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'",
		"the page's script is the only one allowed")
	require.Equal(t, "no-referrer", res.Header.Get("Referrer-Policy"), "the code in the URL goes nowhere")
}

func TestOAuth2ConnectWithPKCE(t *testing.T) {
	o := startOAuthServer(t)
	p, err := oauthprovider.New(oauthprovider.Config{ClientID: "flowmill", ClientSecret: "s3cret",
		RedirectURL: o.e.cfg.PublicURL + "rest/oauth2-credential/callback"})
	require.NoError(t, err)
	provider := httptest.NewServer(p.Handler())
	defer provider.Close()
	cred := o.credential(t, "oAuth2Api", map[string]any{"grantType": "pkce", "authUrl": provider.URL + "/authorize",
		"accessTokenUrl": provider.URL + "/token", "clientId": "flowmill", "clientSecret": "s3cret", "scope": "read",
		"authQueryParameters": "access_type=offline", "authentication": "header"})

	var settings struct {
		OAuthCallbackURLs map[string]string `json:"oauthCallbackUrls"`
	}
	o.owner.ok(t, "GET", "rest/settings", "", &settings)
	var authURL string
	o.owner.ok(t, "GET", "rest/oauth2-credential/auth?id="+cred.ID, "", &authURL)
	u := mustURL(t, authURL)
	q := u.Query()
	require.Equal(t, provider.URL+"/authorize", u.Scheme+"://"+u.Host+u.Path)
	require.Equal(t, "flowmill", q.Get("client_id"))
	require.Equal(t, settings.OAuthCallbackURLs["oauth2"], q.Get("redirect_uri"))
	require.Equal(t, "code", q.Get("response_type"))
	require.Equal(t, "read", q.Get("scope"))
	require.Equal(t, "offline", q.Get("access_type"))
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.NotEmpty(t, q.Get("state"))

	// The browser follows it: the provider's page, its Authorize button, the redirect back.
	res, err := http.Get(authURL)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err = noRedirect.Post(provider.URL+"/authorize?"+u.RawQuery, "application/x-www-form-urlencoded", nil)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusFound, res.StatusCode)
	back := mustURL(t, res.Header.Get("Location"))
	require.Equal(t, settings.OAuthCallbackURLs["oauth2"], back.Scheme+"://"+back.Host+back.Path)
	callbackPath := "rest/oauth2-credential/callback?" + back.RawQuery

	// The callback needs the session that started the connect.
	res, page := callback(t, o.e.person(), callbackPath)
	require.Equal(t, 401, res.StatusCode, page)
	require.Contains(t, res.Header.Get("Content-Type"), "text/html")
	require.Contains(t, page, "not signed in to Flowmill in this browser")

	res, page = callback(t, o.owner, callbackPath)
	requireSuccessPage(t, res, page)
	raw, data := o.stored(t, cred.ID)
	token := credential.Token(data)
	require.NotEmpty(t, token["access_token"])
	require.NotEmpty(t, token["refresh_token"])
	require.NotContains(t, raw, token["access_token"], "the token is encrypted at rest")
	require.Equal(t, 1, p.Stats().AuthorizationCode)

	res, page = callback(t, o.owner, callbackPath)
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, page, "was used already or expired")
	require.Equal(t, 1, p.Stats().AuthorizationCode, "a state is used once")

	// An HTTP Request run of the owner's workflow uses the stored token.
	out, err := nodetest.Run(t, httprequest.TypeV1(), nodetest.Node{Version: 1,
		Credentials:    map[string]any{"oAuth2Api": map[string]any{"id": cred.ID, "name": cred.Name}},
		CredentialData: credential.ForUser(o.e.in.Store, o.e.srv.credentials, mustOwner(t, o.e)),
		Host:           o.e.srv.nodeHost,
		Parameters:     map[string]any{"url": provider.URL + "/api/me", "authentication": "oAuth2"}}, nodetest.Items(map[string]any{}))
	require.NoError(t, err)
	require.Equal(t, "flowmill-test-user", nodetest.JSONs(out[0])[0]["sub"])
}

func mustOwner(t *testing.T, e *testEnv) *store.User {
	t.Helper()
	u, err := e.in.Store.Owner(context.Background())
	require.NoError(t, err)
	return u
}

func TestOAuth2ConnectRefusals(t *testing.T) {
	o := startOAuthServer(t)
	p, err := oauthprovider.New(oauthprovider.Config{ClientID: "flowmill", ClientSecret: "s3cret"})
	require.NoError(t, err)
	provider := httptest.NewServer(p.Handler())
	defer provider.Close()
	data := map[string]any{"grantType": "authorizationCode", "authUrl": provider.URL + "/authorize",
		"accessTokenUrl": provider.URL + "/token", "clientId": "flowmill", "clientSecret": "s3cret", "scope": "",
		"authQueryParameters": "", "authentication": "body"}
	cred := o.credential(t, "oAuth2Api", data)
	state := func(p *person) string {
		var authURL string
		p.ok(t, "GET", "rest/oauth2-credential/auth?id="+cred.ID, "", &authURL)
		return mustURL(t, authURL).Query().Get("state")
	}
	nothingStored := func() {
		t.Helper()
		_, d := o.stored(t, cred.ID)
		require.Nil(t, d["oauthTokenData"])
	}

	status, b := o.member.call(t, "GET", "rest/oauth2-credential/auth?id="+cred.ID, "")
	requireError(t, status, b, 404, "not found")
	status, b = o.owner.call(t, "GET", "rest/oauth2-credential/auth", "")
	requireError(t, status, b, 400, "id")
	basic := o.credential(t, "httpBasicAuth", map[string]any{"user": "u", "password": "p"})
	status, b = o.owner.call(t, "GET", "rest/oauth2-credential/auth?id="+basic.ID, "")
	requireError(t, status, b, 400, "not an OAuth2 credential")
	status, _ = o.e.person().call(t, "GET", "rest/oauth2-credential/auth?id="+cred.ID, "")
	require.Equal(t, 401, status)

	// Another signed-in user with the owner's state: refused, and the state is gone.
	s := state(o.owner)
	res, page := callback(t, o.member, "rest/oauth2-credential/callback?code=x&state="+url.QueryEscape(s))
	require.Equal(t, 403, res.StatusCode)
	require.Contains(t, page, "started by another user")
	res, _ = callback(t, o.owner, "rest/oauth2-credential/callback?code=x&state="+url.QueryEscape(s))
	require.Equal(t, 400, res.StatusCode)

	// The provider refused, or the code is not one it issued.
	res, page = callback(t, o.owner, "rest/oauth2-credential/callback?error=access_denied&error_description=no&state="+url.QueryEscape(state(o.owner)))
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, page, "did not authorize the connection (access_denied: no)")
	res, page = callback(t, o.owner, "rest/oauth2-credential/callback?code=forged&state="+url.QueryEscape(state(o.owner)))
	require.Equal(t, 502, res.StatusCode)
	require.Contains(t, page, "The access token could not be obtained")
	require.Contains(t, page, "invalid_grant")
	res, page = callback(t, o.owner, "rest/oauth2-credential/callback?code=x&state=made-up")
	require.Equal(t, 400, res.StatusCode)
	require.Contains(t, page, "unknown, was used already or expired")
	res, _ = callback(t, o.owner, "rest/oauth2-credential/callback?code=x")
	require.Equal(t, 400, res.StatusCode)

	// A state past its ten minutes.
	ownerUser := mustOwner(t, o.e)
	sealed, err := o.e.srv.credentials.Encrypt(map[string]any{})
	require.NoError(t, err)
	require.NoError(t, o.e.in.Store.SaveOAuthState(context.Background(), "old-state", store.OAuthState{Kind: "oauth2",
		UserID: ownerUser.ID, CredentialID: cred.ID, Secret: sealed, ExpiresAt: time.Now().Add(-time.Second)}))
	res, _ = callback(t, o.owner, "rest/oauth2-credential/callback?code=x&state=old-state")
	require.Equal(t, 400, res.StatusCode)
	nothingStored()

	cc := o.credential(t, "oAuth2Api", map[string]any{"grantType": "clientCredentials", "accessTokenUrl": provider.URL + "/token",
		"clientId": "flowmill", "clientSecret": "s3cret"})
	status, b = o.owner.call(t, "GET", "rest/oauth2-credential/auth?id="+cc.ID, "")
	requireError(t, status, b, 400, "client credentials grant needs no authorization")
}

// oauth1Provider is a hand-written OAuth 1.0a provider that checks every signature.
type oauth1Provider struct {
	t        *testing.T
	srv      *httptest.Server
	callback string
	exchange atomic.Int32
}

func startOAuth1Provider(t *testing.T, callback string) *oauth1Provider {
	p := &oauth1Provider{t: t, callback: callback}
	check := func(r *http.Request, tokenSecret string) map[string]string {
		u := *r.URL
		u.Scheme, u.Host = "http", r.Host
		if !oauth1.Verify(r.Header.Get("Authorization"), r.Method, &u, nil, "consumer-secret", tokenSecret) {
			return nil
		}
		return oauth1.ParseHeader(r.Header.Get("Authorization"))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /request_token", func(w http.ResponseWriter, r *http.Request) {
		params := check(r, "")
		if params == nil || params["oauth_callback"] != p.callback || params["oauth_consumer_key"] != "consumer" {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		_, _ = w.Write([]byte("oauth_token=request-token&oauth_token_secret=request-secret&oauth_callback_confirmed=true"))
	})
	mux.HandleFunc("POST /access_token", func(w http.ResponseWriter, r *http.Request) {
		params := check(r, "request-secret")
		if params == nil || params["oauth_token"] != "request-token" || params["oauth_verifier"] != "verifier" {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		p.exchange.Add(1)
		_, _ = w.Write([]byte("oauth_token=access-token&oauth_token_secret=access-secret&user_id=42"))
	})
	mux.HandleFunc("GET /api/me", func(w http.ResponseWriter, r *http.Request) {
		params := check(r, "access-secret")
		if params == nil || params["oauth_token"] != "access-token" || params["oauth_signature_method"] != "HMAC-SHA256" {
			http.Error(w, `{"error":"bad signature"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"user":"42","q":"` + r.URL.Query().Get("q") + `"}`))
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func TestOAuth1ConnectAndSignedRequest(t *testing.T) {
	o := startOAuthServer(t)
	provider := startOAuth1Provider(t, o.e.cfg.PublicURL+"rest/oauth1-credential/callback")
	cred := o.credential(t, "oAuth1Api", map[string]any{"authUrl": provider.srv.URL + "/authorize",
		"accessTokenUrl": provider.srv.URL + "/access_token", "requestTokenUrl": provider.srv.URL + "/request_token",
		"consumerKey": "consumer", "consumerSecret": "consumer-secret", "signatureMethod": "HMAC-SHA256"})

	status, b := o.member.call(t, "GET", "rest/oauth1-credential/auth?id="+cred.ID, "")
	requireError(t, status, b, 404, "not found")
	var authURL string
	o.owner.ok(t, "GET", "rest/oauth1-credential/auth?id="+cred.ID, "", &authURL)
	require.Equal(t, provider.srv.URL+"/authorize?oauth_token=request-token", authURL)

	res, page := callback(t, o.member, "rest/oauth1-credential/callback?oauth_token=request-token&oauth_verifier=verifier")
	require.Equal(t, 403, res.StatusCode, page)
	o.owner.ok(t, "GET", "rest/oauth1-credential/auth?id="+cred.ID, "", &authURL)
	res, page = callback(t, o.owner, "rest/oauth1-credential/callback?oauth_token=request-token&oauth_verifier=verifier")
	requireSuccessPage(t, res, page)
	require.EqualValues(t, 1, provider.exchange.Load())
	raw, data := o.stored(t, cred.ID)
	require.Equal(t, map[string]any{"oauth_token": "access-token", "oauth_token_secret": "access-secret", "user_id": "42"}, data["oauthTokenData"])
	require.NotContains(t, raw, "access-secret")
	res, _ = callback(t, o.owner, "rest/oauth1-credential/callback?oauth_token=request-token&oauth_verifier=verifier")
	require.Equal(t, 400, res.StatusCode, "the request token is used once")

	// HTTP Request signs with HMAC-SHA256 and the access token secret.
	out, err := nodetest.Run(t, httprequest.TypeV2(), nodetest.Node{Version: 2,
		Credentials:    map[string]any{"oAuth1Api": map[string]any{"id": cred.ID, "name": cred.Name}},
		CredentialData: credential.ForUser(o.e.in.Store, o.e.srv.credentials, mustOwner(t, o.e)),
		Host:           o.e.srv.nodeHost,
		Parameters: map[string]any{"url": provider.srv.URL + "/api/me?q=a%2Fb+c", "authentication": "genericCredentialType",
			"genericAuthType": "oAuth1Api"}}, nodetest.Items(map[string]any{}))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"user": "42", "q": "a/b c"}, nodetest.JSONs(out[0])[0])
}
