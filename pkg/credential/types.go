// Package credential holds the credential types nodes authenticate with, the encryption of
// credential data at rest, the JSON Schema of each type's data, and the lookup that hands
// decrypted data to nodes during a run.
package credential

import "slices"

// Type describes one kind of credential: its name as nodes reference it, and the properties its
// data holds. The JSON field names are n8n's, so the editor can show the same forms.
type Type struct {
	Name        string `json:"name"`
	DisplayName string `json:"displayName"`
	// DocumentationURL is n8n's documentation key for the type; empty when n8n has none.
	DocumentationURL string `json:"documentationUrl,omitempty"`
	// GenericAuth marks types HTTP Request offers under "Generic Credential Type".
	GenericAuth bool `json:"genericAuth,omitempty"`
	// Icon is an icon reference such as "node:n8n-nodes-base.httpRequest".
	Icon       string     `json:"icon,omitempty"`
	Properties []Property `json:"properties"`
}

// Property is one field of a credential's data.
type Property struct {
	DisplayName string `json:"displayName"`
	Name        string `json:"name"`
	// Type is string, number, boolean, options or hidden.
	Type    string `json:"type"`
	Default any    `json:"default"`
	// Required is n8n's flag for the editor form; the public API's schema requires every shown
	// property regardless (see JSONSchema).
	Required       bool            `json:"required,omitempty"`
	TypeOptions    map[string]any  `json:"typeOptions,omitempty"`
	Options        []Option        `json:"options,omitempty"`
	DisplayOptions *DisplayOptions `json:"displayOptions,omitempty"`
	Description    string          `json:"description,omitempty"`
	Placeholder    string          `json:"placeholder,omitempty"`
}

// Option is one choice of an options property.
type Option struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	Description string `json:"description,omitempty"`
}

// DisplayOptions shows a property only while other properties hold one of the listed values.
type DisplayOptions struct {
	Show map[string][]any `json:"show,omitempty"`
}

var password = map[string]any{"password": true}

// httpRequestDocs is n8n's documentation key of the generic HTTP credential types.
const httpRequestDocs = "httpRequest"

const httpRequestIcon = "node:n8n-nodes-base.httpRequest"

// types are the credential types the core nodes use, with n8n 0.186's definitions.
var types = []*Type{
	{
		Name: "httpBasicAuth", DisplayName: "Basic Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon,
		Properties: []Property{
			{DisplayName: "User", Name: "user", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpDigestAuth", DisplayName: "Digest Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon,
		Properties: []Property{
			{DisplayName: "User", Name: "user", Type: "string", Default: ""},
			{DisplayName: "Password", Name: "password", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpHeaderAuth", DisplayName: "Header Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon,
		Properties: []Property{
			{DisplayName: "Name", Name: "name", Type: "string", Default: ""},
			{DisplayName: "Value", Name: "value", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "httpQueryAuth", DisplayName: "Query Auth", DocumentationURL: httpRequestDocs,
		GenericAuth: true, Icon: httpRequestIcon,
		Properties: []Property{
			{DisplayName: "Name", Name: "name", Type: "string", Default: ""},
			{DisplayName: "Value", Name: "value", Type: "string", TypeOptions: password, Default: ""},
		},
	},
	{
		Name: "oAuth1Api", DisplayName: "OAuth1 API", DocumentationURL: httpRequestDocs, GenericAuth: true,
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
				Options: []Option{{Name: "Authorization Code", Value: "authorizationCode"}, {Name: "Client Credentials", Value: "clientCredentials"}, {Name: "PKCE", Value: "pkce"}}},
			{DisplayName: "Authorization URL", Name: "authUrl", Type: "string", Default: "", Required: true,
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"grantType": {"authorizationCode", "pkce"}}}},
			{DisplayName: "Access Token URL", Name: "accessTokenUrl", Type: "string", Default: "", Required: true},
			{DisplayName: "Client ID", Name: "clientId", Type: "string", Default: "", Required: true},
			{DisplayName: "Client Secret", Name: "clientSecret", Type: "string", TypeOptions: password, Default: "", Required: true},
			{DisplayName: "Scope", Name: "scope", Type: "string", Default: ""},
			{DisplayName: "Auth URI Query Parameters", Name: "authQueryParameters", Type: "string", Default: "",
				DisplayOptions: &DisplayOptions{Show: map[string][]any{"grantType": {"authorizationCode", "pkce"}}},
				Description:    "For some services additional query parameters have to be set which can be defined here",
				Placeholder:    "access_type=offline"},
			{DisplayName: "Authentication", Name: "authentication", Type: "options", Default: "header",
				Options: []Option{
					{Name: "Body", Value: "body", Description: "Send credentials in body"},
					{Name: "Header", Value: "header", Description: "Send credentials as Basic Auth header"},
				}},
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

// Types returns every credential type, in a fixed order. Callers must not modify them.
func Types() []*Type { return slices.Clone(types) }
