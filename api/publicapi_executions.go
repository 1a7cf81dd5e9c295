package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// apiExecution is an execution as the public API answers it (n8n's shape: a numeric id).
type apiExecution struct {
	ID             int64           `json:"id"`
	Data           json.RawMessage `json:"data,omitempty"`
	Finished       bool            `json:"finished"`
	Mode           string          `json:"mode"`
	Status         string          `json:"status"`
	RetryOf        *string         `json:"retryOf"`
	RetrySuccessID *string         `json:"retrySuccessId"`
	StartedAt      any             `json:"startedAt"`
	// StoppedAt is left out while the execution has not stopped (running or waiting): n8n's
	// schema has a date here, never null.
	StoppedAt  *time.Time `json:"stoppedAt,omitempty"`
	WorkflowID *string    `json:"workflowId"`
	WaitTill   any        `json:"waitTill"`
}

func (s *server) toAPIExecution(c fiber.Ctx, e *store.Execution, includeData bool) (apiExecution, error) {
	sum := toSummary(e)
	out := apiExecution{ID: e.ID, Finished: e.Finished, Mode: string(e.Mode), Status: string(e.Status), RetryOf: sum.RetryOf,
		RetrySuccessID: sum.RetrySuccessID, StartedAt: sum.StartedAt, StoppedAt: sum.StoppedAt,
		WorkflowID: e.WorkflowID, WaitTill: sum.WaitTill}
	if includeData {
		d, err := s.in.Store.GetExecutionData(c.Context(), e.ID)
		if err != nil {
			return out, err
		}
		out.Data = json.RawMessage(d.Data)
		if len(out.Data) == 0 {
			out.Data = json.RawMessage(`{"resultData":{"runData":{}}}`)
		}
	}
	return out, nil
}

// apiGetExecutions lists executions newest first, by status and workflow, paged by the last id.
func (s *server) apiGetExecutions(c fiber.Ctx) error {
	page, err := readPage(c)
	if err != nil {
		return err
	}
	f := store.ExecutionFilter{WorkflowID: c.Query("workflowId"), LastID: page.LastID, SharedWith: sharedWith(c)}
	if st := c.Query("status"); st != "" {
		f.Statuses = []workflow.Status{workflow.Status(st)}
	}
	list, err := s.in.Store.ListExecutions(c.Context(), f, page.Limit+1)
	if err != nil {
		return err
	}
	var next *string
	if len(list) > page.Limit {
		list = list[:page.Limit]
		next = nextCursor(&pageCursor{LastID: list[len(list)-1].ID, Limit: page.Limit})
	}
	out := make([]apiExecution, len(list))
	for i := range list {
		if out[i], err = s.toAPIExecution(c, &list[i], c.Query("includeData") == "true"); err != nil {
			return err
		}
	}
	return c.JSON(listAnswer{Data: out, NextCursor: next})
}

// visibleExecution loads an execution the key's user may see; 404 otherwise.
func (s *server) visibleExecution(c fiber.Ctx) (*store.Execution, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil {
		return nil, notFound(fmt.Sprintf("Execution with ID %q could not be found", c.Params("id")))
	}
	if err := s.checkExecutionVisible(c, id); err != nil {
		return nil, err
	}
	e, err := s.in.Store.GetExecution(c.Context(), id)
	if err != nil {
		return nil, executionNotFound(id, err)
	}
	return e, nil
}

func (s *server) apiGetExecution(c fiber.Ctx) error {
	e, err := s.visibleExecution(c)
	if err != nil {
		return err
	}
	out, err := s.toAPIExecution(c, e, c.Query("includeData") == "true")
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (s *server) apiDeleteExecution(c fiber.Ctx) error {
	e, err := s.visibleExecution(c)
	if err != nil {
		return err
	}
	out, err := s.toAPIExecution(c, e, false)
	if err != nil {
		return err
	}
	if err := s.in.Store.DeleteExecution(c.Context(), e.ID); err != nil {
		return err
	}
	return c.JSON(out)
}

// apiGetTags lists tags by name, one page at a time.
func (s *server) apiGetTags(c fiber.Ctx) error {
	page, err := readPage(c)
	if err != nil {
		return err
	}
	tags, err := s.in.Store.ListTags(c.Context())
	if err != nil {
		return err
	}
	from, to, next := pageOf(page, len(tags))
	out := make([]tagResponse, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, toTagResponse(&tags[i], nil))
	}
	return c.JSON(listAnswer{Data: out, NextCursor: next})
}

type apiTagInput struct {
	Name string `json:"name"`
}

func (s *server) apiCreateTag(c fiber.Ctx) error {
	var in apiTagInput
	if err := decodeBody(c, &in); err != nil {
		return err
	}
	t, err := s.in.Store.CreateTag(c.Context(), in.Name)
	if err != nil {
		return apiTagError(err, "", in.Name)
	}
	return c.Status(fiber.StatusCreated).JSON(toTagResponse(t, nil))
}

func (s *server) findTag(c fiber.Ctx) (*store.Tag, error) {
	tags, err := s.in.Store.ListTags(c.Context())
	if err != nil {
		return nil, err
	}
	for i := range tags {
		if tags[i].ID == c.Params("id") {
			return &tags[i], nil
		}
	}
	return nil, notFound("Tag with ID " + c.Params("id") + " could not be found")
}

func (s *server) apiGetTag(c fiber.Ctx) error {
	t, err := s.findTag(c)
	if err != nil {
		return err
	}
	return c.JSON(toTagResponse(t, nil))
}

func (s *server) apiUpdateTag(c fiber.Ctx) error {
	var in apiTagInput
	if err := decodeBody(c, &in); err != nil {
		return err
	}
	t, err := s.in.Store.UpdateTag(c.Context(), c.Params("id"), in.Name)
	if err != nil {
		return apiTagError(err, c.Params("id"), in.Name)
	}
	return c.JSON(toTagResponse(t, nil))
}

// apiDeleteTag deletes a tag; as in the editor, only the instance owner may.
func (s *server) apiDeleteTag(c fiber.Ctx) error {
	if apiUser(c).GlobalRole != store.RoleOwner {
		return &apiError{Status: fiber.StatusForbidden, Message: "Only the instance owner can delete tags"}
	}
	t, err := s.findTag(c)
	if err != nil {
		return err
	}
	if err := s.in.Store.DeleteTag(c.Context(), t.ID); err != nil {
		return apiTagError(err, t.ID, t.Name)
	}
	return c.JSON(toTagResponse(t, nil))
}

func apiTagError(err error, id, name string) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return notFound("Tag with ID " + id + " could not be found")
	case errors.Is(err, store.ErrConflict):
		return &apiError{Status: fiber.StatusConflict, Message: fmt.Sprintf("A tag with the name %q already exists", name), cause: err}
	case errors.Is(err, store.ErrInvalid):
		return badRequest(err.Error())
	}
	return err
}
