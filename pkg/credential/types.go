// Package credential holds the credential types nodes authenticate with, the encryption of
// credential data at rest, the JSON Schema of each type's data, the checks of data the editor
// saves, the credential test, and the lookup that hands decrypted data to nodes during a run.
package credential

import (
	"context"
	"fmt"
	"slices"

	"github.com/flowmill/flowmill/pkg/egress"
)

// Type describes one kind of credential: its name as nodes reference it, and the properties its
// data holds. The JSON field names are n8n's (ICredentialType), so the editor shows the same forms.
type Type struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	// Extends names the parent types whose properties this type inherits (its own override a
	// parent's of the same name), as n8n's `extends`. Empty for the types here.
	Extends []string `json:"extends,omitempty"`
	// DocumentationURL is n8n's documentation key for the type; empty when n8n has none.
	DocumentationURL string `json:"documentationUrl,omitempty"`
	// GenericAuth marks types HTTP Request offers under "Generic Credential Type".
	GenericAuth bool `json:"genericAuth,omitempty"`
	// Icon is an icon reference: "node:<node type>" (the node's icon) or "file:<name>" (a file
	// GET /rest/credential-icon/:name serves from the icons folder).
	Icon       string     `json:"icon,omitempty"`
	Properties []Property `json:"properties"`
	// Test is n8n's declarative credential test (ICredentialTestRequest); nil when the type has
	// none.
	Test *TestRequest `json:"test,omitempty"`
	// TestedBy names the node types that can test the type's credentials with a request of their
	// own (Flowmill's HTTP Request node for the generic types, given a URL).
	TestedBy []string `json:"testedBy,omitempty"`
	// Authenticate is n8n's generic authentication (IAuthenticateGeneric): headers and query
	// parameters, whose names and values may be expressions on $credentials, added to the
	// request of a declarative test. Nil when the type authenticates otherwise.
	Authenticate *Authenticate `json:"authenticate,omitempty"`
	// Connect tests the credential by connecting with it, for types that speak no HTTP (n8n's
	// node credential tests such as imapConnectionTest and smtpConnectionTest); policy applies to
	// every address it dials, and the error's text is the test's message. Nil when the type is
	// tested otherwise. The editor offers the test where a node of TestedBy is in the workflow.
	Connect func(ctx context.Context, data map[string]any, policy *egress.Policy) error `json:"-"`
}

// Property is one field of a credential's data.
type Property struct {
	DisplayName string `json:"displayName"`
	Name        string `json:"name"`
	// Type is string, number, boolean, options, json or hidden.
	Type    string `json:"type"`
	Default any    `json:"default"`
	// Required is n8n's flag for the editor form: a required property that is shown must be
	// non-empty when the editor saves (see CheckData); the public API's schema requires every
	// shown property regardless (see JSONSchema).
	Required       bool            `json:"required,omitempty"`
	TypeOptions    map[string]any  `json:"typeOptions,omitempty"`
	Options        []Option        `json:"options,omitempty"`
	DisplayOptions *DisplayOptions `json:"displayOptions,omitempty"`
	Hint           string          `json:"hint,omitempty"`
	Description    string          `json:"description,omitempty"`
	Placeholder    string          `json:"placeholder,omitempty"`
}

// Password tells whether the property's value is a secret the editor masks and REST answers
// redact.
func (p Property) Password() bool {
	v, _ := p.TypeOptions["password"].(bool)
	return v
}

// Option is one choice of an options property.
type Option struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// DisplayOptions shows a property only while other properties hold one of the listed values
// (Show), and hides it while they hold one of those listed under Hide.
type DisplayOptions struct {
	Show map[string][]any `json:"show,omitempty"`
	Hide map[string][]any `json:"hide,omitempty"`
}

// TestRequest is n8n's ICredentialTestRequest: a request made with the credential, and rules that
// judge the response. Values starting with "=" are expressions such as "={{$credentials.server}}".
type TestRequest struct {
	Request TestRequestOptions `json:"request"`
	Rules   []TestRule         `json:"rules,omitempty"`
}

