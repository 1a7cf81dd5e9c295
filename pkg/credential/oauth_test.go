package credential_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/oauthprovider"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// oauthEnv is a provider, a store with one user, and what a worker builds to use them.
type oauthEnv struct {
	provider *oauthprovider.Provider
	url      string
	store    *store.Store
	cipher   *credential.Cipher
	user     *store.User
	host     nodes.Host
}

func startOAuth(t *testing.T, tokenDelay time.Duration) *oauthEnv {
	t.Helper()
	p, err := oauthprovider.New(oauthprovider.Config{ClientID: "flowmill", ClientSecret: "s3cret", TokenDelay: tokenDelay})
	require.NoError(t, err)
	srv := httptest.NewServer(p.Handler())
	t.Cleanup(srv.Close)
	c, err := credential.NewCipher("a-key-of-enough-length")
	require.NoError(t, err)
	s := storetest.Postgres(t)
	u := &store.User{ID: store.NewUUID(), GlobalRole: store.RoleMember}
	require.NoError(t, s.DB.Create(u).Error)
	policy := egress.New([]netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, nil)
	return &oauthEnv{provider: p, url: srv.URL, store: s, cipher: c, user: u,
		host: nodes.Host{HTTP: policy.Client(egress.Options{})}}
}

// tokens is what one worker process builds: its own singleflight and lease owner.
func (e *oauthEnv) tokens(t *testing.T) *credential.Tokens {
	t.Helper()
	tk, err := credential.NewTokens(credential.TokensConfig{Store: e.store, Cipher: e.cipher, HTTP: e.host.HTTP})
	require.NoError(t, err)
	return tk
}

func (e *oauthEnv) credential(t *testing.T, data map[string]any) *store.Credential {
	t.Helper()
	base := map[string]any{"grantType": "authorizationCode", "authUrl": e.url + "/authorize", "accessTokenUrl": e.url + "/token",
		"clientId": "flowmill", "clientSecret": "s3cret", "scope": "", "authQueryParameters": "", "authentication": "header"}
	for k, v := range data {
		base[k] = v
	}
	sealed, err := e.cipher.Encrypt(base)
	require.NoError(t, err)
	cred := &store.Credential{Name: "Provider", Type: "oAuth2Api", Data: sealed}
	require.NoError(t, e.store.CreateCredential(context.Background(), cred, e.user.ID))
	return cred
}

func (e *oauthEnv) stored(t *testing.T, id string) (string, map[string]any) {
	t.Helper()
	cred, err := e.store.GetCredential(context.Background(), id)
	require.NoError(t, err)
	data, err := e.cipher.Decrypt(cred.Data)
	require.NoError(t, err)
	return cred.Data, data
}

// authorize walks the authorization code flow with PKCE against the provider as a browser and
// the callback would, and returns the token.
func (e *oauthEnv) authorize(t *testing.T, data map[string]any) map[string]any {
	t.Helper()
	const redirect = "http://flowmill.test/rest/oauth2-credential/callback"
	req, err := credential.NewOAuth2AuthRequest(data, redirect)
	require.NoError(t, err)
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	authURL, err := url.Parse(req.URL)
	require.NoError(t, err)
	res, err := noRedirect.Post(e.url+"/authorize?"+authURL.RawQuery, "application/x-www-form-urlencoded", nil)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusFound, res.StatusCode)
	back, err := url.Parse(res.Header.Get("Location"))
	require.NoError(t, err)
	require.Equal(t, req.State, back.Query().Get("state"))
	token, err := credential.ExchangeCode(context.Background(), e.host.HTTP, data, back.Query().Get("code"), redirect, req.Verifier)
	require.NoError(t, err)
	return token
}

