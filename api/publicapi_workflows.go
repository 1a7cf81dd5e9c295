package main

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
)

// apiGetWorkflows lists the workflows the key's user may see, filtered by active flag and tag
// names, one page at a time.
func (s *server) apiGetWorkflows(c fiber.Ctx) error {
	page, err := readPage(c)
	if err != nil {
		return err
	}
	var f store.WorkflowFilter
	if v := c.Query("active"); v != "" {
		active := v == "true"
		f.Active = &active
	}
	if v := c.Query("tags"); v != "" {
		ids, err := s.tagIDsByName(c, strings.Split(v, ","))
		if err != nil {
			return err
		}
		if ids == nil {
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

// tagIDsByName maps tag names to ids; nil when some name is no tag, so nothing can match.
func (s *server) tagIDsByName(c fiber.Ctx, names []string) ([]string, error) {
	tags, err := s.in.Store.ListTags(c.Context())
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		found := false
		for _, t := range tags {
			if t.Name == name {
				ids, found = append(ids, t.ID), true
				break
			}
		}
		if !found {
			return nil, nil
		}
	}
	return ids, nil
}

// publicWorkflowRequest reads a workflow body of the public API: active and tags are read-only
// there (activation has its own calls).
func publicWorkflowRequest(c fiber.Ctx) (workflowRequest, error) {
	req, err := decodeWorkflowRequest(c.Body())
	req.Active, req.Tags, req.PinData = nil, nil, nil
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
