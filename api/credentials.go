package main

import (
	"encoding/json"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/store"
)

// credentialListItem is a credential as GET /rest/credentials lists it: never with its data.
type credentialListItem struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	NodesAccess json.RawMessage `json:"nodesAccess"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
}

// credentialsFilter is the `filter` query of GET /rest/credentials.
type credentialsFilter struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// getCredentials lists the credentials the caller may see (the owner: all), by name, optionally
// only those of one type or name.
func (s *server) getCredentials(c fiber.Ctx) error {
	var f credentialsFilter
	if raw := c.Query("filter"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &f); err != nil {
			return badRequest("The filter must be a JSON object such as {\"type\":\"httpBasicAuth\"}: " + err.Error())
		}
	}
	list, err := s.in.Store.ListCredentials(c.Context(), sessionUser(c), store.CredentialFilter{Type: f.Type, Name: f.Name})
	if err != nil {
		return err
	}
	out := make([]credentialListItem, len(list))
	for i := range list {
		out[i] = toCredentialListItem(&list[i])
	}
	return respond(c, out)
}

// getCredentialTypes lists every credential type with its properties, as the editor's credential
// selects and forms need them (n8n's GET /rest/credential-types).
func (s *server) getCredentialTypes(c fiber.Ctx) error {
	return respond(c, credential.Types())
}
