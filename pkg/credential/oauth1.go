package credential

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/flowmill/flowmill/pkg/oauth1"
)

// OAuth1RequestToken is a request token obtained for a connect: the token the browser takes to
// the provider, its secret (kept server-side) and the authorization URL with the token.
type OAuth1RequestToken struct {
	Token, TokenSecret string
	AuthURL            string
}

// RequestOAuth1Token obtains a request token at the credential's requestTokenUrl (signed, with
// oauth_callback), as the first step of an OAuth1 connect.
func RequestOAuth1Token(ctx context.Context, client *http.Client, data map[string]any, callback string) (*OAuth1RequestToken, error) {
	authURL, err := httpURL(data, "authUrl", "Authorization URL")
	if err != nil {
		return nil, err
	}
	values, err := oauth1Post(ctx, client, data, "requestTokenUrl", "Request Token URL", "", "",
		map[string]string{"oauth_callback": callback})
	if err != nil {
		return nil, err
	}
	rt := &OAuth1RequestToken{Token: values["oauth_token"], TokenSecret: values["oauth_token_secret"]}
	if rt.Token == "" {
		return nil, fmt.Errorf("%w: the request token answer has no oauth_token", ErrTokenRequest)
	}
	q := authURL.Query()
	q.Set("oauth_token", rt.Token)
	authURL.RawQuery = q.Encode()
	rt.AuthURL = authURL.String()
	return rt, nil
}

// ExchangeOAuth1Token trades the authorized request token and its verifier for an access token
// at the credential's accessTokenUrl. The answer (oauth_token, oauth_token_secret and whatever
// else the provider sends) is the credential's token data.
func ExchangeOAuth1Token(ctx context.Context, client *http.Client, data map[string]any, token, tokenSecret, verifier string) (map[string]any, error) {
	values, err := oauth1Post(ctx, client, data, "accessTokenUrl", "Access Token URL", token, tokenSecret,
		map[string]string{"oauth_verifier": verifier})
	if err != nil {
		return nil, err
	}
	if values["oauth_token"] == "" {
		return nil, fmt.Errorf("%w: the access token answer has no oauth_token", ErrTokenRequest)
	}
	out := make(map[string]any, len(values))
	for k, v := range values {
		out[k] = v
	}
	return out, nil
}

func httpURL(data map[string]any, key, label string) (*url.URL, error) {
	raw := field(data, key)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the credential's %s %q is not an http(s) URL", label, raw)
	}
	return u, nil
}

// oauth1Post sends a signed POST to the URL in data[key] and reads the form-encoded answer.
func oauth1Post(ctx context.Context, client *http.Client, data map[string]any, key, label, token, tokenSecret string,
	extra map[string]string) (map[string]string, error) {
	u, err := httpURL(data, key, label)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTokenRequest, err)
	}
	req.Header.Set("Authorization", oauth1.Header(oauth1.Request{
		Method: http.MethodPost, URL: u,
		ConsumerKey: field(data, "consumerKey"), ConsumerSecret: field(data, "consumerSecret"),
		Token: token, TokenSecret: tokenSecret, SignatureMethod: field(data, "signatureMethod"), Extra: extra,
	}))
	res, body, err := doTokenRequest(client, req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, fmt.Errorf("%w: %s answered %d %s", ErrTokenRequest, u.Host, res.StatusCode, truncate(string(body), 200))
	}
	parsed, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, fmt.Errorf("%w: the answer of %s is not form-encoded: %w", ErrTokenRequest, u.Host, err)
	}
	out := make(map[string]string, len(parsed))
	for k := range parsed {
		out[k] = parsed.Get(k)
	}
	return out, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
