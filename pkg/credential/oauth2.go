package credential

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// OAuth2 grant types of the oAuth2Api credential's grantType.
const (
	GrantAuthorizationCode = "authorizationCode"
	GrantClientCredentials = "clientCredentials"
	GrantPKCE              = "pkce"
)

// TokenKey is the key of the token data inside a credential's data, as in n8n.
const TokenKey = "oauthTokenData"

// expiresAtKey is added to the token a provider answers: when the access token expires, in
// Unix seconds, computed from expires_in when the token was obtained.
const expiresAtKey = "expires_at"

// maxTokenResponse bounds the body read from a token endpoint, in bytes.
const maxTokenResponse = 1 << 20

// ErrTokenRequest means the provider refused a token request or answered something that is not
// a token; the message says what it answered.
var ErrTokenRequest = errors.New("OAuth token request failed")

// IsOAuth2 reports whether a credential of type typ with data is an OAuth2 credential: the
// oAuth2Api type, or a type that extends it (it carries the token URL and client id).
func IsOAuth2(typ string, data map[string]any) bool {
	if typ == "oAuth2Api" {
		return true
	}
	_, tokenURL := data["accessTokenUrl"]
	_, client := data["clientId"]
	_, consumer := data["consumerKey"]
	return tokenURL && client && !consumer
}

// IsOAuth1 reports whether a credential of type typ with data is an OAuth1 credential.
func IsOAuth1(typ string, data map[string]any) bool {
	if typ == "oAuth1Api" {
		return true
	}
	_, tokenURL := data["requestTokenUrl"]
	_, consumer := data["consumerKey"]
	return tokenURL && consumer
}

func field(data map[string]any, key string) string {
	if v, ok := data[key]; ok && v != nil {
		return strings.TrimSpace(fmt.Sprint(v))
	}
	return ""
}

// GrantType is the credential's grant type (authorizationCode when not set).
func GrantType(data map[string]any) string {
	if g := field(data, "grantType"); g != "" {
		return g
	}
	return GrantAuthorizationCode
}

// Token returns the token data stored in a credential's data, or nil.
func Token(data map[string]any) map[string]any {
	t, _ := data[TokenKey].(map[string]any)
	return t
}

// AccessToken is the stored OAuth2 access token, "" when there is none.
func AccessToken(data map[string]any) string { return field(Token(data), "access_token") }

// tokenExpired reports whether the stored access token expires within skew of now. A token
// without expires_at is taken as valid: only the service refusing it tells.
func tokenExpired(token map[string]any, now time.Time, skew time.Duration) bool {
	at, ok := token[expiresAtKey].(float64)
	if !ok {
		return false
	}
	return !now.Add(skew).Before(time.Unix(int64(at), 0))
}

// randomToken is 32 random bytes, base64url without padding (state, PKCE verifier).
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// pkceChallenge is the S256 code challenge of verifier (RFC 7636).
func pkceChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// OAuth2AuthRequest is an authorization request about to be sent to the browser: its URL, the
// state that comes back to the callback and, for PKCE, the verifier kept server-side.
type OAuth2AuthRequest struct {
	URL      string
	State    string
	Verifier string
}

// NewOAuth2AuthRequest builds the authorization URL of an authorization code (or PKCE)
// credential: client_id, redirect_uri, response_type=code, scope, state, the credential's
// authQueryParameters and, for PKCE, an S256 code challenge.
func NewOAuth2AuthRequest(data map[string]any, redirectURI string) (*OAuth2AuthRequest, error) {
	grant := GrantType(data)
	if grant == GrantClientCredentials {
		return nil, errors.New("a client credentials grant needs no authorization: its token is fetched when the credential is used")
	}
	u, err := httpURL(data, "authUrl", "Authorization URL")
	if err != nil {
		return nil, err
	}
	if field(data, "clientId") == "" {
		return nil, errors.New("the credential has no Client ID")
	}
	q := u.Query()
	if extra := field(data, "authQueryParameters"); extra != "" {
		params, err := url.ParseQuery(strings.TrimPrefix(extra, "?"))
		if err != nil {
			return nil, fmt.Errorf("the credential's Auth URI Query Parameters are not a query string: %w", err)
		}
		for k, vs := range params {
			q[k] = vs
		}
	}
	req := &OAuth2AuthRequest{State: randomToken()}
	q.Set("client_id", field(data, "clientId"))
	q.Set("redirect_uri", redirectURI)
	q.Set("response_type", "code")
	q.Set("state", req.State)
	if scope := field(data, "scope"); scope != "" {
		q.Set("scope", scope)
	}
	if grant == GrantPKCE {
		req.Verifier = randomToken()
		q.Set("code_challenge", pkceChallenge(req.Verifier))
		q.Set("code_challenge_method", "S256")
	}
	u.RawQuery = q.Encode()
	req.URL = u.String()
	return req, nil
}