// TestRequestOptions is the request of a TestRequest. Method defaults to GET.
type TestRequestOptions struct {
	BaseURL string            `json:"baseURL,omitempty"`
	URL     string            `json:"url,omitempty"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	QS      map[string]string `json:"qs,omitempty"`
}

// TestRule is one of n8n's test rules: "responseCode" fails the test with Message when the
// response status is Value; "responseSuccessBody" fails it when the JSON body's Key holds Value.
type TestRule struct {
	Type       string             `json:"type"`
	Properties TestRuleProperties `json:"properties"`
}

// TestRuleProperties are a TestRule's parameters.
type TestRuleProperties struct {
	Key     string `json:"key,omitempty"`
	Value   any    `json:"value,omitempty"`
	Message string `json:"message"`
}

// Authenticate is n8n's generic authentication: header and query parameters added to a request.
type Authenticate struct {
	Type       string                 `json:"type"`
	Properties AuthenticateProperties `json:"properties"`
}

// AuthenticateProperties are the headers and query parameters Authenticate adds.
type AuthenticateProperties struct {
	Headers map[string]string `json:"headers,omitempty"`
	QS      map[string]string `json:"qs,omitempty"`
}

var password = map[string]any{"password": true}

// httpRequestDocs is n8n's documentation key of the generic HTTP credential types.
const httpRequestDocs = "httpRequest"

const httpRequestIcon = "node:n8n-nodes-base.httpRequest"

// HTTPRequestNode is the node type that tests the generic credential types (TestedBy).
const HTTPRequestNode = "n8n-nodes-base.httpRequest"

var testedByHTTPRequest = []string{HTTPRequestNode}

// authCodeGrants are the OAuth2 grant types that connect an account in the browser.
var authCodeGrants = []any{"authorizationCode", "pkce"}

// types are every credential type: the generic ones below and each node family's (one file
// per family, types_<family>.go), in a fixed order.
var types = slices.Concat(
	genericTypes,
	imapTypes,
	mailTypes,
	transferTypes,
	webhookTypes,
	postgresTypes,
	mysqlTypes,
	redisTypes,
	rabbitmqTypes,
	mqttTypes,
)

// genericTypes are the credential types the core nodes use, with n8n's definitions (oAuth2Api
// as in n8n 1.x, which added the PKCE grant).
var genericTypes = []*Type{
	{
		Name: "httpBasicAuth", DisplayName: "Basic Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon, TestedBy: testedByHTTPRequest,
		Properties: []Property{
			{DisplayName: "User", Name: "user", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpDigestAuth", DisplayName: "Digest Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon, TestedBy: testedByHTTPRequest,
		Properties: []Property{
			{DisplayName: "User", Name: "user", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpHeaderAuth", DisplayName: "Header Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon, TestedBy: testedByHTTPRequest,
		Properties: []Property{
			{DisplayName: "Name", Name: "name", Type: "string", Default: ""},
			{DisplayName: "Value", Name: "value", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpQueryAuth", DisplayName: "Query Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon, TestedBy: testedByHTTPRequest,
		Properties: []Property{
			{DisplayName: "Name", Name: "name", Type: "string", Default: ""},
			{DisplayName: "Value", Name: "value", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpCustomAuth", DisplayName: "Custom Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon, TestedBy: testedByHTTPRequest,
		Properties: []Property{
			{DisplayName: "JSON", Name: "json", Type: "json", Default: "", Required: true,
				Description: "Use json to specify authentication values for headers, body and qs.",
				Placeholder: `{ "headers": { "key" : "value" }, "body": { "key": "value" }, "qs": { "key": "value" } }`},
		},
	},
	{
		Name: "oAuth1Api", DisplayName: "OAuth1 API", DocumentationURL: httpRequestDocs, GenericAuth: true,
		TestedBy: testedByHTTPRequest,
		Properties: []Property{
			{DisplayName: "Authorization URL", Name: "authUrl", Type: "string", Default: "", Required: true},
			{DisplayName: "Access Token URL", Name: "accessTokenUrl", Type: "string", Default: "", Required: true},
			{DisplayName: "Consumer Key", Name: "consumerKey", Type: "string", Default: "", Required: true},
			{DisplayName: "Consumer Secret", Name: "consumerSecret", Type: "string", TypeOptions: password, Default: "", Required: true},
			{DisplayName: "Request Token URL", Name: "requestTokenUrl", Type: "string", Default: "", Required: true},
			{DisplayName: "Signature Method", Name: "signatureMethod", Type: "options", Default: "", Required: true,
				Options: []Option{{Name: "HMAC-SHA1", Value: "HMAC-SHA1"}, {Name: "HMAC-SHA256", Value: "HMAC-SHA256"}, {Name: "HMAC-SHA512", Value: "HMAC-SHA512"}}},
		},
	},
	{
		Name: "oAuth2Api", DisplayName: "OAuth2 API", DocumentationURL: httpRequestDocs, GenericAuth: true,
		Properties: []Property{
			{DisplayName: "Grant Type", Name: "grantType", Type: "options", Default: "authorizationCode",
				Options: []Option{{Name: "Authorization Code", Value: "authorizationCode"}, {Name: "Client Credentials", Value: "clientCredentials"},
					{Name: "PKCE", Value: "pkce"}}},
			{DisplayName: "Authorization URL", Name: "authUrl", Type: "string", Default: "", Required: true,
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"grantType": authCodeGrants}}},
			{DisplayName: "Access Token URL", Name: "accessTokenUrl", Type: "string", Default: "", Required: true},
			{DisplayName: "Client ID", Name: "clientId", Type: "string", Default: "", Required: true},
			{DisplayName: "Client Secret", Name: "clientSecret", Type: "string", TypeOptions: password, Default: "", Required: true},
			{DisplayName: "Scope", Name: "scope", Type: "string", Default: ""},
			{DisplayName: "Auth URI Query Parameters", Name: "authQueryParameters", Type: "string", Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"grantType": authCodeGrants}},
				Description:    "For some services additional query parameters have to be set which can be defined here",
				Placeholder:    "access_type=offline"},
			{DisplayName: "Authentication", Name: "authentication", Type: "options", Default: "header",
				Options: []Option{
					{Name: "Body", Value: "body", Description: "Send credentials in body"},
					{Name: "Header", Value: "header", Description: "Send credentials as Basic Auth header"},
				}},
		},
	},
	{
		// The TOTP node's secret; nothing to test it against.
		Name: "totpApi", DisplayName: "TOTP API", DocumentationURL: "totp",
		Properties: []Property{
			{DisplayName: "Secret", Name: "secret", Type: "string", TypeOptions: password, Default: "",
				Placeholder: "e.g. BVDRSBXQB2ZEL5HE", Required: true,
				Description: `Secret key encoded in the QR code during setup. <a href="https://github.com/google/google-authenticator/wiki/Key-Uri-Format#secret">Learn more</a>.`},
			{DisplayName: "Label", Name: "label", Type: "string", Default: "", Placeholder: "e.g. GitHub:john-doe",
				Description: `Identifier for the TOTP account, in the <code>issuer:username</code> format. <a href="https://github.com/google/google-authenticator/wiki/Key-Uri-Format#label">Learn more</a>.`},
		},
	},
}

// Lookup returns the credential type called name, or false when there is none.
func Lookup(name string) (*Type, bool) {
	i := slices.IndexFunc(types, func(t *Type) bool { return t.Name == name })
	if i < 0 {
		return nil, false
	}
	return types[i], true
}

// extraTypes are the names of the types RegisterExtra added.
var extraTypes = map[string]bool{}

// RegisterExtra adds credential types loaded at start (custom node packages). A name taken by a
// built-in type is an error; registering an added name again replaces it. Call it before the
// process serves anything: the list is not guarded for concurrent use.
func RegisterExtra(extra ...*Type) error {
	for _, t := range extra {
		i := slices.IndexFunc(types, func(have *Type) bool { return have.Name == t.Name })
		switch {
		case i < 0:
			types = append(types, t)
			extraTypes[t.Name] = true
		case extraTypes[t.Name]:
			types[i] = t
		default:
			return fmt.Errorf("credential type %q conflicts with a built-in credential type", t.Name)
		}
	}
	return nil
}

// IsExtra reports whether RegisterExtra added the type called name.
func IsExtra(name string) bool { return extraTypes[name] }

// Types returns every credential type, in a fixed order. Callers must not modify them.
func Types() []*Type { return slices.Clone(types) }

// AllProperties is the type's properties with those of the types it extends, parents first; a
// property of the type replaces a parent's of the same name. Unknown parents are skipped.
func (t *Type) AllProperties() []Property {
	var out []Property
	for _, parent := range t.Extends {
		if p, ok := Lookup(parent); ok && p != t {
			out = mergeProperties(out, p.AllProperties())
		}
	}
	return mergeProperties(out, t.Properties)
}

func mergeProperties(base, over []Property) []Property {
	out := slices.Clone(base)
	for _, p := range over {
		if i := slices.IndexFunc(out, func(q Property) bool { return q.Name == p.Name }); i >= 0 {
			out[i] = p
		} else {
			out = append(out, p)
		}
	}
	return out
}

// Is tells whether the type is name or extends it, directly or through its parents.
func (t *Type) Is(name string) bool {
	if t.Name == name {
		return true
	}
	for _, parent := range t.Extends {
		if p, ok := Lookup(parent); ok && p != t && p.Is(name) {
			return true
		}
	}
	return false
}

// OAuth tells whether the type's credentials hold OAuth token data (oauthTokenData): OAuth1 and
// OAuth2 types and those that extend them.
func (t *Type) OAuth() bool { return t.Is("oAuth1Api") || t.Is("oAuth2Api") }