// callMe runs HTTP Request (v2, generic oAuth2Api) against the provider's /api/me.
func (e *oauthEnv) callMe(t *testing.T, creds nodes.CredentialsFunc, cred *store.Credential) (map[string]any, error) {
	t.Helper()
	out, err := nodetest.Run(t, httprequest.TypeV2(), nodetest.Node{Version: 2,
		Credentials: map[string]any{"oAuth2Api": map[string]any{"id": cred.ID, "name": cred.Name}}, CredentialData: creds, Host: e.host,
		Parameters: map[string]any{"url": e.url + "/api/me", "authentication": "genericCredentialType", "genericAuthType": "oAuth2Api"}},
		nodetest.Items(map[string]any{}))
	if err != nil {
		return nil, err
	}
	return nodetest.JSONs(out[0])[0], nil
}

func TestClientCredentialsTokenIsFetchedOnceAndStoredEncrypted(t *testing.T) {
	e := startOAuth(t, 0)
	cred := e.credential(t, map[string]any{"grantType": "clientCredentials", "authentication": "body"})
	creds := e.tokens(t).ForUserID(e.user.ID)
	for range 2 {
		me, err := e.callMe(t, creds, cred)
		require.NoError(t, err)
		require.Equal(t, "client:flowmill", me["sub"])
	}
	require.Equal(t, 1, e.provider.Stats().ClientCredentials, "the stored token is used by the second run")
	raw, data := e.stored(t, cred.ID)
	access := credential.AccessToken(data)
	require.NotEmpty(t, access)
	require.NotContains(t, raw, access, "the token is encrypted at rest")

	// The token expires: the next run fetches a new one by client credentials again.
	data["oauthTokenData"].(map[string]any)["expires_at"] = float64(time.Now().Add(-time.Minute).Unix())
	sealed, err := e.cipher.Encrypt(data)
	require.NoError(t, err)
	ok, err := e.store.UpdateCredentialDataIf(context.Background(), cred.ID, raw, sealed)
	require.NoError(t, err)
	require.True(t, ok)
	_, err = e.callMe(t, creds, cred)
	require.NoError(t, err)
	require.Equal(t, 2, e.provider.Stats().ClientCredentials)
}

func TestAuthorizationCodeTokenRefreshesWhenExpiredAndWhenRefused(t *testing.T) {
	e := startOAuth(t, 0)
	data := map[string]any{"grantType": "pkce", "scope": "read"}
	cred := e.credential(t, data)
	_, full := e.stored(t, cred.ID)
	token := e.authorize(t, full)
	require.NotEmpty(t, token["refresh_token"])
	ctx := context.Background()
	require.NoError(t, credential.SaveToken(ctx, e.store, e.cipher, cred.ID, token))
	creds := e.tokens(t).ForUserID(e.user.ID)

	me, err := e.callMe(t, creds, cred)
	require.NoError(t, err)
	require.Equal(t, "flowmill-test-user", me["sub"])
	require.Zero(t, e.provider.Stats().RefreshToken, "a valid token is used as it is")

	// Expired by its expires_at: refreshed before the request.
	token["expires_at"] = float64(time.Now().Add(-time.Second).Unix())
	require.NoError(t, credential.SaveToken(ctx, e.store, e.cipher, cred.ID, token))
	_, err = e.callMe(t, creds, cred)
	require.NoError(t, err)
	require.Equal(t, 1, e.provider.Stats().RefreshToken)
	_, data = e.stored(t, cred.ID)
	refreshed := credential.AccessToken(data)
	require.NotEqual(t, token["access_token"], refreshed)

	// Refused by the service (revoked early): the 401 refreshes and the request is sent again.
	require.NoError(t, e.provider.Revoke(ctx, refreshed))
	me, err = e.callMe(t, creds, cred)
	require.NoError(t, err)
	require.Equal(t, "flowmill-test-user", me["sub"])
	require.Equal(t, 2, e.provider.Stats().RefreshToken)
	_, data = e.stored(t, cred.ID)
	require.NotEqual(t, refreshed, credential.AccessToken(data))

	// A refused token that cannot be refreshed (the refresh token is gone too) fails the node
	// with the reason, once.
	broken := credential.Token(data)
	broken["refresh_token"] = "unknown"
	require.NoError(t, credential.SaveToken(ctx, e.store, e.cipher, cred.ID, broken))
	require.NoError(t, e.provider.Revoke(ctx, credential.AccessToken(data)))
	_, err = e.callMe(t, creds, cred)
	require.ErrorContains(t, err, "The OAuth2 access token was refused and could not be refreshed")
	require.ErrorContains(t, err, "invalid_grant")
}

