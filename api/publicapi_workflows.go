package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// apiGetWorkflows lists the workflows the key's user may see, filtered by active flag, part of
// the name and tag names (names of no tag are skipped, as n8n does; when none is a tag, nothing
// matches), one page at a time.
func (s *server) apiGetWorkflows(c fiber.Ctx) error {
	page, err := readPage(c)
	if err != nil {
		return err
	}
	f := store.WorkflowFilter{Name: strings.TrimSpace(c.Query("name"))}
	if v := c.Query("active"); v != "" {
		active := v == "true"
		f.Active = &active
	}
	if v := c.Query("tags"); v != "" {
		ids, err := s.tagIDsByName(c, strings.Split(v, ","))
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			// No name is a tag: no workflow carries one.
			return c.JSON(listAnswer{Data: []workflowResponse{}})
		}
		f.TagIDs = ids
	}
	list, more, err := s.in.Store.ListWorkflowPage(c.Context(), apiUser(c), f, page.Offset, page.Limit)
	if err != nil {
		return err
	}
	out := make([]workflowResponse, len(list))
	for i := range list {
		out[i] = toWorkflowResponse(&list[i])
	}
	var next *string
	if more {
		next = nextCursor(&pageCursor{Offset: page.Offset + page.Limit, Limit: page.Limit})
	}
	return c.JSON(listAnswer{Data: out, NextCursor: next})
}

// tagIDsByName maps tag names to ids, skipping names of no tag.
func (s *server) tagIDsByName(c fiber.Ctx, names []string) ([]string, error) {
	tags, err := s.in.Store.ListTags(c.Context())
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		for _, t := range tags {
			if name != "" && t.Name == name {
				ids = append(ids, t.ID)
				break
			}
		}
	}
	return ids, nil
}

// publicWorkflowRequest reads a workflow body of the public API: active and tags are read-only
// there (activation and tags have their own calls); nodes get n8n's defaults.
func publicWorkflowRequest(c fiber.Ctx) (workflowRequest, error) {
	req, err := decodeWorkflowRequest(c.Body())
	if err != nil {
		return req, err
	}
	req.Active, req.Tags, req.PinData = nil, nil, nil
	req.Nodes, err = withNodeDefaults(req.Nodes)
	return req, err
}

func (s *server) apiCreateWorkflow(c fiber.Ctx) error {
	req, err := publicWorkflowRequest(c)
	if err != nil {
		return err
	}
	w := &store.Workflow{}
	if err := s.applyWorkflowRequest(req, w); err != nil {
		return err
	}
	if err := s.in.Store.CreateWorkflow(c.Context(), w, apiUser(c).ID); err != nil {
		return workflowStoreError(err, "", w.Name)
	}
	return c.JSON(toWorkflowResponse(w))
}

func (s *server) apiGetWorkflow(c fiber.Ctx) error {
	id := c.Params("id")
	w, err := s.in.Store.GetWorkflowFor(c.Context(), apiUser(c), id)
	if err != nil {
		return workflowStoreError(err, id, "")
	}
	return c.JSON(toWorkflowResponse(w))
}

// apiUpdateWorkflow replaces the document: settings and static data not sent are cleared, as a
// PUT does.
func (s *server) apiUpdateWorkflow(c fiber.Ctx) error {
	id := c.Params("id")
	req, err := publicWorkflowRequest(c)
	if err != nil {
		return err
	}
	if len(req.StaticData) == 0 {
		req.StaticData = []byte("null")
	}
	w, err := s.updateWorkflow(c, id, req)
	if err != nil {
		return err
	}
	return c.JSON(toWorkflowResponse(w))
}

func (s *server) apiDeleteWorkflow(c fiber.Ctx) error {
	id := c.Params("id")
	w, err := s.in.Store.GetWorkflowFor(c.Context(), apiUser(c), id)
	if err != nil {
		return workflowStoreError(err, id, "")
	}
	if err := s.in.Store.DeleteWorkflow(c.Context(), apiUser(c), id); err != nil {
		return workflowStoreError(err, id, "")
	}
	s.activation.Deleted(c.Context(), id)
	return c.JSON(toWorkflowResponse(w))
}

// apiActivateWorkflow and apiDeactivateWorkflow go through the same checks and webhook
// registration as the editor's activation toggle.
func (s *server) apiActivateWorkflow(c fiber.Ctx) error {
	w, err := s.setActive(c.Context(), apiUser(c), c.Params("id"), true)
	if err != nil {
		return err
	}
	return c.JSON(toWorkflowResponse(w))
}

func (s *server) apiDeactivateWorkflow(c fiber.Ctx) error {
	w, err := s.setActive(c.Context(), apiUser(c), c.Params("id"), false)
	if err != nil {
		return err
	}
	return c.JSON(toWorkflowResponse(w))
}

// apiGetWorkflowTags answers the tags of a workflow the key's user may see, by name.
func (s *server) apiGetWorkflowTags(c fiber.Ctx) error {
	if err := s.tagsEnabled(); err != nil {
		return err
	}
	id := c.Params("id")
	w, err := s.in.Store.GetWorkflowFor(c.Context(), apiUser(c), id)
	if err != nil {
		return workflowStoreError(err, id, "")
	}
	return c.JSON(toTagResponses(w.Tags))
}

// apiUpdateWorkflowTags replaces a workflow's tags with those of the body ([{"id"}], ids as
// strings or numbers) and answers them as n8n does, with 201. A tag id that is no tag is a 404
// and changes nothing.
func (s *server) apiUpdateWorkflowTags(c fiber.Ctx) error {
	if err := s.tagsEnabled(); err != nil {
		return err
	}
	var body []struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(c.Body(), &body); err != nil {
		return badRequest("The body must be a list of {\"id\"} objects: " + err.Error())
	}
	id := c.Params("id")
	if _, err := s.in.Store.GetWorkflowFor(c.Context(), apiUser(c), id); err != nil {
		return workflowStoreError(err, id, "")
	}
	ids := make([]string, len(body))
	for i, t := range body {
		var n json.Number
		if json.Unmarshal(t.ID, &ids[i]) != nil && json.Unmarshal(t.ID, &n) != nil {
			return badRequest(fmt.Sprintf("request/body/%d/id must be a string or a number", i))
		}
		if ids[i] == "" {
			ids[i] = n.String()
		}
	}
	known, err := s.in.Store.ListTags(c.Context())
	if err != nil {
		return err
	}
	for _, want := range ids {
		if !slices.ContainsFunc(known, func(t store.Tag) bool { return t.ID == want }) {
			return notFound("Some tags not found: no tag has the ID " + want)
		}
	}
	raw, err := json.Marshal(ids)
	if err != nil {
		return err
	}
	w, err := s.updateWorkflow(c, id, workflowRequest{Tags: raw})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(toTagResponses(w.Tags))
}

// toTagResponses answers tags as the public API does: without usage counts.
func toTagResponses(tags []store.Tag) []tagResponse {
	out := make([]tagResponse, len(tags))
	for i := range tags {
		out[i] = toTagResponse(&tags[i], nil)
	}
	return out
}
