package credential

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/httpauth"
)

// TestTimeout bounds a credential test: every request it makes, redirects and token fetches
// included.
const TestTimeout = 10 * time.Second

// The statuses of a TestResult.
const (
	TestOK    = "OK"
	TestError = "Error"
)

// TestResult is the outcome of a credential test, as n8n's POST /rest/credentials/test answers it.
type TestResult struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// The messages of TestResults that are not the server's.
const (
	MsgTestOK          = "Connection successful!"
	MsgAuthFailed      = "Authorization failed - please check your credentials"
	MsgOAuthConnect    = "OAuth credentials are tested by connecting the account"
	MsgNoTestFunction  = "No testing function found for this credential type"
	maxTestBodyToParse = 1 << 20
)

// TestInput is what a credential test needs besides the credential.
type TestInput struct {
	// Client sends the test's requests; it must apply the egress policy. Its redirects are not
	// followed (a 3xx answer is a success).
	Client *http.Client
	// URL and Method are the request of the node that tests a generic credential (TestedBy):
	// the HTTP Request node's URL. Method defaults to GET. Empty URL: such types are not
	// testable.
	URL, Method string
}

func ok() TestResult                 { return TestResult{Status: TestOK, Message: MsgTestOK} }
func failed(msg string) TestResult   { return TestResult{Status: TestError, Message: msg} }
func failedErr(err error) TestResult { return failed(requestFailure(err)) }

// TestCredential tests data of type t: its declarative Test request when it has one; the client
// credentials grant's token fetch for OAuth2 (authorization code and PKCE credentials are tested
// by connecting the account); a request to in.URL authenticated as HTTP Request does for the
// generic types; otherwise an Error result that says no test exists. Failures are results,
// never errors.
func (t *Type) TestCredential(ctx context.Context, data map[string]any, in TestInput) TestResult {
	ctx, cancel := context.WithTimeout(ctx, TestTimeout)
	defer cancel()
	client := *in.Client
	client.Timeout = TestTimeout
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	switch {
	case t.Test != nil:
		return t.runDeclarative(ctx, &client, data)
	case t.Connect != nil:
		if err := t.Connect(ctx, data, &client); err != nil {
			return failed(err.Error())
		}
		return ok()
	case t.Is("oAuth2Api"):
		if Str(data, "grantType") != "clientCredentials" {
			return failed(MsgOAuthConnect)
		}
		return clientCredentialsToken(ctx, &client, data)
	}
	kind := ""
	for name := range genericKinds() {
		if t.Is(name) {
			kind, _ = httpauth.KindOf(name)
		}
	}
	if kind == "" || in.URL == "" {
		return failed(MsgNoTestFunction)
	}
	return requestWith(ctx, &client, &httpauth.Auth{Kind: kind, Data: data}, cmp.Or(strings.ToUpper(in.Method), http.MethodGet), in.URL, nil, nil)
}

// genericKinds are the generic credential types HTTP Request authenticates with.
func genericKinds() map[string]bool {
	out := map[string]bool{}
	for _, typ := range types {
		if _, ok := httpauth.KindOf(typ.Name); ok {
			out[typ.Name] = true
		}
	}
	return out
}

// Str returns data's key as text; empty when missing or null.
func Str(data map[string]any, key string) string { return httpauth.Str(data, key) }

// requestWith sends one authenticated request and judges its status: 2xx and 3xx are OK, 401 and
// 403 an authorization failure, others their status text.
func requestWith(ctx context.Context, client *http.Client, auth *httpauth.Auth, method, rawURL string, headers, qs []httpauth.Param) TestResult {
	res, err := send(ctx, client, auth, method, rawURL, headers, qs)
	if err != nil {
		return failedErr(err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, maxTestBodyToParse))
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 400:
		return ok()
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return failed(MsgAuthFailed)
	}
	return failed(statusText(res))
}

// send makes a request authenticated by auth, with extra headers and query parameters.
func send(ctx context.Context, client *http.Client, auth *httpauth.Auth, method, rawURL string, headers, qs []httpauth.Param) (*http.Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid URL %q: it must be an absolute http or https URL", rawURL)
	}
	authHeaders, authQS, err := auth.Params()
	if err != nil {
		return nil, err
	}
	q := u.Query()
	for _, p := range append(qs, authQS...) {
		q.Set(p.Name, p.Value)
	}
	u.RawQuery = q.Encode()
	return auth.Do(client, nil, func() (*http.Request, error) {
		req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
		if err != nil {
			return nil, err
		}
		for _, h := range append(headers, authHeaders...) {
			req.Header.Set(h.Name, h.Value)
		}
		return req, nil
	})
}

// requestFailure tells why a request got no answer: the egress policy's refusal, the timeout, or
// the connection error.
func requestFailure(err error) string {
	if re, ok := egress.Refusal(err); ok {
		return re.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("The request timed out after %s", TestTimeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Sprintf("The request timed out after %s", TestTimeout)
		}
		return ue.Err.Error()
	}
	return err.Error()
}

func statusText(res *http.Response) string {
	text := strings.TrimSpace(strings.TrimPrefix(res.Status, fmt.Sprint(res.StatusCode)))
	if text == "" {
		text = http.StatusText(res.StatusCode)
	}
	if text == "" {
		return fmt.Sprintf("Received HTTP status code: %d", res.StatusCode)
	}
	return text
}

