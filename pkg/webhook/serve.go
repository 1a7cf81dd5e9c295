package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/nodes"
	webhooknode "github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Hints n8n gives with its answer to unknown production and test webhook paths.
const (
	HintProductionUnregistered = "The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)"
	HintTestUnregistered       = "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)"
)

// Kind says which webhooks a call is for.
type Kind int

// The kinds of webhook calls.
const (
	// Production calls reach the webhooks of active workflows (/webhook/…).
	Production Kind = iota
	// Test calls reach the webhooks an editor waits on for a manual run (/webhook-test/…).
	Test
	// Waiting calls resume an execution waiting at a Wait node (/webhook-waiting/:id/…).
	Waiting
)

// Call is one HTTP call of a webhook.
type Call struct {
	Kind Kind
	// Path is the path after the kind's prefix, unescaped, without leading or trailing slashes;
	// for Waiting calls the part after the execution id.
	Path string
	// ExecutionID is the execution a Waiting call names, as the caller wrote it.
	ExecutionID string
	// Request is the call itself (method, headers, query and body), as the webhook node reads it.
	Request *http.Request
}

// Answer is the response to a call: the workflow's answer, or a preflight's.
type Answer = trigger.Answer

// Serve serves one call. Failures the caller should see are *Error; other errors are the
// server's (the store, Redis).
func (rt *Runtime) Serve(ctx context.Context, call Call) (Answer, error) {
	switch call.Kind {
	case Test:
		return rt.serveTest(ctx, call)
	case Waiting:
		return rt.serveWaiting(ctx, call)
	}
	return rt.serveProduction(ctx, call)
}

// hit is a webhook found for a call.
type hit struct {
	hook   trigger.Webhook
	wf     *workflow.Workflow
	params map[string]string
	// snapshot is wf as JSON and options the webhook node's options, when already known.
	snapshot []byte
	options  *webhooknode.Options
	// userID is the user the run acts for, whose credentials check the caller; empty means the
	// owner of the saved workflow wf.
	userID string
}

// startFunc begins (or resumes) the execution of a hit with the node's item; respond is set
// when the caller waits for the run's answer. It returns the execution id.
type startFunc func(item workflow.Item, respond *trigger.Response, claim *store.IdempotencyClaim) (int64, error)

func unregistered(method, path, hint string) *Error {
	e := newError(NotFound, "The requested webhook %q is not registered.", method+" "+path)
	e.Hint = hint
	return e
}

func (rt *Runtime) serveProduction(ctx context.Context, call Call) (Answer, error) {
	method := call.Request.Method
	if method == http.MethodOptions {
		a, err := preflight(call.Request, rt.production.methods(ctx, call.Path))
		if err != nil {
			return a, err
		}
		return withCORS(a, rt.preflightHook(ctx, Production, call.Request, call.Path), call.Request), nil
	}
	h, err := rt.production.find(ctx, method, call.Path)
	if errors.Is(err, errNoWebhook) {
		return Answer{}, unregistered(method, call.Path, HintProductionUnregistered)
	}
	if err != nil {
		return Answer{}, err
	}
	return rt.runCORS(ctx, call, h, func(item workflow.Item, respond *trigger.Response, claim *store.IdempotencyClaim) (int64, error) {
		e, err := rt.cfg.Executions.Create(ctx, execution.New{Workflow: h.wf, Snapshot: h.snapshot, Mode: workflow.ModeWebhook,
			Start:       execution.StartData{StartNode: h.hook.Node, Input: []workflow.Item{item}, InputIndex: h.hook.OutputIndex, Respond: respond},
			Idempotency: claim})
		if errors.Is(err, execution.ErrNotQueued) {
			return e.ID, err
		}
		if err != nil {
			return 0, err
		}
		return e.ID, nil
	})
}

