package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// defaultWorkflowName is the name GET /rest/workflows/new starts from.
const defaultWorkflowName = "My workflow"

// workflowSummary is a workflow in lists: no document.
type workflowSummary struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	Tags      []tagRef  `json:"tags"`
}

// workflowResponse is a whole workflow. The document fields are sent as they were saved.
type workflowResponse struct {
	workflowSummary
	Nodes       json.RawMessage `json:"nodes"`
	Connections json.RawMessage `json:"connections"`
	Settings    json.RawMessage `json:"settings"`
	StaticData  json.RawMessage `json:"staticData"`
	PinData     json.RawMessage `json:"pinData"`
	VersionID   string          `json:"versionId"`
}

// newWorkflowResponse is the answer of GET /rest/workflows/new.
type newWorkflowResponse struct {
	Name                  string `json:"name"`
	OnboardingFlowEnabled bool   `json:"onboardingFlowEnabled"`
}

// workflowFilter is the `filter` query of GET /rest/workflows.
type workflowFilter struct {
	Name   string   `json:"name"`
	Active *bool    `json:"active"`
	Tags   []string `json:"tags"`
}

// workflowRequest is the body of POST /rest/workflows and PATCH /rest/workflows/:id. Every field
// is kept raw so that a field of the wrong type gets a message naming it; on PATCH an absent
// field is left as it is.
type workflowRequest struct {
	Name        json.RawMessage `json:"name"`
	Active      json.RawMessage `json:"active"`
	Nodes       json.RawMessage `json:"nodes"`
	Connections json.RawMessage `json:"connections"`
	Settings    json.RawMessage `json:"settings"`
	StaticData  json.RawMessage `json:"staticData"`
	PinData     json.RawMessage `json:"pinData"`
	Tags        json.RawMessage `json:"tags"`
}

func toWorkflowSummary(w *store.Workflow) workflowSummary {
	return workflowSummary{ID: w.ID, Name: w.Name, Active: w.Active,
		CreatedAt: w.CreatedAt.UTC(), UpdatedAt: w.UpdatedAt.UTC(), Tags: toTagRefs(w.Tags)}
}

func toWorkflowResponse(w *store.Workflow) workflowResponse {
	raw := func(j store.JSON) json.RawMessage {
		if len(j) == 0 {
			return json.RawMessage("null")
		}
		return json.RawMessage(j)
	}
	return workflowResponse{workflowSummary: toWorkflowSummary(w),
		Nodes: raw(w.Nodes), Connections: raw(w.Connections), Settings: raw(w.Settings),
		StaticData: raw(w.StaticData), PinData: raw(w.PinData), VersionID: w.VersionID}
}

// getWorkflows lists the workflows the caller may see, most recently updated first. The optional
// query `filter` is a JSON object: name (part of the name, any case), active (true or false) and
// tags (tag ids, all of which a workflow must carry).
func (s *server) getWorkflows(c fiber.Ctx) error {
	var f workflowFilter
	if raw := c.Query("filter"); raw != "" {
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return badRequest("The query parameter filter must be a JSON object with name, active or tags: " + err.Error())
		}
	}
	list, err := s.in.Store.ListWorkflows(c.Context(), sessionUser(c),
		store.WorkflowFilter{Name: f.Name, Active: f.Active, TagIDs: f.Tags})
	if err != nil {
		return err
	}
	out := make([]workflowSummary, len(list))
	for i := range list {
		out[i] = toWorkflowSummary(&list[i])
	}
	return respond(c, out)
}

// getNewWorkflow proposes a free name for a new workflow: the query name (default "My workflow"),
// numbered when taken. The onboarding flow (a welcome sticky note) is not offered.
func (s *server) getNewWorkflow(c fiber.Ctx) error {
	base := strings.TrimSpace(c.Query("name"))
	if base == "" {
		base = defaultWorkflowName
	}
	if runes := []rune(base); len(runes) > store.WorkflowNameMaxLength {
		base = strings.TrimSpace(string(runes[:store.WorkflowNameMaxLength]))
	}
	name, err := s.in.Store.UniqueWorkflowName(c.Context(), base)
	if err != nil {
		return err
	}
	return respond(c, newWorkflowResponse{Name: name})
}

// postWorkflow saves a new workflow, owned by the caller. It is always saved inactive:
// activation is a separate step that checks the triggers.
func (s *server) postWorkflow(c fiber.Ctx) error {
	req, err := decodeWorkflowRequest(c.Body())
	if err != nil {
		return err
	}
	if !given(req.Name) {
		req.Name = json.RawMessage(`""`) // reported as an empty name
	}
	w := &store.Workflow{}
	if err := s.applyWorkflowRequest(req, w); err != nil {
		return err
	}
	w.Active = false
	if err := s.in.Store.CreateWorkflow(c.Context(), w, sessionUser(c).ID); err != nil {
		return workflowStoreError(err, "", w.Name)
	}
	return respond(c, toWorkflowResponse(w))
}

// getWorkflow answers a whole workflow the caller may see.
func (s *server) getWorkflow(c fiber.Ctx) error {
	id := c.Params("id")
	w, err := s.in.Store.GetWorkflowFor(c.Context(), sessionUser(c), id)
	if err != nil {
		return workflowStoreError(err, id, "")
	}
	return respond(c, toWorkflowResponse(w))
}

