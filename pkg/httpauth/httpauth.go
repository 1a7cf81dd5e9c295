// Package httpauth authenticates HTTP requests with the data of the generic credential types
// (basic, digest, header, query, custom, OAuth1 and OAuth2 token data), as n8n's HTTP Request node
// does. The HTTP Request node and the credential test both send their requests through it.
package httpauth

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/oauth1"
)

// The kinds of authentication.
const (
	Basic  = "basic"
	Digest = "digest"
	Header = "header"
	Query  = "query"
	Custom = "custom"
	OAuth1 = "oauth1"
	OAuth2 = "oauth2"
)

// kinds maps the generic credential types to their kind of authentication.
var kinds = map[string]string{
	"httpBasicAuth": Basic, "httpDigestAuth": Digest, "httpHeaderAuth": Header,
	"httpQueryAuth": Query, "httpCustomAuth": Custom, "oAuth1Api": OAuth1, "oAuth2Api": OAuth2,
}

// KindOf returns the kind of authentication of a generic credential type; false for others.
func KindOf(credType string) (string, bool) {
	k, ok := kinds[credType]
	return k, ok
}

// ErrNotConnected means OAuth credentials have no token data yet.
var ErrNotConnected = errors.New("OAuth credentials not connected")

// Auth is the credential data a request is sent with. The zero value sends it unauthenticated.
type Auth struct {
	// Kind is one of the kinds above; empty for none.
	Kind string
	// Data is the decrypted credential data.
	Data map[string]any
	// Refresh, for OAuth2, gets the credential data again after the service refused the access
	// token refused (401): with a new token, or the newer one another run already saved. Nil
	// means a refused token is final.
	Refresh func(ctx context.Context, refused string) (map[string]any, error)
}

// Param is one header or query parameter a credential adds.
type Param struct{ Name, Value string }

// Str returns data's key as text; empty when missing or null.
func Str(data map[string]any, key string) string {
	if v, ok := data[key]; ok && v != nil {
		return fmt.Sprint(v)
	}
	return ""
}

func tokenData(data map[string]any) map[string]any {
	t, _ := data["oauthTokenData"].(map[string]any)
	return t
}

// Params returns the headers and query parameters the credential adds to a request before it is
// built (header, query and custom credentials), or ErrNotConnected for OAuth credentials without
// a token. Custom credentials whose JSON is not an object of headers and qs objects fail.
func (a *Auth) Params() (headers, qs []Param, err error) {
	switch a.Kind {
	case Header:
		headers = append(headers, Param{Str(a.Data, "name"), Str(a.Data, "value")})
	case Query:
		qs = append(qs, Param{Str(a.Data, "name"), Str(a.Data, "value")})
	case Custom:
		return customParams(Str(a.Data, "json"))
	case OAuth2:
		if Str(tokenData(a.Data), "access_token") == "" {
			return nil, nil, ErrNotConnected
		}
	case OAuth1:
		if Str(tokenData(a.Data), "oauth_token") == "" {
			return nil, nil, ErrNotConnected
		}
	}
	return headers, qs, nil
}

// customParams reads a Custom Auth credential's JSON: {"headers": {...}, "qs": {...}}. Body values
// are refused: they are not supported yet.
func customParams(text string) (headers, qs []Param, err error) {
	var v map[string]map[string]any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, nil, fmt.Errorf("the Custom Auth credential's JSON must be an object of headers and qs objects: %w", err)
	}
	list := func(m map[string]any) []Param {
		names := slices.Sorted(maps.Keys(m))
		out := make([]Param, len(names))
		for i, k := range names {
			out[i] = Param{k, Str(m, k)}
		}
		return out
	}
	for k := range v {
		if k != "headers" && k != "qs" {
			return nil, nil, fmt.Errorf("the Custom Auth credential's %q values are not supported; use headers and qs", k)
		}
	}
	return list(v["headers"]), list(v["qs"]), nil
}

// Sign adds the Authorization header of basic, OAuth1 and OAuth2 credentials to a request about
// to be sent; form holds the url-encoded body parameters OAuth1 signs.
func (a *Auth) Sign(req *http.Request, form url.Values) {
	switch a.Kind {
	case Basic:
		req.SetBasicAuth(Str(a.Data, "user"), Str(a.Data, "password"))
	case OAuth2:
		req.Header.Set("Authorization", "Bearer "+Str(tokenData(a.Data), "access_token"))
	case OAuth1:
		req.Header.Set("Authorization", OAuth1Header(a.Data, req, form, nonce(), time.Now()))
	}
}

// Do sends the request newReq builds, signed (form as for Sign). When a digest credential meets a
// Digest challenge (401 with WWW-Authenticate), it sends a new request with the answer, once.
func (a *Auth) Do(client *http.Client, form url.Values, newReq func() (*http.Request, error)) (*http.Response, error) {
	req, err := newReq()
	if err != nil {
		return nil, err
	}
	a.Sign(req, form)
	res, err := client.Do(req)
	if err != nil || res.StatusCode != http.StatusUnauthorized {
		return res, err
	}
	if a.Kind == OAuth2 {
		return a.retryRefreshed(req.Context(), client, form, newReq, res)
	}
	if a.Kind != Digest {
		return res, nil
	}
	challenge := res.Header.Get("WWW-Authenticate")
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if req, err = newReq(); err != nil {
		return nil, err
	}
	if h, ok := DigestAuthorization(challenge, Str(a.Data, "user"), Str(a.Data, "password"), req.Method, req.URL.RequestURI(), nonce()); ok {
		req.Header.Set("Authorization", h)
	}
	return client.Do(req)
}

