package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/binaryref"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Execution listing limits.
const (
	defaultExecutionsLimit = 20
	maxExecutionsLimit     = 250
	// stopWait is how long a stop request waits for the worker to confirm.
	stopWait = 10 * time.Second
	// retryWait is how long a retry request waits for the retried run to end.
	retryWait = 5 * time.Minute
)

// executionSummary is an execution in lists (n8n's IExecutionsSummary).
type executionSummary struct {
	ID             string     `json:"id"`
	Finished       bool       `json:"finished"`
	Mode           string     `json:"mode"`
	Status         string     `json:"status"`
	RetryOf        *string    `json:"retryOf"`
	RetrySuccessID *string    `json:"retrySuccessId"`
	WaitTill       *time.Time `json:"waitTill"`
	StartedAt      *time.Time `json:"startedAt"`
	StoppedAt      *time.Time `json:"stoppedAt"`
	WorkflowID     *string    `json:"workflowId"`
	WorkflowName   string     `json:"workflowName"`
}

// executionDetail is one execution with its workflow snapshot and run data.
type executionDetail struct {
	executionSummary
	WorkflowData json.RawMessage `json:"workflowData"`
	Data         json.RawMessage `json:"data"`
}

func idPtr(id *int64) *string {
	if id == nil {
		return nil
	}
	s := execution.IDString(*id)
	return &s
}

func toSummary(e *store.Execution) executionSummary {
	started := e.StartedAt
	if started == nil {
		started = &e.CreatedAt
	}
	return executionSummary{ID: execution.IDString(e.ID), Finished: e.Finished, Mode: string(e.Mode), Status: string(e.Status),
		RetryOf: idPtr(e.RetryOf), RetrySuccessID: idPtr(e.RetrySuccessID), WaitTill: e.WaitTill,
		StartedAt: started, StoppedAt: e.StoppedAt, WorkflowID: e.WorkflowID, WorkflowName: e.WorkflowName}
}

// runRequest is the body of POST /rest/workflows/run.
type runRequest struct {
	WorkflowData    json.RawMessage  `json:"workflowData"`
	RunData         workflow.RunData `json:"runData"`
	StartNodes      []string         `json:"startNodes"`
	DestinationNode string           `json:"destinationNode"`
}

type runResponse struct {
	ExecutionID       string `json:"executionId,omitempty"`
	WaitingForWebhook bool   `json:"waitingForWebhook,omitempty"`
}

// postWorkflowRun starts a manual run from the editor and answers with its id at once; progress
// arrives on the caller's push stream (header sessionid).
func (s *server) postWorkflowRun(c fiber.Ctx) error {
	var req runRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("The body must be JSON: " + err.Error())
	}
	if len(req.WorkflowData) == 0 || string(req.WorkflowData) == "null" {
		return badRequest("workflowData is missing")
	}
	wf, err := s.cfg.WorkflowLimits().Parse(req.WorkflowData)
	if err != nil {
		return err
	}
	if err := s.checkRunnable(wf, req); err != nil {
		return err
	}
	userID, err := s.runAs(c, wf.ID)
	if err != nil {
		return err
	}
	if len(req.RunData) == 0 && s.startsWithWebhook(wf, req.DestinationNode) {
		return s.registerTestWebhooks(c, req.WorkflowData, wf, req.DestinationNode, userID)
	}
	e, err := s.executions.Create(c.Context(), execution.New{
		Workflow: wf, Mode: workflow.ModeManual, SessionID: c.Get("sessionid"), UserID: userID,
		Start: execution.StartData{StartNodes: req.StartNodes, DestinationNode: req.DestinationNode, RunData: req.RunData},
	})
	if err != nil {
		return err
	}
	return respond(c, runResponse{ExecutionID: execution.IDString(e.ID)})
}

// checkRunnable refuses a run that could not start, naming the node at fault.
func (s *server) checkRunnable(wf *workflow.Workflow, req runRequest) error {
	for _, n := range wf.Nodes {
		if n.Disabled {
			continue
		}
		t, err := s.nodeTypes.Lookup(n.Type, n.TypeVersion)
		if err != nil {
			refusal := &apiError{Status: fiber.StatusUnprocessableEntity, Message: fmt.Sprintf("The node %q: %v", n.Name, err)}
			if disabled := (*nodes.DisabledError)(nil); !errors.As(err, &disabled) {
				refusal.Hint = "Install, upgrade or replace the node, or disable it"
			}
			return refusal
		}
		issues, err := workflow.ParameterIssues(t.Description.Properties, n.Parameters, n.TypeVersion)
		if err != nil {
			return &apiError{Status: fiber.StatusUnprocessableEntity, Message: fmt.Sprintf("The node %q: %v", n.Name, err)}
		}
		if len(issues) > 0 {
			return &apiError{Status: fiber.StatusUnprocessableEntity,
				Message: fmt.Sprintf("The node %q has issues: %s", n.Name, strings.Join(issues, " ")),
				Hint:    "Fix the node's parameters, or disable it"}
		}
	}
	for _, name := range append(append([]string{}, req.StartNodes...), req.DestinationNode) {
		if name == "" {
			continue
		}
		if _, ok := wf.Node(name); !ok {
			return &apiError{Status: fiber.StatusUnprocessableEntity, Message: fmt.Sprintf("The node %q does not exist in the workflow", name)}
		}
	}
	return nil
}

