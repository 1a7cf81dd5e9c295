package httprequest

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/oauth1"
)

// authData holds the credentials a request is sent with; at most one kind is set.
type authData struct {
	kind string // basic, digest, header, query, oauth1, oauth2
	data map[string]any
	// refresh gets the credential again after the service refused the OAuth2 access token it
	// names (see nodes.Execution.RefreshedCredentials); nil for other kinds.
	refresh func(ctx context.Context, refused string) (map[string]any, error)
}

// credentialTypes maps version 1's authentication values to credential types.
var credentialTypes = map[string]string{
	"basicAuth": "httpBasicAuth", "digestAuth": "httpDigestAuth", "headerAuth": "httpHeaderAuth",
	"queryAuth": "httpQueryAuth", "oAuth1": "oAuth1Api", "oAuth2": "oAuth2Api",
}

var authKinds = map[string]string{
	"httpBasicAuth": "basic", "httpDigestAuth": "digest", "httpHeaderAuth": "header",
	"httpQueryAuth": "query", "oAuth1Api": "oauth1", "oAuth2Api": "oauth2",
}

// loadAuth fetches the credentials the node's authentication parameters select. As in n8n, a
// node without a credential of the chosen type sends the request unauthenticated.
func loadAuth(ctx context.Context, ex *nodes.Execution) (*authData, error) {
	authentication, err := ex.ParamString("authentication", 0)
	if err != nil {
		return nil, err
	}
	var credType string
	if ex.TypeVersion() < 2 {
		credType = credentialTypes[authentication]
	} else {
		switch authentication {
		case "genericCredentialType":
			if credType, err = ex.ParamString("genericAuthType", 0); err != nil {
				return nil, err
			}
		case "predefinedCredentialType":
			if credType, err = ex.ParamString("nodeCredentialType", 0); err != nil {
				return nil, err
			}
		}
	}
	if credType == "" {
		return &authData{}, nil
	}
	if _, selected := ex.Node().Credentials[credType]; !selected {
		return &authData{}, nil
	}
	data, err := ex.Credentials(ctx, credType)
	if err != nil {
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
	}
	kind, ok := authKinds[credType]
	if !ok {
		// Predefined service credentials are applied by their OAuth token data when they have it.
		switch token, _ := data["oauthTokenData"].(map[string]any); {
		case token["access_token"] != nil:
			kind = "oauth2"
		case token["oauth_token"] != nil:
			kind = "oauth1"
		default:
			return nil, nodes.Errorf(-1, "The credential type %q can not be used by this node yet", credType)
		}
	}
	a := &authData{kind: kind, data: data}
	if kind == "oauth2" {
		a.refresh = func(ctx context.Context, refused string) (map[string]any, error) {
			return ex.RefreshedCredentials(ctx, credType, refused)
		}
	}
	return a, nil
}

// refreshOAuth2 replaces the OAuth2 token the service refused with a new one. It reports false
// when there is no new token to retry with.
func (a *authData) refreshOAuth2(ctx context.Context) (bool, error) {
	token, _ := a.data["oauthTokenData"].(map[string]any)
	refused := str(token, "access_token")
	if a.refresh == nil || refused == "" {
		return false, nil
	}
	data, err := a.refresh(ctx, refused)
	if err != nil {
		return false, &nodes.Error{Message: "The OAuth2 access token was refused and could not be refreshed: " + err.Error(), ItemIndex: -1, Cause: err}
	}
	fresh, _ := data["oauthTokenData"].(map[string]any)
	if str(fresh, "access_token") == "" || str(fresh, "access_token") == refused {
		return false, nil
	}
	a.data = data
	return true, nil
}

func str(m map[string]any, key string) string {
	if v, ok := m[key]; ok && v != nil {
		return fmt.Sprint(v)
	}
	return ""
}

// apply adds what does not depend on the final request: header and query credentials.
func (a *authData) apply(r *request) error {
	switch a.kind {
	case "header":
		r.headers.set(str(a.data, "name"), str(a.data, "value"))
	case "query":
		r.qs.set(str(a.data, "name"), str(a.data, "value"))
	case "oauth2":
		token, _ := a.data["oauthTokenData"].(map[string]any)
		if str(token, "access_token") == "" {
			return nodes.Errorf(-1, "OAuth credentials not connected")
		}
	case "oauth1":
		token, _ := a.data["oauthTokenData"].(map[string]any)
		if str(token, "oauth_token") == "" {
			return nodes.Errorf(-1, "OAuth credentials not connected")
		}
	}
	return nil
}

// sign adds the Authorization header of basic, OAuth1 and OAuth2 credentials to a request
// about to be sent; form holds the url-encoded body parameters OAuth1 signs.
func (a *authData) sign(req *http.Request, form url.Values) {
	switch a.kind {
	case "basic":
		req.SetBasicAuth(str(a.data, "user"), str(a.data, "password"))
	case "oauth2":
		token, _ := a.data["oauthTokenData"].(map[string]any)
		req.Header.Set("Authorization", "Bearer "+str(token, "access_token"))
	case "oauth1":
		req.Header.Set("Authorization", oauth1Header(a.data, req, form, nonce(), time.Now()))
	}
}

func nonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// oauth1Header signs a request as RFC 5849 describes, with the credential's signature method
// (HMAC-SHA1 by default) and its access token.
func oauth1Header(cred map[string]any, req *http.Request, form url.Values, nonce string, now time.Time) string {
	token, _ := cred["oauthTokenData"].(map[string]any)
	return oauth1.Header(oauth1.Request{
		Method: req.Method, URL: req.URL, Form: form,
		ConsumerKey: str(cred, "consumerKey"), ConsumerSecret: str(cred, "consumerSecret"),
		Token: str(token, "oauth_token"), TokenSecret: str(token, "oauth_token_secret"),
		SignatureMethod: str(cred, "signatureMethod"), Nonce: nonce, Now: now,
	})
}

// digestAuthorization answers a Digest challenge (RFC 7616, MD5 or SHA-256, qop auth).
func digestAuthorization(challenge string, user, password, method, uri string, cnonce string) (string, bool) {
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
