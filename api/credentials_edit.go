package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/store"
)

// credentialNameMaxLength is the longest credential name REST accepts, in characters: the
// editor's limit (the store allows more for names the public API writes).
const credentialNameMaxLength = 64

// defaultCredentialName is GET /rest/credentials/new's name when the query has none, as n8n's.
const defaultCredentialName = "My credentials"

// credentialBody is the body of POST and PATCH /rest/credentials. Fields left out of a PATCH
// keep their stored values.
type credentialBody struct {
	Name        *string         `json:"name"`
	Type        *string         `json:"type"`
	NodesAccess json.RawMessage `json:"nodesAccess"`
	Data        json.RawMessage `json:"data"`
}

// credentialDetail is GET /rest/credentials/:id's answer: the list item, with the data
// (secrets redacted) when asked for and allowed.
type credentialDetail struct {
	credentialListItem
	Data map[string]any `json:"data,omitempty"`
}

// nodeAccess is one entry of a credential's nodesAccess.
type nodeAccess struct {
	NodeType string `json:"nodeType"`
	Date     any    `json:"date,omitempty"`
}

func credentialNotFound(id string) error {
	return notFound(fmt.Sprintf("Credential with ID %q could not be found.", id))
}

func toCredentialListItem(cred *store.Credential) credentialListItem {
	access := json.RawMessage(cred.NodesAccess)
	if len(access) == 0 || string(access) == "null" {
		access = json.RawMessage(`[]`)
	}
	return credentialListItem{ID: cred.ID, Name: cred.Name, Type: cred.Type, NodesAccess: access,
		CreatedAt: cred.CreatedAt, UpdatedAt: cred.UpdatedAt}
}

// getNewCredentialName proposes a name for a new credential: the query name (default "My
// credentials"), numbered when one of the caller's credentials carries it.
func (s *server) getNewCredentialName(c fiber.Ctx) error {
	base := strings.TrimSpace(c.Query("name"))
	if base == "" {
		base = defaultCredentialName
	}
	if runes := []rune(base); len(runes) > credentialNameMaxLength {
		base = strings.TrimSpace(string(runes[:credentialNameMaxLength]))
	}
	name, err := s.in.Store.UniqueCredentialName(c.Context(), sessionUser(c), base, credentialNameMaxLength)
	if err != nil {
		return err
	}
	return respond(c, fiber.Map{"name": name})
}

// getCredential answers a credential the caller may see; with includeData=true also its data,
// secrets redacted, to the user who owns it.
func (s *server) getCredential(c fiber.Ctx) error {
	id := c.Params("id")
	u := sessionUser(c)
	cred, err := s.in.Store.GetCredentialFor(c.Context(), u, id)
	if errors.Is(err, store.ErrNotFound) {
		return credentialNotFound(id)
	} else if err != nil {
		return err
	}
	out := credentialDetail{credentialListItem: toCredentialListItem(cred)}
	if c.Query("includeData") != "true" {
		return respond(c, out)
	}
	role, err := s.in.Store.CredentialRole(c.Context(), id, u.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if role != store.CredentialRoleOwner {
		return &apiError{Status: http.StatusForbidden, Message: "Only the owner of the credential can see its data"}
	}
	data, err := s.credentials.Decrypt(cred.Data)
	if err != nil {
		return err
	}
	out.Data = map[string]any{}
	if typ, ok := credential.Lookup(cred.Type); ok {
		out.Data = typ.Redact(data)
	}
	return respond(c, out)
}

// decodeCredentialBody reads a POST or PATCH body.
func decodeCredentialBody(c fiber.Ctx) (*credentialBody, error) {
	var body credentialBody
	if err := json.Unmarshal(c.Body(), &body); err != nil {
		return nil, badRequest("The body must be a JSON object with name, type, nodesAccess and data: " + err.Error())
	}
	return &body, nil
}

// checkCredentialName trims a name and checks its length.
func checkCredentialName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n < 1 || n > credentialNameMaxLength {
		return "", badRequest(fmt.Sprintf("name must have 1 to %d characters", credentialNameMaxLength))
	}
	return name, nil
}

// parseNodesAccess checks nodesAccess is a list of {nodeType: string} and dates the entries that
// have no date, as n8n does.
func parseNodesAccess(raw json.RawMessage) (store.JSON, error) {
	if !given(raw) {
		return store.JSON("[]"), nil
	}
	var entries []map[string]any
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, badRequest("nodesAccess must be a list of objects such as {\"nodeType\": \"n8n-nodes-base.httpRequest\"}")
	}
	out := make([]nodeAccess, len(entries))
	for i, e := range entries {
		nodeType, ok := e["nodeType"].(string)
		if !ok || nodeType == "" {
			return nil, badRequest(fmt.Sprintf("nodesAccess[%d].nodeType must be a non-empty string", i))
		}
		out[i] = nodeAccess{NodeType: nodeType, Date: e["date"]}
		if out[i].Date == nil {
			out[i].Date = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
		}
	}
	b, err := json.Marshal(out)
	return store.JSON(b), err
}