// ExchangeCode trades an authorization code for a token at the credential's token URL.
func ExchangeCode(ctx context.Context, client *http.Client, data map[string]any, code, redirectURI, verifier string) (map[string]any, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirectURI}}
	if verifier != "" {
		form.Set("code_verifier", verifier)
	}
	return tokenRequest(ctx, client, data, form)
}

// grantRefresh gets a new token for stored credential data: with the refresh token when
// there is one, else again by client credentials. The answer is merged into the stored
// token, so a refresh token the provider does not repeat is kept.
func grantRefresh(ctx context.Context, client *http.Client, data map[string]any) (map[string]any, error) {
	old := Token(data)
	var form url.Values
	switch refresh := field(old, "refresh_token"); {
	case refresh != "":
		form = url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}
	case GrantType(data) == GrantClientCredentials:
		form = url.Values{"grant_type": {"client_credentials"}}
		if scope := field(data, "scope"); scope != "" {
			form.Set("scope", scope)
		}
	default:
		return nil, fmt.Errorf("%w: the access token expired and the credential has no refresh token; reconnect it", ErrTokenRequest)
	}
	fresh, err := tokenRequest(ctx, client, data, form)
	if err != nil {
		return nil, err
	}
	merged := map[string]any{}
	for k, v := range old {
		merged[k] = v
	}
	delete(merged, expiresAtKey)
	for k, v := range fresh {
		merged[k] = v
	}
	return merged, nil
}

// tokenRequest posts form to the token URL with the client authenticated as the credential's
// authentication says (Basic header by default, or client_id and client_secret in the body),
// and returns the token with expires_at added.
func tokenRequest(ctx context.Context, client *http.Client, data map[string]any, form url.Values) (map[string]any, error) {
	u, err := httpURL(data, "accessTokenUrl", "Access Token URL")
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTokenRequest, err)
	}
	id, secret := field(data, "clientId"), field(data, "clientSecret")
	if field(data, "authentication") == "body" {
		form.Set("client_id", id)
		if secret != "" {
			form.Set("client_secret", secret)
		}
	} else if GrantType(data) == GrantPKCE && secret == "" {
		form.Set("client_id", id)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(form.Encode()))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTokenRequest, err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if field(data, "authentication") != "body" && !(GrantType(data) == GrantPKCE && secret == "") {
		// As n8n sends it: id and secret as they are, not form-encoded first.
		req.SetBasicAuth(id, secret)
	}
	obtained := time.Now()
	res, body, err := doTokenRequest(client, req)
	if err != nil {
		return nil, err
	}
	token, err := parseTokenBody(res.Header.Get("Content-Type"), body)
	if err != nil {
		return nil, fmt.Errorf("%w: %s answered %d: %w", ErrTokenRequest, u.Host, res.StatusCode, err)
	}
	if e := field(token, "error"); e != "" || res.StatusCode < 200 || res.StatusCode > 299 {
		msg := e
		if d := field(token, "error_description"); d != "" {
			msg += ": " + d
		}
		return nil, fmt.Errorf("%w: %s answered %d %s", ErrTokenRequest, u.Host, res.StatusCode, msg)
	}
	if field(token, "access_token") == "" {
		return nil, fmt.Errorf("%w: the answer of %s has no access_token", ErrTokenRequest, u.Host)
	}
	if in, ok := expiresIn(token["expires_in"]); ok {
		token[expiresAtKey] = float64(obtained.Add(time.Duration(in) * time.Second).Unix())
	}
	return token, nil
}

// parseTokenBody reads a token answer: JSON, or a form-encoded body as some providers send.
func parseTokenBody(contentType string, body []byte) (map[string]any, error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/x-www-form-urlencoded" || mt == "text/plain" {
		if vs, err := url.ParseQuery(string(body)); err == nil && len(vs) > 0 && !json.Valid(body) {
			out := map[string]any{}
			for k := range vs {
				out[k] = vs.Get(k)
			}
			return out, nil
		}
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil || out == nil {
		return nil, errors.New("the answer is not a JSON token")
	}
	return out, nil
}

func expiresIn(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, n > 0
	case string:
		var f float64
		if _, err := fmt.Sscan(n, &f); err == nil && f > 0 {
			return f, true
		}
	}
	return 0, false
}

// doTokenRequest sends a token request and reads the answer, up to maxTokenResponse bytes.
func doTokenRequest(client *http.Client, req *http.Request) (*http.Response, []byte, error) {
	res, err := client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrTokenRequest, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxTokenResponse))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: read the answer of %s: %w", ErrTokenRequest, req.URL.Host, err)
	}
	return res, body, nil
}
