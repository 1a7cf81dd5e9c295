package webhook

import (
	"context"
	"net/http"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Texts n8n answers failed webhook authentication with.
const (
	msgAuthRequired = "Authorization is required!"
	msgAuthWrong    = "Authorization data is wrong!"
	msgNoAuthData   = "No authentication data defined on node!"
)

// authenticate checks the caller against the node's basic, header or JWT authentication, using
// the credentials of the user the run acts for (creds). It returns the payload of a JWT caller.
func authenticate(ctx context.Context, r *http.Request, hook trigger.Webhook, node *workflow.Node, creds nodes.CredentialsFunc) (*workflow.Object, error) {
	if hook.Authentication == "jwtAuth" {
		return authenticateJWT(ctx, r, node, creds)
	}
	return nil, authenticateFixed(ctx, r, hook, node, creds)
}

// authenticateFixed checks a caller against basic or header authentication; nil when the node
// asks for none.
func authenticateFixed(ctx context.Context, r *http.Request, hook trigger.Webhook, node *workflow.Node, creds nodes.CredentialsFunc) error {
	var credType string
	switch hook.Authentication {
	case "basicAuth":
		credType = "httpBasicAuth"
	case "headerAuth":
		credType = "httpHeaderAuth"
	case "", "none":
		return nil
	default:
		// An authentication this runtime cannot check lets nobody in.
		return &Error{Kind: NoAuthData, Message: msgNoAuthData}
	}
	noData := &Error{Kind: NoAuthData, Message: msgNoAuthData}
	ref, ok := nodes.SelectedCredential(node, credType)
	if !ok || creds == nil {
		return noData
	}
	data, err := creds(ctx, ref)
	if err != nil {
		noData.cause = err
		return noData
	}
	str := func(k string) string { v, _ := data[k].(string); return v }
	if credType == "httpBasicAuth" {
		if str("user") == "" || str("password") == "" {
			return noData
		}
		user, pass, ok := r.BasicAuth()
		if !ok {
			return &Error{Kind: Unauthorized, Message: msgAuthRequired}
		}
		if user != str("user") || pass != str("password") {
			return &Error{Kind: Forbidden, Message: msgAuthWrong}
		}
		return nil
	}
	if str("name") == "" || str("value") == "" {
		return noData
	}
	if r.Header.Get(str("name")) != str("value") {
		return &Error{Kind: Forbidden, Message: msgAuthWrong}
	}
	return nil
}