// startsWithWebhook reports whether a full run would start at a webhook node, which has to wait
// for a call.
func (s *server) startsWithWebhook(wf *workflow.Workflow, destination string) bool {
	for _, n := range wf.Nodes {
		if n.Disabled {
			continue
		}
		if t, ok := s.nodeTypes.Get(n.Type, n.TypeVersion); ok && t.Description.StartsFromWebhook() &&
			(destination == "" || destination == n.Name || wf.IsAncestor(n.Name, destination)) {
			return true
		}
	}
	return false
}

// executionFilter is the `filter` query of GET /rest/executions.
type executionFilter struct {
	WorkflowID string            `json:"workflowId"`
	Finished   *bool             `json:"finished"`
	WaitTill   *bool             `json:"waitTill"`
	Status     []workflow.Status `json:"status"`
}

func parseFilter(raw string) (store.ExecutionFilter, error) {
	var f executionFilter
	if raw != "" {
		if err := json.Unmarshal([]byte(raw), &f); err != nil {
			return store.ExecutionFilter{}, badRequest("The filter must be a JSON object: " + err.Error())
		}
	}
	out := store.ExecutionFilter{WorkflowID: f.WorkflowID, Finished: f.Finished, Statuses: f.Status}
	if f.WaitTill != nil && *f.WaitTill {
		out.Waiting = true
	}
	return out, nil
}

func queryID(c fiber.Ctx, key string) (int64, error) {
	v := c.Query(key)
	if v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, badRequest(fmt.Sprintf("%s must be an execution id, got %q", key, v))
	}
	return id, nil
}

func (s *server) getExecutions(c fiber.Ctx) error {
	f, err := parseFilter(c.Query("filter"))
	if err != nil {
		return err
	}
	f.SharedWith = sharedWith(c)
	limit := defaultExecutionsLimit
	if v := c.Query("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 {
			return badRequest(fmt.Sprintf("limit must be a positive number, got %q", v))
		}
		limit = min(limit, maxExecutionsLimit)
	}
	var count int64
	var estimated bool
	if len(f.Statuses) == 0 {
		// As in n8n, past executions leave out the current ones (GET /executions-current lists
		// those), so a running execution is not listed twice.
		count, estimated, err = s.in.Store.CountPastExecutions(c.Context(), f)
		f = f.Past()
	} else {
		count, estimated, err = s.in.Store.CountExecutions(c.Context(), f)
	}
	if err != nil {
		return err
	}
	if f.FirstID, err = queryID(c, "firstId"); err != nil {
		return err
	}
	if f.LastID, err = queryID(c, "lastId"); err != nil {
		return err
	}
	list, err := s.in.Store.ListExecutions(c.Context(), f, limit)
	if err != nil {
		return err
	}
	results := make([]executionSummary, len(list))
	for i := range list {
		results[i] = toSummary(&list[i])
	}
	return respond(c, fiber.Map{"count": count, "results": results, "estimated": estimated})
}

func pathID(c fiber.Ctx) (int64, error) {
	id, err := strconv.ParseInt(c.Params("id"), 10, 64)
	if err != nil {
		return 0, notFound(fmt.Sprintf("Execution with ID %q could not be found", c.Params("id")))
	}
	return id, nil
}

func executionNotFound(id int64, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return notFound(fmt.Sprintf("Execution with ID %d could not be found", id))
	}
	return err
}

func (s *server) getExecution(c fiber.Ctx) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := s.checkExecutionVisible(c, id); err != nil {
		return err
	}
	e, err := s.in.Store.GetExecution(c.Context(), id)
	if err != nil {
		return executionNotFound(id, err)
	}
	d, err := s.in.Store.GetExecutionData(c.Context(), id)
	if err != nil {
		return executionNotFound(id, err)
	}
	data, err := binaryref.Externalize(d.Data, id)
	if err != nil {
		return err
	}
	if len(data) == 0 {
		data = json.RawMessage(`{"resultData":{"runData":{}}}`)
	}
	return respond(c, executionDetail{executionSummary: toSummary(e), WorkflowData: json.RawMessage(d.WorkflowData), Data: data})
}