// clientCredentialsToken fetches a token with the client credentials grant: client id and secret
// in a Basic Authorization header (authentication "header", the default) or in the body.
func clientCredentialsToken(ctx context.Context, client *http.Client, data map[string]any) TestResult {
	form := url.Values{"grant_type": {"client_credentials"}}
	if scope := Str(data, "scope"); scope != "" {
		form.Set("scope", scope)
	}
	if Str(data, "authentication") == "body" {
		form.Set("client_id", Str(data, "clientId"))
		form.Set("client_secret", Str(data, "clientSecret"))
	}
	tokenURL := Str(data, "accessTokenUrl")
	u, err := url.Parse(tokenURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return failed(fmt.Sprintf("invalid Access Token URL %q: it must be an absolute http or https URL", tokenURL))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, tokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return failedErr(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if Str(data, "authentication") != "body" {
		req.SetBasicAuth(url.QueryEscape(Str(data, "clientId")), url.QueryEscape(Str(data, "clientSecret")))
	}
	res, err := client.Do(req)
	if err != nil {
		return failedErr(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxTestBodyToParse))
	var token struct {
		AccessToken      string `json:"access_token"`
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
	}
	if strings.Contains(res.Header.Get("Content-Type"), "x-www-form-urlencoded") {
		v, _ := url.ParseQuery(string(body))
		token.AccessToken, token.Error, token.ErrorDescription = v.Get("access_token"), v.Get("error"), v.Get("error_description")
	} else {
		_ = json.Unmarshal(body, &token)
	}
	switch {
	case res.StatusCode >= 200 && res.StatusCode < 300 && token.AccessToken != "":
		return ok()
	case token.Error != "" && token.ErrorDescription != "":
		return failed(token.Error + ": " + token.ErrorDescription)
	case token.Error != "":
		return failed(token.Error)
	case res.StatusCode >= 200 && res.StatusCode < 300:
		return failed("The token endpoint answered without an access_token")
	}
	return failed(statusText(res))
}

// credentialExpr matches n8n's expressions on the credential's data: {{$credentials.name}} and
// {{$credentials?.name}}.
var credentialExpr = regexp.MustCompile(`\{\{\s*\$credentials\??\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)

// expand evaluates a declarative test's value: text starting with "=" has each
// {{$credentials.x}} replaced by the data's x; other expressions are refused.
func expand(value string, data map[string]any) (string, error) {
	text, isExpr := strings.CutPrefix(value, "=")
	if !isExpr {
		return value, nil
	}
	out := credentialExpr.ReplaceAllStringFunc(text, func(m string) string {
		return Str(data, credentialExpr.FindStringSubmatch(m)[1])
	})
	if strings.Contains(out, "{{") {
		return "", fmt.Errorf("the credential test's expression %q is not supported: only {{$credentials.<name>}} is", value)
	}
	return out, nil
}

func resolveAll(m map[string]string, data map[string]any) ([]httpauth.Param, error) {
	var out []httpauth.Param
	for k, v := range m {
		name, err := expand(k, data)
		if err != nil {
			return nil, err
		}
		value, err := expand(v, data)
		if err != nil {
			return nil, err
		}
		out = append(out, httpauth.Param{Name: name, Value: value})
	}
	return out, nil
}

// runDeclarative runs the type's Test request with its Authenticate headers and query, then its
// rules, as n8n's credentials helper does: a responseCode rule matching the status gives its
// message; any other status outside 2xx fails with the status text; a responseSuccessBody rule
// whose key holds its value fails with its message.
func (t *Type) runDeclarative(ctx context.Context, client *http.Client, data map[string]any) TestResult {
	r := t.Test.Request
	base, err := expand(r.BaseURL, data)
	if err != nil {
		return failedErr(err)
	}
	path, err := expand(r.URL, data)
	if err != nil {
		return failedErr(err)
	}
	headerMaps, qsMaps := []map[string]string{r.Headers}, []map[string]string{r.QS}
	if a := t.Authenticate; a != nil {
		headerMaps, qsMaps = append(headerMaps, a.Properties.Headers), append(qsMaps, a.Properties.QS)
	}
	var headers, qs []httpauth.Param
	for i := range headerMaps {
		h, err := resolveAll(headerMaps[i], data)
		if err != nil {
			return failedErr(err)
		}
		q, err := resolveAll(qsMaps[i], data)
		if err != nil {
			return failedErr(err)
		}
		headers, qs = append(headers, h...), append(qs, q...)
	}
	target := path
	if base != "" {
		target = strings.TrimSuffix(base, "/") + "/" + strings.TrimPrefix(path, "/")
	}
	res, err := send(ctx, client, &httpauth.Auth{}, cmp.Or(strings.ToUpper(r.Method), http.MethodGet), target, headers, qs)
	if err != nil {
		return failedErr(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxTestBodyToParse))
	for _, rule := range t.Test.Rules {
		if rule.Type == "responseCode" && jsonEqual(rule.Properties.Value, res.StatusCode) {
			return failed(rule.Properties.Message)
		}
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return failed(statusText(res))
	}
	var parsed any
	_ = json.Unmarshal(body, &parsed)
	for _, rule := range t.Test.Rules {
		if rule.Type == "responseSuccessBody" && jsonEqual(lookupPath(parsed, rule.Properties.Key), rule.Properties.Value) {
			return failed(rule.Properties.Message)
		}
	}
	return ok()
}

// lookupPath reads a dotted key (lodash's get) from parsed JSON; nil when absent.
func lookupPath(v any, key string) any {
	for _, part := range strings.Split(key, ".") {
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil
		}
		v = m[part]
	}
	return v
}
