package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/store"
)

// credentialRequest is the body of POST /api/v1/credentials.
type credentialRequest struct {
	Name string         `json:"name"`
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

// credentialResponse is a credential as the public API answers it: never with its data.
type credentialResponse struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Type      string    `json:"type"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func toCredentialResponse(c *store.Credential) credentialResponse {
	return credentialResponse{ID: c.ID, Name: c.Name, Type: c.Type, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
}

// apiCreateCredential stores a credential owned by the key's user, its data checked against the
// type's schema and encrypted.
func (s *server) apiCreateCredential(c fiber.Ctx) error {
	var req credentialRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("request/body " + err.Error())
	}
	typ, ok := credential.Lookup(req.Type)
	if !ok {
		return badRequest(fmt.Sprintf("request/body/type %q is not a known credential type", req.Type))
	}
	if err := typ.Validate(req.Data); err != nil {
		return badRequest(dataErrorMessage(err))
	}
	sealed, err := s.credentials.Encrypt(req.Data)
	if err != nil {
		return err
	}
	// n8n's public API grants access to a node type named after the credential type.
	access, err := json.Marshal([]map[string]any{{"nodeType": "n8n-nodes-base." + strings.ToLower(req.Type), "date": time.Now().UTC()}})
	if err != nil {
		return err
	}
	cred := &store.Credential{Name: req.Name, Type: req.Type, Data: sealed, NodesAccess: access}
	if err := s.in.Store.CreateCredential(c.Context(), cred, apiUser(c).ID); err != nil {
		if errors.Is(err, store.ErrInvalid) {
			return badRequest(fmt.Sprintf("request/body/name must have 1 to %d characters", store.CredentialNameMaxLength))
		}
		return err
	}
	return c.JSON(toCredentialResponse(cred))
}

// dataErrorMessage places a schema fault of the credential data in the request, as the
// document's validation failures are placed.
func dataErrorMessage(err error) string {
	var de *credential.DataError
	if errors.As(err, &de) && de.Field != "" {
		return "request/body/data/" + de.Field + " " + de.Reason
	}
	return "request/body/data " + err.Error()
}

// apiDeleteCredential deletes a credential the key's user owns (the instance owner: any) and
// answers it without its data.
func (s *server) apiDeleteCredential(c fiber.Ctx) error {
	id := c.Params("id")
	cred, err := s.in.Store.DeleteCredential(c.Context(), apiUser(c), id)
	if errors.Is(err, store.ErrNotFound) {
		return notFound(fmt.Sprintf("Credential with ID %q could not be found", id))
	}
	if err != nil {
		return err
	}
	return c.JSON(toCredentialResponse(cred))
}

// apiGetCredentialSchema answers the JSON Schema of a credential type's data.
func (s *server) apiGetCredentialSchema(c fiber.Ctx) error {
	name := c.Params("credentialTypeName")
	typ, ok := credential.Lookup(name)
	if !ok {
		return notFound(fmt.Sprintf("Credential type %q could not be found", name))
	}
	return c.JSON(typ.JSONSchema())
}