func (rt *Runtime) serveTest(ctx context.Context, call Call) (Answer, error) {
	method := call.Request.Method
	if method == http.MethodOptions {
		a, err := preflight(call.Request, rt.tests.methods(ctx, call.Path))
		if err != nil {
			return a, err
		}
		return withCORS(a, rt.preflightHook(ctx, Test, call.Request, call.Path), call.Request), nil
	}
	reg, hook, params, err := rt.tests.claim(ctx, method, call.Path)
	if errors.Is(err, errNoWebhook) {
		return Answer{}, unregistered(method, call.Path, HintTestUnregistered)
	}
	if err != nil {
		return Answer{}, err
	}
	wf, err := workflow.Parse(reg.Workflow)
	if err != nil {
		return Answer{}, err
	}
	h := &hit{hook: *hook, wf: wf, params: params, userID: reg.UserID}
	return rt.runCORS(ctx, call, h, func(item workflow.Item, respond *trigger.Response, _ *store.IdempotencyClaim) (int64, error) {
		e, err := rt.cfg.Executions.Create(ctx, execution.New{Workflow: wf, Mode: workflow.ModeManual, SessionID: reg.SessionID, UserID: reg.UserID,
			Start: execution.StartData{StartNode: hook.Node, Input: []workflow.Item{item}, InputIndex: hook.OutputIndex,
				DestinationNode: reg.Destination, Respond: respond},
			Stored: func(e *store.Execution) {
				if reg.SessionID == "" {
					return
				}
				err := rt.cfg.Publisher.Send(ctx, reg.SessionID, push.Message{Type: push.TypeTestWebhookReceived,
					Data: map[string]any{"workflowId": reg.WorkflowID, "executionId": execution.IDString(e.ID)}})
				if err != nil {
					rt.cfg.Log.Warn("push testWebhookReceived", "err", err)
				}
			}})
		if errors.Is(err, execution.ErrNotQueued) {
			return e.ID, err
		}
		if err != nil {
			return 0, err
		}
		return e.ID, nil
	})
}

// serveWaiting resumes an execution waiting at a Wait node for its webhook.
func (rt *Runtime) serveWaiting(ctx context.Context, call Call) (Answer, error) {
	raw, method := call.ExecutionID, call.Request.Method
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return Answer{}, newError(NotFound, "The execution %q does not exist.", raw)
	}
	e, err := rt.cfg.Store.GetExecution(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return Answer{}, newError(NotFound, "The execution %q does not exist.", raw)
	}
	if err != nil {
		return Answer{}, err
	}
	switch {
	case e.Status == workflow.StatusWaiting:
	case e.Finished || e.StoppedAt != nil:
		return Answer{}, newError(Conflict, "The execution %q has finished already.", raw)
	default:
		return Answer{}, newError(Conflict, "The execution %q is running already.", raw)
	}
	d, err := rt.cfg.Store.GetExecutionData(ctx, id)
	if err != nil {
		return Answer{}, err
	}
	wf, err := workflow.Parse(d.WorkflowData)
	if err != nil {
		return Answer{}, err
	}
	var state engine.State
	if err := json.Unmarshal(d.Data, &state); err != nil || len(state.ExecutionData.NodeExecutionStack) == 0 {
		return Answer{}, newError(Conflict, "The execution %q is not waiting for a webhook.", raw)
	}
	hook, err := rt.resumeWebhook(wf, state.ExecutionData.NodeExecutionStack[0].Node, method, call.Path)
	if err != nil {
		return Answer{}, err
	}
	if method == http.MethodOptions {
		return preflight(call.Request, []string{hook.Method})
	}
	var start execution.StartData
	if len(d.StartData) > 0 {
		_ = json.Unmarshal(d.StartData, &start)
	}
	h := &hit{hook: *hook, wf: wf, params: map[string]string{}, userID: e.UserID}
	return rt.run(ctx, call, h, func(item workflow.Item, respond *trigger.Response, _ *store.IdempotencyClaim) (int64, error) {
		state.ExecutionData.NodeExecutionStack[0].Data.Main = [][]workflow.Item{{item}}
		data, err := json.Marshal(&state)
		if err != nil {
			return 0, err
		}
		start.Respond = respond
		startData, err := json.Marshal(start)
		if err != nil {
			return 0, err
		}
		ok, err := rt.cfg.Store.ResumeWaitingExecution(ctx, id, data, startData)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, newError(Conflict, "The execution %q is running already.", raw)
		}
		if err := rt.cfg.Queue.EnqueueExecution(ctx, queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: id}); err != nil {
			return id, fmt.Errorf("execution %d: %w: %w", id, execution.ErrNotQueued, err)
		}
		return id, nil
	})
}

// resumeWebhook finds the resume webhook of the waiting node for a method and suffix.
func (rt *Runtime) resumeWebhook(wf *workflow.Workflow, nodeName, method, suffix string) (*trigger.Webhook, error) {
	missing := newError(NotFound, "The execution is not waiting for a webhook call %s /%s.", method, suffix)
	n, ok := wf.Node(nodeName)
	if !ok {
		return nil, missing
	}
	t, ok := rt.cfg.Nodes.Get(n.Type, n.TypeVersion)
	if !ok {
		return nil, missing
	}
	hooks, err := trigger.NodeWebhooks(wf, n, t, rt.cfg.Evaluator)
	if err != nil {
		return nil, err
	}
	for i := range hooks {
		h := &hooks[i]
		if h.Restart && h.Path == strings.Trim(suffix, "/") && (h.Method == method || method == http.MethodOptions) {
			return h, nil
		}
	}
	return nil, missing
}