// Eight runs in two worker processes meet an expired token at the same moment: the provider sees
// one refresh grant and every request succeeds with the new token.
func TestConcurrentRunsRefreshOnce(t *testing.T) {
	e := startOAuth(t, 300*time.Millisecond)
	cred := e.credential(t, nil)
	_, full := e.stored(t, cred.ID)
	token := e.authorize(t, full)
	token["expires_at"] = float64(time.Now().Add(-time.Second).Unix())
	require.NoError(t, credential.SaveToken(context.Background(), e.store, e.cipher, cred.ID, token))

	workers := []*credential.Tokens{e.tokens(t), e.tokens(t)}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	start := make(chan struct{})
	for i := range 8 {
		creds := workers[i%2].ForUserID(e.user.ID)
		wg.Go(func() {
			<-start
			me, err := e.callMe(t, creds, cred)
			if err == nil && me["sub"] != "flowmill-test-user" {
				err = &nodes.Error{Message: "unexpected answer"}
			}
			errs <- err
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, 1, e.provider.Stats().RefreshToken)
}

func TestAuthRequestURL(t *testing.T) {
	data := map[string]any{"grantType": "pkce", "authUrl": "https://id.example.com/oauth/authorize?tenant=t1",
		"clientId": "app id", "scope": "read write", "authQueryParameters": "access_type=offline&prompt=consent"}
	req, err := credential.NewOAuth2AuthRequest(data, "https://flow.example.com/rest/oauth2-credential/callback")
	require.NoError(t, err)
	u, err := url.Parse(req.URL)
	require.NoError(t, err)
	require.Equal(t, "id.example.com", u.Host)
	q := u.Query()
	require.Equal(t, "t1", q.Get("tenant"))
	require.Equal(t, "app id", q.Get("client_id"))
	require.Equal(t, "https://flow.example.com/rest/oauth2-credential/callback", q.Get("redirect_uri"))
	require.Equal(t, "code", q.Get("response_type"))
	require.Equal(t, "read write", q.Get("scope"))
	require.Equal(t, "offline", q.Get("access_type"))
	require.Equal(t, "consent", q.Get("prompt"))
	require.Equal(t, req.State, q.Get("state"))
	require.Len(t, req.State, 43)
	require.Equal(t, "S256", q.Get("code_challenge_method"))
	require.NotEmpty(t, req.Verifier)
	require.NotContains(t, req.URL, req.Verifier, "the verifier stays on the server")

	delete(data, "grantType")
	req, err = credential.NewOAuth2AuthRequest(data, "https://flow.example.com/cb")
	require.NoError(t, err)
	require.Empty(t, req.Verifier)
	require.NotContains(t, req.URL, "code_challenge")

	data["authUrl"] = "javascript:alert(1)"
	_, err = credential.NewOAuth2AuthRequest(data, "https://flow.example.com/cb")
	require.ErrorContains(t, err, "is not an http(s) URL")
	_, err = credential.NewOAuth2AuthRequest(map[string]any{"grantType": "clientCredentials"}, "https://flow.example.com/cb")
	require.ErrorContains(t, err, "client credentials grant needs no authorization")
}

func TestTokenRequestErrorsNameTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant", "error_description": "code expired"})
	}))
	defer srv.Close()
	_, err := credential.ExchangeCode(context.Background(), srv.Client(), map[string]any{"accessTokenUrl": srv.URL, "clientId": "a"}, "c", "https://x/cb", "")
	require.ErrorIs(t, err, credential.ErrTokenRequest)
	require.True(t, strings.Contains(err.Error(), "400 invalid_grant: code expired"), err.Error())
}