// ErrRefresh means an OAuth2 access token was refused and no new one could be obtained.
var ErrRefresh = errors.New("The OAuth2 access token was refused and could not be refreshed")

// retryRefreshed answers a 401 to an OAuth2 request: it gets a new token once and sends the
// request again with it; without a new token, the 401 answer stands.
func (a *Auth) retryRefreshed(ctx context.Context, client *http.Client, form url.Values,
	newReq func() (*http.Request, error), refusedRes *http.Response) (*http.Response, error) {
	refused := Str(tokenData(a.Data), "access_token")
	if a.Refresh == nil || refused == "" {
		return refusedRes, nil
	}
	data, err := a.Refresh(ctx, refused)
	if err != nil {
		refusedRes.Body.Close()
		return nil, fmt.Errorf("%w: %w", ErrRefresh, err)
	}
	if fresh := Str(tokenData(data), "access_token"); fresh == "" || fresh == refused {
		return refusedRes, nil
	}
	_, _ = io.Copy(io.Discard, refusedRes.Body)
	refusedRes.Body.Close()
	a.Data = data
	req, err := newReq()
	if err != nil {
		return nil, err
	}
	a.Sign(req, form)
	return client.Do(req)
}

func nonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// EncodeComponent percent-encodes all but RFC 3986 unreserved characters.
func EncodeComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// OAuth1Header signs a request as RFC 5849 describes, with the credential's signature method
// (HMAC-SHA1 by default), its consumer key and secret and its token data's oauth_token and
// oauth_token_secret.
func OAuth1Header(cred map[string]any, req *http.Request, form url.Values, nonce string, now time.Time) string {
	token := tokenData(cred)
	return oauth1.Header(oauth1.Request{
		Method: req.Method, URL: req.URL, Form: form,
		ConsumerKey: Str(cred, "consumerKey"), ConsumerSecret: Str(cred, "consumerSecret"),
		Token: Str(token, "oauth_token"), TokenSecret: Str(token, "oauth_token_secret"),
		SignatureMethod: Str(cred, "signatureMethod"), Nonce: nonce, Now: now,
	})
}

// DigestAuthorization answers a Digest challenge (RFC 7616, MD5 or SHA-256, qop auth); false when
// the challenge is not a Digest one.
func DigestAuthorization(challenge string, user, password, method, uri string, cnonce string) (string, bool) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	if !strings.EqualFold(scheme, "Digest") {
		return "", false
	}
	p := parseChallenge(rest)
	algorithm := p["algorithm"]
	h := func(s string) string { sum := md5.Sum([]byte(s)); return hex.EncodeToString(sum[:]) }
	if strings.HasPrefix(strings.ToUpper(algorithm), "SHA-256") {
		h = func(s string) string { sum := sha256.Sum256([]byte(s)); return hex.EncodeToString(sum[:]) }
	}
	ha1 := h(user + ":" + p["realm"] + ":" + password)
	if strings.HasSuffix(strings.ToUpper(algorithm), "-SESS") {
		ha1 = h(ha1 + ":" + p["nonce"] + ":" + cnonce)
	}
	ha2 := h(method + ":" + uri)
	const nc = "00000001"
	qop := ""
	for _, q := range strings.Split(p["qop"], ",") {
		if strings.TrimSpace(q) == "auth" {
			qop = "auth"
		}
	}
	var response string
	if qop != "" {
		response = h(ha1 + ":" + p["nonce"] + ":" + nc + ":" + cnonce + ":" + qop + ":" + ha2)
	} else {
		response = h(ha1 + ":" + p["nonce"] + ":" + ha2)
	}
	fields := []string{
		fmt.Sprintf(`username="%s"`, user), fmt.Sprintf(`realm="%s"`, p["realm"]),
		fmt.Sprintf(`nonce="%s"`, p["nonce"]), fmt.Sprintf(`uri="%s"`, uri),
	}
	if qop != "" {
		fields = append(fields, "qop="+qop, "nc="+nc, fmt.Sprintf(`cnonce="%s"`, cnonce))
	}
	fields = append(fields, fmt.Sprintf(`response="%s"`, response))
	if o := p["opaque"]; o != "" {
		fields = append(fields, fmt.Sprintf(`opaque="%s"`, o))
	}
	if algorithm != "" {
		fields = append(fields, "algorithm="+algorithm)
	}
	return "Digest " + strings.Join(fields, ", "), true
}

// parseChallenge reads the comma-separated key=value (optionally quoted) pairs of a challenge.
func parseChallenge(s string) map[string]string {
	out := map[string]string{}
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ,")
		k, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		k = strings.ToLower(strings.TrimSpace(k))
		var v string
		if strings.HasPrefix(rest, `"`) {
			end := strings.Index(rest[1:], `"`)
			if end < 0 {
				v, rest = rest[1:], ""
			} else {
				v, rest = rest[1:end+1], rest[end+2:]
			}
		} else {
			v, rest, _ = strings.Cut(rest, ",")
			v = strings.TrimSpace(v)
		}
		out[k] = v
		s = rest
	}
	return out
}