// run checks who is calling, reads the request into the webhook node's item, has start begin
// the execution and answers as the webhook's response mode says. A production call with an
// Idempotency-Key runs once per key (see idempotent). An execution stored but not queued
// (Redis unreachable) runs once the reconciler queues it: the caller is answered as usual.
func (rt *Runtime) run(ctx context.Context, call Call, h *hit, start startFunc) (Answer, error) {
	r := call.Request
	node, _ := h.wf.Node(h.hook.Node)
	if err := checkResponseMode(h.wf, node, h.hook.Response.Mode); err != nil {
		return Answer{}, err
	}
	if !ipAllowed(h.hook.IPWhitelist, r.RemoteAddr) {
		return Answer{}, &Error{Kind: IPRefused, Message: msgIPRefused}
	}
	if h.hook.IgnoreBots && trigger.IsBot(r.Header.Get("User-Agent")) {
		return Answer{}, &Error{Kind: Forbidden, Message: msgAuthWrong}
	}
	jwtPayload, err := authenticate(ctx, r, h.hook, node, rt.runCredentials(h))
	if err != nil {
		return Answer{}, err
	}
	opts := h.options
	if opts == nil {
		o, err := nodeOptions(rt.cfg.Nodes, node)
		if err != nil {
			return Answer{}, err
		}
		opts = &o
	}
	item, err := webhooknode.RequestItem(r, h.params, *opts, 0)
	if err != nil {
		return Answer{}, &Error{Kind: BadRequest, Message: strings.TrimPrefix(err.Error(), "webhook: "), cause: err}
	}
	if node != nil && node.Type == webhooknode.TypeName && call.Kind != Waiting {
		// n8n's Webhook node tells the workflow where it was called and in which mode.
		mode, prefix := "production", "webhook/"
		if call.Kind == Test {
			mode, prefix = "test", "webhook-test/"
		}
		item.JSON.Set("webhookUrl", rt.cfg.WebhookURL+prefix+h.hook.Path)
		item.JSON.Set("executionMode", mode)
		if jwtPayload != nil {
			item.JSON.Set("jwtPayload", jwtPayload)
		}
	}
	var key string
	if call.Kind == Production {
		if key, err = idempotencyKey(r); err != nil {
			return Answer{}, err
		}
		if key != "" {
			once, replayed, err := rt.idempotent(ctx, h, key, start)
			if err != nil || replayed != nil {
				return deref(replayed), err
			}
			start = once
		}
	}
	respond := h.hook.Response
	if !respond.WaitsForRun() {
		if _, err := start(item, nil, nil); err != nil && !rt.notQueued(err) {
			return Answer{}, err
		}
		return respond.OnReceived(), nil
	}
	respond.Token, respond.Keep = store.NewID(), key != ""
	answer, release := rt.answers.expect(respond.Token)
	defer release()
	id, err := start(item, &respond, nil)
	if err != nil && !rt.notQueued(err) {
		return Answer{}, err
	}
	return rt.answers.await(ctx, rt.cfg.Store, rt.cfg.ResponseTimeout, time.Second, id, answer)
}

// runCORS is run with the answer's origin header set from the node's allowed origins.
func (rt *Runtime) runCORS(ctx context.Context, call Call, h *hit, start startFunc) (Answer, error) {
	a, err := rt.run(ctx, call, h, start)
	if err != nil {
		return a, err
	}
	return withCORS(a, &h.hook, call.Request), nil
}

// checkResponseMode refuses a call of a Webhook 2 node whose response mode does not fit the
// Respond to Webhook nodes after it, as n8n does: responseNode without one, or one after a node
// set to answer otherwise. The caller gets n8n's answer to a webhook that could not start.
func checkResponseMode(wf *workflow.Workflow, node *workflow.Node, mode string) error {
	if node == nil || node.Type != webhooknode.TypeName || node.TypeVersion < 2 {
		return nil
	}
	responds := false
	seen := map[string]bool{node.Name: true}
	for queue := []string{node.Name}; len(queue) > 0 && !responds; queue = queue[1:] {
		for _, out := range wf.Connections.Main(queue[0]) {
			for _, c := range out {
				if seen[c.Node] {
					continue
				}
				seen[c.Node] = true
				queue = append(queue, c.Node)
				if n, ok := wf.Node(c.Node); ok && n.Type == "n8n-nodes-base.respondToWebhook" {
					responds = true
				}
			}
		}
	}
	if responds == (mode == trigger.ModeResponseNode) {
		return nil
	}
	cause := errors.New("Webhook node not correctly configured")
	if !responds {
		cause = errors.New("No Respond to Webhook node found in the workflow")
	}
	return &Error{Kind: NotStarted, Message: "Workflow Webhook Error: Workflow could not be started!", cause: cause}
}