// parseCredentialData reads data as an object; absent is empty.
func parseCredentialData(raw json.RawMessage) (map[string]any, error) {
	if !given(raw) {
		return map[string]any{}, nil
	}
	var data map[string]any
	if err := json.Unmarshal(raw, &data); err != nil || data == nil {
		return nil, badRequest("data must be an object of the credential type's properties")
	}
	return data, nil
}

// checkCredentialData checks data against the type, the fault named as data.<property>.
func checkCredentialData(typ *credential.Type, data map[string]any) error {
	err := typ.CheckData(data)
	var de *credential.DataError
	if errors.As(err, &de) {
		return badRequest("data." + de.Field + " " + de.Reason)
	}
	return err
}

// postCredential stores a new credential owned by the caller, its data checked and encrypted,
// and answers it without the data.
func (s *server) postCredential(c fiber.Ctx) error {
	body, err := decodeCredentialBody(c)
	if err != nil {
		return err
	}
	if body.Name == nil {
		return badRequest(fmt.Sprintf("name must have 1 to %d characters", credentialNameMaxLength))
	}
	name, err := checkCredentialName(*body.Name)
	if err != nil {
		return err
	}
	if body.Type == nil {
		return badRequest("type is required")
	}
	typ, ok := credential.Lookup(*body.Type)
	if !ok {
		return badRequest(fmt.Sprintf("type %q is not a known credential type", *body.Type))
	}
	access, err := parseNodesAccess(body.NodesAccess)
	if err != nil {
		return err
	}
	data, err := parseCredentialData(body.Data)
	if err != nil {
		return err
	}
	data = credential.KeepSecrets(data, nil)
	if err := checkCredentialData(typ, data); err != nil {
		return err
	}
	sealed, err := s.credentials.Encrypt(data)
	if err != nil {
		return err
	}
	cred := &store.Credential{Name: name, Type: typ.Name, Data: sealed, NodesAccess: access}
	if err := s.in.Store.CreateCredential(c.Context(), cred, sessionUser(c).ID); err != nil {
		return err
	}
	return respond(c, toCredentialListItem(cred))
}

// patchCredential changes a credential the caller owns (the instance owner: any): name, data and
// nodesAccess. Secrets sent back redacted and the OAuth token data keep their stored values.
func (s *server) patchCredential(c fiber.Ctx) error {
	id := c.Params("id")
	body, err := decodeCredentialBody(c)
	if err != nil {
		return err
	}
	var name string
	if body.Name != nil {
		if name, err = checkCredentialName(*body.Name); err != nil {
			return err
		}
	}
	var access store.JSON
	if given(body.NodesAccess) {
		if access, err = parseNodesAccess(body.NodesAccess); err != nil {
			return err
		}
	}
	var data map[string]any
	if given(body.Data) {
		if data, err = parseCredentialData(body.Data); err != nil {
			return err
		}
	}
	cred, err := s.in.Store.UpdateCredential(c.Context(), sessionUser(c), id, func(cred *store.Credential) error {
		if body.Type != nil && *body.Type != cred.Type {
			return badRequest(fmt.Sprintf("type cannot be changed: the credential is of type %q", cred.Type))
		}
		if body.Name != nil {
			cred.Name = name
		}
		if access != nil {
			cred.NodesAccess = access
		}
		if data == nil {
			return nil
		}
		typ, ok := credential.Lookup(cred.Type)
		if !ok {
			return badRequest(fmt.Sprintf("the credential's type %q is not known to this version", cred.Type))
		}
		stored, err := s.credentials.Decrypt(cred.Data)
		if err != nil {
			return err
		}
		merged := credential.KeepSecrets(data, stored)
		if err := checkCredentialData(typ, merged); err != nil {
			return err
		}
		cred.Data, err = s.credentials.Encrypt(merged)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return credentialNotFound(id)
	} else if err != nil {
		return err
	}
	return respond(c, toCredentialListItem(cred))
}

// deleteCredential deletes a credential the caller owns (the instance owner: any). Workflows
// that use it fail when they next run, as in n8n.
func (s *server) deleteCredential(c fiber.Ctx) error {
	id := c.Params("id")
	_, err := s.in.Store.DeleteCredential(c.Context(), sessionUser(c), id)
	if errors.Is(err, store.ErrNotFound) {
		return credentialNotFound(id)
	} else if err != nil {
		return err
	}
	return respond(c, true)
}