// patchWorkflow changes the fields the body holds and answers the whole saved workflow. The
// merged document is validated against what is stored, inside the same transaction, so a body
// with only nodes cannot leave connections pointing at a node it removed.
func (s *server) patchWorkflow(c fiber.Ctx) error {
	id := c.Params("id")
	req, err := decodeWorkflowRequest(c.Body())
	if err != nil {
		return err
	}
	w, err := s.updateWorkflow(c, id, req)
	if err != nil {
		return err
	}
	return respond(c, toWorkflowResponse(w))
}

// updateWorkflow applies a request to a stored workflow the caller may see, with its activation,
// in one transaction, then registers or removes its triggers.
func (s *server) updateWorkflow(c fiber.Ctx, id string, req workflowRequest) (*store.Workflow, error) {
	var name string
	w, err := s.activation.Update(c.Context(), sessionUser(c), id, func(w *store.Workflow) error {
		err := s.applyWorkflowRequest(req, w)
		name = w.Name
		return err
	})
	if err != nil {
		return nil, activationStoreError(err, id, name)
	}
	return w, nil
}

// deleteWorkflow deletes a workflow the caller may see.
func (s *server) deleteWorkflow(c fiber.Ctx) error {
	id := c.Params("id")
	if err := s.in.Store.DeleteWorkflow(c.Context(), sessionUser(c), id); err != nil {
		return workflowStoreError(err, id, "")
	}
	s.activation.Deleted(c.Context(), id)
	return respond(c, true)
}

func decodeWorkflowRequest(body []byte) (workflowRequest, error) {
	var req workflowRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return req, badRequest("The body must be a JSON object: " + err.Error())
	}
	return req, nil
}

// applyWorkflowRequest copies the fields req holds onto w and checks the result: the name
// (trimmed, 1 to 128 characters), the active flag, and the document's structure through
// workflow.Parse (node names, connections between existing nodes, field types). Node types are
// not checked: a saved workflow may use types this instance does not have.
func (s *server) applyWorkflowRequest(req workflowRequest, w *store.Workflow) error {
	if given(req.Name) {
		var name string
		if err := json.Unmarshal(req.Name, &name); err != nil {
			return badRequest("name must be a string")
		}
		name = strings.TrimSpace(name)
		if name == "" {
			return badRequest("Workflow name cannot be empty")
		}
		if n := utf8.RuneCountInString(name); n > store.WorkflowNameMaxLength {
			return badRequest(fmt.Sprintf("Workflow name must be 1 to %d characters long (it has %d)", store.WorkflowNameMaxLength, n))
		}
		w.Name = name
	}
	if given(req.Active) {
		if err := json.Unmarshal(req.Active, &w.Active); err != nil {
			return badRequest("active must be true or false")
		}
	}
	// nodes and connections cannot be null; the other document fields can be cleared with null.
	if given(req.Nodes) {
		w.Nodes = store.JSON(req.Nodes)
	}
	if given(req.Connections) {
		w.Connections = store.JSON(req.Connections)
	}
	for _, f := range []struct {
		raw json.RawMessage
		dst *store.JSON
	}{{req.Settings, &w.Settings}, {req.StaticData, &w.StaticData}, {req.PinData, &w.PinData}} {
		if len(f.raw) > 0 {
			*f.dst = nullable(f.raw)
		}
	}
	if given(req.Tags) && !s.cfg.WorkflowTagsDisabled {
		ids, err := decodeTagIDs(req.Tags)
		if err != nil {
			return err
		}
		w.Tags = make([]store.Tag, len(ids))
		for i, id := range ids {
			w.Tags[i] = store.Tag{ID: id}
		}
	}
	return s.validateDocument(w)
}

// validateDocument runs the stored form of w through the workflow parser and its limits.
func (s *server) validateDocument(w *store.Workflow) error {
	b, err := w.EditorDocument()
	if err != nil {
		return err
	}
	_, err = s.cfg.WorkflowLimits().Parse(b)
	return err
}

// decodeTagIDs reads the tags of a workflow body: tag ids as the editor sends them, or tag
// objects with an id as workflow files carry them.
func decodeTagIDs(raw json.RawMessage) ([]string, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, badRequest("tags must be a list of tag ids")
	}
	ids := make([]string, 0, len(items))
	for _, item := range items {
		var id string
		if json.Unmarshal(item, &id) != nil {
			var obj struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(item, &obj) != nil || obj.ID == "" {
				return nil, badRequest("tags must be a list of tag ids")
			}
			id = obj.ID
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// workflowStoreError words the store's expected failures for the editor.
func workflowStoreError(err error, id, name string) error {
	var unknownTag *store.UnknownTagError
	switch {
	case errors.As(err, &unknownTag):
		return &apiError{Status: fiber.StatusBadRequest, Message: fmt.Sprintf("Tag with ID %s does not exist", unknownTag.ID), cause: err}
	case errors.Is(err, store.ErrNotFound):
		return &apiError{Status: fiber.StatusNotFound, Message: fmt.Sprintf("Workflow with ID %s could not be found", id), cause: err}
	case errors.Is(err, store.ErrConflict):
		return &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("A workflow with the name %q already exists", name),
			Hint: "Choose another name", cause: err}
	case errors.Is(err, store.ErrInvalid):
		return &apiError{Status: fiber.StatusBadRequest, Message: err.Error(), cause: err}
	}
	return err
}

// given reports whether a raw body field holds a value other than null.
func given(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

// nullable stores JSON null as an empty (NULL) column.
func nullable(raw json.RawMessage) store.JSON {
	if !given(raw) {
		return nil
	}
	return store.JSON(raw)
}
