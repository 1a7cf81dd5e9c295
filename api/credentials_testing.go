package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/store"
)

// credentialTestBody is the body of POST /rest/credentials/test.
type credentialTestBody struct {
	Credentials *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	} `json:"credentials"`
	NodeToTestWith string `json:"nodeToTestWith"`
	// TestRequest is the request of the node the editor opened the credential from (the HTTP
	// Request node's URL), which tests the generic types.
	TestRequest *struct {
		URL    string `json:"url"`
		Method string `json:"method"`
	} `json:"testRequest"`
}

// postCredentialTest tests credential data with a real request made through the egress policy
// and answers {status: "OK"|"Error", message}. Redacted secrets are filled from the stored
// credential named by id, when the caller may see it.
func (s *server) postCredentialTest(c fiber.Ctx) error {
	var body credentialTestBody
	if err := json.Unmarshal(c.Body(), &body); err != nil {
		return badRequest("The body must be a JSON object with credentials: " + err.Error())
	}
	if body.Credentials == nil {
		return badRequest("credentials is required: {id?, name, type, data}")
	}
	in := body.Credentials
	typ, ok := credential.Lookup(in.Type)
	if !ok {
		return badRequest(fmt.Sprintf("credentials.type %q is not a known credential type", in.Type))
	}
	data, err := parseCredentialData(in.Data)
	if err != nil {
		return badRequest("credentials." + err.Error())
	}
	var stored map[string]any
	if in.ID != "" {
		cred, err := s.in.Store.GetCredentialFor(c.Context(), sessionUser(c), in.ID)
		if errors.Is(err, store.ErrNotFound) {
			return credentialNotFound(in.ID)
		} else if err != nil {
			return err
		}
		if cred.Type != typ.Name {
			return badRequest(fmt.Sprintf("credentials.type must be the stored credential's type %q", cred.Type))
		}
		if stored, err = s.credentials.Decrypt(cred.Data); err != nil {
			return err
		}
	}
	data = credential.KeepSecrets(data, stored)
	// Any member can test, and reads what the address answered: the strict profile, as for
	// importing from a URL (no loopback or private addresses unless FLOWMILL_EGRESS_ALLOW names them).
	client := s.cfg.Egress().Strict().Client(egress.Options{Timeout: credential.TestTimeout})
	defer client.CloseIdleConnections()
	testIn := credential.TestInput{Client: client}
	if body.TestRequest != nil {
		testIn.URL, testIn.Method = strings.TrimSpace(body.TestRequest.URL), body.TestRequest.Method
	}
	return respond(c, typ.TestCredential(c.Context(), data, testIn))
}

// getCredentialIcon serves a credential type's icon file. The types here show their node's icon
// ("node:" icons), which the editor loads from /rest/node-icon; none has a file of its own.
func (s *server) getCredentialIcon(c fiber.Ctx) error {
	name := c.Params("name")
	typ, ok := credential.Lookup(name)
	if !ok {
		return notFound(fmt.Sprintf("The credential type %q does not exist", name))
	}
	return notFound(fmt.Sprintf("The credential type %q has no icon file", typ.Name))
}

// getCredentialTranslation answers a credential type's translation for the request's locale:
// null, as Flowmill ships no credential translations (the editor then shows the type's own texts).
func (s *server) getCredentialTranslation(c fiber.Ctx) error {
	name := c.Query("credentialType")
	if name == "" {
		return badRequest("The query parameter credentialType is required")
	}
	if _, ok := credential.Lookup(name); !ok {
		return notFound(fmt.Sprintf("The credential type %q does not exist", name))
	}
	return respond(c, nil)
}