// notQueued reports (and logs) an execution stored but not queued: it runs later.
func (rt *Runtime) notQueued(err error) bool {
	if !errors.Is(err, execution.ErrNotQueued) {
		return false
	}
	rt.cfg.Log.Warn("webhook execution stored but not queued; the reconciler queues it", "err", err)
	return true
}

func deref(a *Answer) Answer {
	if a == nil {
		return Answer{}
	}
	return *a
}

// runCredentials are the credentials the webhook's run may use: those of the user it acts for.
func (rt *Runtime) runCredentials(h *hit) nodes.CredentialsFunc {
	if h.userID != "" {
		return credential.ForUserID(rt.cfg.Store, rt.cfg.Credentials, h.userID)
	}
	return credential.ForWorkflow(rt.cfg.Store, rt.cfg.Credentials, h.wf.ID)
}

// preflight answers a CORS preflight with the methods registered for the path.
func preflight(r *http.Request, methods []string) (Answer, error) {
	if len(methods) == 0 {
		return Answer{}, &Error{Kind: NotFound, Message: "The requested webhook is not registered."}
	}
	allowed := strings.Join(append(methods, http.MethodOptions), ", ")
	headers := map[string]string{"Allow": allowed, "Access-Control-Allow-Origin": "*",
		"Access-Control-Allow-Methods": allowed, "Access-Control-Max-Age": "300"}
	if h := r.Header.Get("Access-Control-Request-Headers"); h != "" {
		headers["Access-Control-Allow-Headers"] = h
	}
	return Answer{Status: http.StatusNoContent, Headers: headers}, nil
}

// TestRun is a manual run that starts at a webhook: the workflow's webhooks wait for one call.
type TestRun struct {
	// SessionID is the editor session that asked; it hears when the call came and when the
	// window ended.
	SessionID string
	// Workflow is the workflow as the editor sent it, and Parsed the same parsed.
	Workflow    json.RawMessage
	Parsed      *workflow.Workflow
	Destination string
	// UserID is the user the run acts for.
	UserID string
}

// RegisterTest makes the workflow's webhooks wait for one call for the test window. Another
// workflow waiting on one of the paths is a Conflict; the same workflow's earlier registration
// is replaced.
func (rt *Runtime) RegisterTest(ctx context.Context, run TestRun) error {
	hooks, err := trigger.Webhooks(run.Parsed, rt.cfg.Nodes, rt.cfg.Evaluator)
	if err != nil {
		return &Error{Kind: Invalid, Message: err.Error(), cause: err}
	}
	reg := &registration{ID: store.NewID(), SessionID: run.SessionID, WorkflowID: run.Parsed.ID,
		Workflow: run.Workflow, Destination: run.Destination, UserID: run.UserID}
	for _, h := range hooks {
		if !h.Restart {
			reg.Hooks = append(reg.Hooks, h)
		}
	}
	return rt.tests.register(ctx, reg)
}

// StopTest stops the test webhooks of a workflow (the editor stopped waiting) and reports
// whether there were any. Only the user the registration acts for, a user the workflow is
// shared with, or the instance owner may stop them; others get NotFound, as for a workflow
// they cannot see.
func (rt *Runtime) StopTest(ctx context.Context, caller *store.User, workflowID string) (bool, error) {
	reg, err := rt.tests.ofWorkflow(ctx, workflowID)
	if errors.Is(err, errNoWebhook) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if caller.GlobalRole != store.RoleOwner && caller.ID != reg.UserID {
		_, err := rt.cfg.Store.GetWorkflowFor(ctx, caller, reg.WorkflowID)
		if errors.Is(err, store.ErrNotFound) {
			return false, newError(NotFound, "Workflow with ID %s could not be found", reg.WorkflowID)
		}
		if err != nil {
			return false, err
		}
	}
	return rt.tests.remove(ctx, reg.ID, true), nil
}
