package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// tagRef is a tag as a workflow carries it.
type tagRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// tagResponse is a tag as the tags manager sees it; UsageCount only when asked for.
type tagResponse struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	UsageCount *int64    `json:"usageCount,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// tagRequest is the body of POST /rest/tags and PATCH /rest/tags/:id.
type tagRequest struct {
	Name *string `json:"name"`
}

func toTagRefs(tags []store.Tag) []tagRef {
	out := make([]tagRef, len(tags))
	for i, t := range tags {
		out[i] = tagRef{ID: t.ID, Name: t.Name}
	}
	return out
}

func toTagResponse(t *store.Tag, usage *int64) tagResponse {
	return tagResponse{ID: t.ID, Name: t.Name, UsageCount: usage, CreatedAt: t.CreatedAt.UTC(), UpdatedAt: t.UpdatedAt.UTC()}
}

// getTags lists every tag by name; withUsageCount=true adds how many workflows carry each.
func (s *server) getTags(c fiber.Ctx) error {
	if err := s.tagsEnabled(); err != nil {
		return err
	}
	if c.Query("withUsageCount") != "true" {
		tags, err := s.in.Store.ListTags(c.Context())
		if err != nil {
			return err
		}
		out := make([]tagResponse, len(tags))
		for i := range tags {
			out[i] = toTagResponse(&tags[i], nil)
		}
		return respond(c, out)
	}
	tags, err := s.in.Store.ListTagsWithUsage(c.Context())
	if err != nil {
		return err
	}
	out := make([]tagResponse, len(tags))
	for i := range tags {
		out[i] = toTagResponse(&tags[i].Tag, &tags[i].UsageCount)
	}
	return respond(c, out)
}

// postTag creates a tag.
func (s *server) postTag(c fiber.Ctx) error {
	if err := s.tagsEnabled(); err != nil {
		return err
	}
	name, err := decodeTagName(c.Body())
	if err != nil {
		return err
	}
	t, err := s.in.Store.CreateTag(c.Context(), name)
	if err != nil {
		return tagStoreError(err, "", name)
	}
	return respond(c, toTagResponse(t, nil))
}

// patchTag renames a tag; giving it the name it has is a no-op success.
func (s *server) patchTag(c fiber.Ctx) error {
	if err := s.tagsEnabled(); err != nil {
		return err
	}
	name, err := decodeTagName(c.Body())
	if err != nil {
		return err
	}
	t, err := s.in.Store.UpdateTag(c.Context(), c.Params("id"), name)
	if err != nil {
		return tagStoreError(err, c.Params("id"), name)
	}
	return respond(c, toTagResponse(t, nil))
}

// deleteTag deletes a tag; the workflows that carried it keep everything else.
func (s *server) deleteTag(c fiber.Ctx) error {
	if err := s.tagsEnabled(); err != nil {
		return err
	}
	if err := s.in.Store.DeleteTag(c.Context(), c.Params("id")); err != nil {
		return tagStoreError(err, c.Params("id"), "")
	}
	return respond(c, true)
}

// tagsEnabled refuses tag calls on an instance that hides tags, as n8n does.
func (s *server) tagsEnabled() error {
	if s.cfg.WorkflowTagsDisabled {
		return badRequest("Workflow tags are disabled")
	}
	return nil
}

// decodeTagName reads and checks the name of a tag body: trimmed, 1 to 24 characters.
func decodeTagName(body []byte) (string, error) {
	var req tagRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return "", badRequest("The body must be JSON: " + err.Error())
	}
	if req.Name == nil {
		return "", badRequest("name is missing")
	}
	name := strings.TrimSpace(*req.Name)
	if name == "" {
		return "", badRequest("Tag name cannot be empty")
	}
	if n := utf8.RuneCountInString(name); n > store.TagNameMaxLength {
		return "", badRequest(fmt.Sprintf("Tag name must be 1 to %d characters long (it has %d)", store.TagNameMaxLength, n))
	}
	return name, nil
}

// tagStoreError words the store's expected failures for the editor.
func tagStoreError(err error, id, name string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return &apiError{Status: fiber.StatusNotFound, Message: fmt.Sprintf("Tag with ID %s could not be found", id), cause: err}
	case errors.Is(err, store.ErrConflict):
		return &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("A tag with the name %q already exists", name), cause: err}
	case errors.Is(err, store.ErrInvalid):
		return &apiError{Status: fiber.StatusBadRequest, Message: err.Error(), cause: err}
	}
	return err
}