func (s *server) getCurrentExecutions(c fiber.Ctx) error {
	f, err := parseFilter(c.Query("filter"))
	if err != nil {
		return err
	}
	f.Statuses = workflow.PendingStatuses
	f.SharedWith = sharedWith(c)
	list, err := s.in.Store.ListExecutions(c.Context(), f, maxExecutionsLimit)
	if err != nil {
		return err
	}
	out := make([]executionSummary, len(list))
	for i := range list {
		out[i] = toSummary(&list[i])
	}
	return respond(c, out)
}

func (s *server) postStopExecution(c fiber.Ctx) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := s.checkExecutionVisible(c, id); err != nil {
		return err
	}
	before, err := s.in.Store.GetExecution(c.Context(), id)
	if err != nil {
		return executionNotFound(id, err)
	}
	e, err := s.executions.Stop(c.Context(), id, stopWait)
	if errors.Is(err, execution.ErrNotStoppable) {
		e, err = s.in.Store.GetExecution(c.Context(), id)
	}
	if errors.Is(err, store.ErrNotFound) {
		// A run whose data is not kept (a manual run with saving off) is gone once it stopped:
		// answer with the state it ended in.
		now := time.Now().UTC()
		e, err = before, nil
		e.Status, e.StoppedAt, e.Finished = workflow.StatusCanceled, &now, false
	}
	if err != nil {
		return executionNotFound(id, err)
	}
	sum := toSummary(e)
	return respond(c, fiber.Map{"mode": sum.Mode, "startedAt": sum.StartedAt, "stoppedAt": sum.StoppedAt,
		"finished": sum.Finished, "status": sum.Status})
}

type retryRequest struct {
	LoadWorkflow bool `json:"loadWorkflow"`
}

// postRetryExecution runs a failed execution again from the node that failed, with the stored
// workflow or (loadWorkflow) the workflow as saved now, and answers whether the retry finished
// successfully (409 while another retry of it runs). The answer is read from the committed
// state: a retry and the original's link to it are written together.
func (s *server) postRetryExecution(c fiber.Ctx) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := s.checkExecutionVisible(c, id); err != nil {
		return err
	}
	var req retryRequest
	if len(c.Body()) > 0 {
		if err := json.Unmarshal(c.Body(), &req); err != nil {
			return badRequest("The body must be JSON: " + err.Error())
		}
	}
	retry, err := s.executions.Retry(c.Context(), id, req.LoadWorkflow)
	if err != nil {
		var re *execution.RetryError
		if errors.As(err, &re) && re.Conflict {
			return &apiError{Status: fiber.StatusConflict, Message: re.Error(), cause: err}
		}
		if errors.As(err, &re) {
			return badRequest(re.Error())
		}
		return executionNotFound(id, err)
	}
	done, err := s.executions.Wait(c.Context(), retry.ID, retryWait)
	if errors.Is(err, store.ErrNotFound) {
		// Not kept by the save settings: it finished; its outcome is on the original.
		orig, err := s.in.Store.GetExecution(c.Context(), id)
		if err != nil {
			return err
		}
		return respond(c, orig.RetrySuccessID != nil)
	}
	if err != nil {
		return err
	}
	return respond(c, done.Status == workflow.StatusSuccess)
}

type deleteRequest struct {
	IDs          []string         `json:"ids"`
	DeleteBefore *time.Time       `json:"deleteBefore"`
	Filters      *executionFilter `json:"filters"`
}

// postDeleteExecutions deletes the listed executions, or every past (finished or waiting) one
// started up to a date, narrowed by the list's filters; current executions are never included.
func (s *server) postDeleteExecutions(c fiber.Ctx) error {
	var req deleteRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return badRequest("The body must be JSON: " + err.Error())
	}
	var f store.ExecutionFilter
	switch {
	case len(req.IDs) > 0:
		for _, raw := range req.IDs {
			id, err := strconv.ParseInt(strings.TrimSpace(raw), 10, 64)
			if err != nil {
				return badRequest(fmt.Sprintf("%q is not an execution id", raw))
			}
			f.IDs = append(f.IDs, id)
		}
	case req.DeleteBefore != nil:
		// deleteBefore is the start of the newest listed execution and includes it, as in n8n;
		// the store keeps microseconds and compares strictly.
		before := req.DeleteBefore.Add(time.Microsecond)
		f.Before = &before
		if req.Filters != nil {
			f.WorkflowID = req.Filters.WorkflowID
			f.Finished = req.Filters.Finished
			f.Waiting = req.Filters.WaitTill != nil && *req.Filters.WaitTill
		}
		f = f.Past()
	default:
		return badRequest("Either ids or deleteBefore is required")
	}
	f.SharedWith = sharedWith(c)
	if _, err := s.in.Store.DeleteExecutions(c.Context(), f); err != nil {
		return err
	}
	return respond(c, true)
}
