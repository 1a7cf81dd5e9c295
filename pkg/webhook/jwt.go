package webhook

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"github.com/golang-jwt/jwt/v5"

	"github.com/flowmill/flowmill/pkg/nodes"
	webhooknode "github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// authenticateJWT checks the bearer token of a call against the node's jwtAuth credential, as
// n8n's Webhook node does, and returns the token's payload (the item's jwtPayload).
func authenticateJWT(ctx context.Context, r *http.Request, node *workflow.Node, creds nodes.CredentialsFunc) (*workflow.Object, error) {
	noData := &Error{Kind: NoAuthData, Message: msgNoAuthData}
	ref, ok := nodes.SelectedCredential(node, "jwtAuth")
	if !ok || creds == nil {
		return nil, noData
	}
	data, err := creds(ctx, ref)
	if err != nil {
		noData.cause = err
		return nil, noData
	}
	str := func(k string) string { v, _ := data[k].(string); return v }
	_, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token = strings.TrimSpace(token); token == "" {
		return nil, &Error{Kind: Unauthorized, Message: "No token provided"}
	}
	alg := str("algorithm")
	if alg == "" {
		alg = "HS256"
	}
	key := func(t *jwt.Token) (any, error) {
		if str("keyType") != "pemKey" {
			return []byte(str("secret")), nil
		}
		pem := []byte(webhooknode.PEMKey(str("publicKey")))
		switch {
		case strings.HasPrefix(alg, "RS"), strings.HasPrefix(alg, "PS"):
			return jwt.ParseRSAPublicKeyFromPEM(pem)
		case strings.HasPrefix(alg, "ES"):
			return jwt.ParseECPublicKeyFromPEM(pem)
		}
		return nil, errors.New("invalid algorithm")
	}
	if _, err := jwt.Parse(token, key, jwt.WithValidMethods([]string{alg})); err != nil {
		return nil, &Error{Kind: Forbidden, Message: jwtMessage(err), cause: err}
	}
	parts := strings.Split(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return nil, &Error{Kind: Forbidden, Message: "jwt malformed", cause: err}
	}
	v, err := workflow.DecodeJSONValue(raw)
	if err != nil {
		return nil, &Error{Kind: Forbidden, Message: "jwt malformed", cause: err}
	}
	payload, _ := v.(*workflow.Object)
	if payload == nil {
		payload = workflow.NewObject(0)
	}
	return payload, nil
}

// jwtMessage is the text n8n's JWT library gives for a token it refuses.
func jwtMessage(err error) string {
	switch {
	case errors.Is(err, jwt.ErrTokenMalformed):
		return "jwt malformed"
	case errors.Is(err, jwt.ErrTokenExpired):
		return "jwt expired"
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return "jwt not active"
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		if strings.Contains(err.Error(), "signing method") {
			return "invalid algorithm"
		}
		return "invalid signature"
	}
	return err.Error()
}
