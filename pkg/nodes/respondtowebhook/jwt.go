package respondtowebhook

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/golang-jwt/jwt/v5"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// signJWT signs the node's payload with its jwtAuth credential, adding the issue time (iat) as
// n8n's JWT library does; the payload keeps its field order.
func signJWT(ctx context.Context, ex *nodes.Execution) (string, error) {
	fail := func(err error) (string, error) {
		return "", &nodes.Error{Message: "Error signing JWT token", Description: err.Error(), ItemIndex: -1, Cause: err}
	}
	cred, err := ex.Credentials(ctx, "jwtAuth")
	if err != nil {
		return fail(err)
	}
	str := func(k string) string { v, _ := cred[k].(string); return v }
	raw, err := ex.Param("payload", 0)
	if err != nil {
		return "", err
	}
	var payload *workflow.Object
	switch v := raw.(type) {
	case string:
		d, err := workflow.DecodeJSONValue([]byte(cmpOr(v, "{}")))
		if err != nil {
			return fail(err)
		}
		payload, _ = d.(*workflow.Object)
	default:
		b, _ := json.Marshal(v)
		d, _ := workflow.DecodeJSONValue(b)
		payload, _ = d.(*workflow.Object)
	}
	if payload == nil {
		return fail(errNotObject)
	}
	payload = payload.Clone()
	if !payload.Has("iat") {
		payload.Set("iat", float64(ex.Now().Unix()))
	}
	alg := cmpOr(str("algorithm"), "HS256")
	method := jwt.GetSigningMethod(alg)
	if method == nil {
		return fail(errAlgorithm)
	}
	var key any = []byte(str("secret"))
	if str("keyType") == "pemKey" {
		pem := []byte(webhook.PEMKey(str("privateKey")))
		switch {
		case strings.HasPrefix(alg, "RS"), strings.HasPrefix(alg, "PS"):
			key, err = jwt.ParseRSAPrivateKeyFromPEM(pem)
		case strings.HasPrefix(alg, "ES"):
			key, err = jwt.ParseECPrivateKeyFromPEM(pem)
		}
		if err != nil {
			return fail(err)
		}
	}
	if alg == "none" {
		key = jwt.UnsafeAllowNoneSignatureType
	}
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	body, err := json.Marshal(payload)
	if err != nil {
		return fail(err)
	}
	signing := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(body)
	sig, err := method.Sign(signing, key)
	if err != nil {
		return fail(err)
	}
	return signing + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

type signError string

func (e signError) Error() string { return string(e) }

const (
	errNotObject = signError("The payload must be a JSON object")
	errAlgorithm = signError("invalid algorithm")
)

func cmpOr(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}
