package httprequest

import (
	"context"
	"errors"

	"github.com/flowmill/flowmill/pkg/httpauth"
	"github.com/flowmill/flowmill/pkg/nodes"
)

// credentialTypes maps version 1's authentication values to credential types.
var credentialTypes = map[string]string{
	"basicAuth": "httpBasicAuth", "digestAuth": "httpDigestAuth", "headerAuth": "httpHeaderAuth",
	"queryAuth": "httpQueryAuth", "oAuth1": "oAuth1Api", "oAuth2": "oAuth2Api",
}

// loadAuth fetches the credentials the node's authentication parameters select. As in n8n, a
// node without a credential of the chosen type sends the request unauthenticated.
func loadAuth(ctx context.Context, ex *nodes.Execution) (*httpauth.Auth, error) {
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
	return CredentialAuth(ctx, ex, credType)
}

// CredentialAuth fetches the node's credential of credType for httpauth: the generic types
// (basic, digest, header, query, custom, OAuth1, OAuth2) and service credentials that hold OAuth
// token data. A node without a credential of that type (or an empty credType) sends its
// requests unauthenticated, as in n8n. OAuth2 credentials get refreshed when their token is
// refused.
func CredentialAuth(ctx context.Context, ex *nodes.Execution, credType string) (*httpauth.Auth, error) {
	if credType == "" {
		return &httpauth.Auth{}, nil
	}
	if _, selected := ex.Node().Credentials[credType]; !selected {
		return &httpauth.Auth{}, nil
	}
	data, err := ex.Credentials(ctx, credType)
	if err != nil {
		return nil, &nodes.Error{Message: err.Error(), ItemIndex: -1, Cause: err}
	}
	kind, ok := httpauth.KindOf(credType)
	if !ok {
		// Predefined service credentials are applied by their OAuth token data when they have it.
		switch token, _ := data["oauthTokenData"].(map[string]any); {
		case token["access_token"] != nil:
			kind = httpauth.OAuth2
		case token["oauth_token"] != nil:
			kind = httpauth.OAuth1
		default:
			return nil, nodes.Errorf(-1, "The credential type %q can not be used by this node yet", credType)
		}
	}
	a := &httpauth.Auth{Kind: kind, Data: data}
	if kind == httpauth.OAuth2 {
		a.Refresh = func(ctx context.Context, refused string) (map[string]any, error) {
			return ex.RefreshedCredentials(ctx, credType, refused)
		}
	}
	return a, nil
}

// applyAuth adds what does not depend on the final request: header, query and custom
// credentials' parameters.
func applyAuth(a *httpauth.Auth, r *request) error {
	headers, qs, err := a.Params()
	if errors.Is(err, httpauth.ErrNotConnected) {
		return nodes.Errorf(-1, "OAuth credentials not connected")
	}
	if err != nil {
		return nodes.Errorf(-1, "%s", err.Error())
	}
	for _, h := range headers {
		r.headers.set(h.Name, h.Value)
	}
	for _, q := range qs {
		r.qs.set(q.Name, q.Value)
	}
	return nil
}
