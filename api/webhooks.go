package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Texts n8n answers unknown webhook paths with.
const (
	hintProductionUnregistered = "The workflow must be active for a production URL to run successfully. You can activate the workflow using the toggle in the top-right of the editor. Note that unlike test URL calls, production URL calls aren't shown on the canvas (only in the executions list)"
	hintTestUnregistered       = "Click the 'Execute workflow' button on the canvas, then try again. (In test mode, the webhook only works for one call after you click this button)"
)

// webhookMethods are the methods a webhook may register, plus OPTIONS for CORS preflight.
var webhookMethods = []string{http.MethodDelete, http.MethodGet, http.MethodHead, http.MethodPatch,
	http.MethodPost, http.MethodPut, http.MethodOptions}

// webhookRoutes are the rows of the route table for /webhook, /webhook-test and
// /webhook-waiting: every method, no session (the node decides who may call).
func (s *server) webhookRoutes() []route {
	var out []route
	for _, m := range webhookMethods {
		out = append(out,
			route{m, "/webhook/*", public, s.productionWebhook},
			route{m, "/webhook-test/*", public, s.testWebhook},
			route{m, "/webhook-waiting/:id", public, s.waitingWebhook},
			route{m, "/webhook-waiting/:id/*", public, s.waitingWebhook})
	}
	return out
}

// webhooks is the api's webhook layer.
type webhooks struct {
	ev      *expr.Evaluator
	answers *answers
	tests   *testWebhooks
	// timeout bounds how long a caller waits for the workflow's answer.
	timeout time.Duration

	mu    sync.Mutex
	cache map[string]cachedWorkflow
	// routes caches the stored webhook rows found for "method path"; emptied on every
	// activation notice, entries also expire after cacheAge.
	routes map[string]cachedRoute
}

// cachedWorkflow is an active workflow parsed for its webhooks; dropped on its activation
// notice, and after cacheAge in case a notice was lost. It keeps what every call would
// otherwise compute again: the snapshot an execution stores and each webhook node's options.
type cachedWorkflow struct {
	wf       *workflow.Workflow
	hooks    []trigger.Webhook
	snapshot []byte
	options  map[string]webhook.Options
	loaded   time.Time
}

// cachedRoute is the result of a webhook lookup.
type cachedRoute struct {
	rows   []store.Webhook
	loaded time.Time
}

// routeCacheSize bounds the route cache; past it the cache starts over.
const routeCacheSize = 4096

const cacheAge = 5 * time.Second

// hit is a webhook found for a request.
type hit struct {
	hook   trigger.Webhook
	wf     *workflow.Workflow
	params map[string]string
	// snapshot is wf as JSON and options the webhook node's options, when already known.
	snapshot []byte
	options  *webhook.Options
	// userID is the user the run acts for, whose credentials check the caller; empty means the
	// owner of the saved workflow wf.
	userID string
}

// runCredentials are the credentials the webhook's run may use: those of the user it acts for.
func (s *server) runCredentials(h *hit) nodes.CredentialsFunc {
	if h.userID != "" {
		return credential.ForUserID(s.in.Store, s.credentials, h.userID)
	}
	return credential.ForWorkflow(s.in.Store, s.credentials, h.wf.ID)
}

func (s *server) productionWebhook(c fiber.Ctx) error {
	path := webhookPath(c)
	if c.Method() == http.MethodOptions {
		return s.preflight(c, s.productionMethods(c.Context(), path))
	}
	h, err := s.findProductionWebhook(c.Context(), c.Method(), path)
	if err != nil {
		return err
	}
	if h == nil {
		return &apiError{Status: fiber.StatusNotFound, Hint: hintProductionUnregistered,
			Message: fmt.Sprintf("The requested webhook %q is not registered.", c.Method()+" "+path)}
	}
	return s.serveWebhook(c, h, func(item workflow.Item, respond *trigger.Response) (int64, error) {
		e, err := s.executions.Create(c.Context(), execution.New{Workflow: h.wf, Snapshot: h.snapshot, Mode: workflow.ModeWebhook,
			Start: execution.StartData{StartNode: h.hook.Node, Input: []workflow.Item{item}, Respond: respond}})
		if err != nil {
			return 0, err
		}
		return e.ID, nil
	})
}

func webhookPath(c fiber.Ctx) string {
	p := c.Params("*")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return strings.Trim(p, "/")
}

// findProductionWebhook finds the active workflow's webhook for a request: the exact path, or
// the dynamic path with the most matching static segments. nil when there is none.
func (s *server) findProductionWebhook(ctx context.Context, method, path string) (*hit, error) {
	rows, err := s.webhookRows(ctx, method, path)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	row, params := rows[0], map[string]string{}
	if row.Path != path {
		_, rest, _ := strings.Cut(path, "/")
		best := -1
		for _, r := range rows {
			_, pattern, _ := strings.Cut(r.Path, "/")
			if p, static, ok := trigger.MatchDynamic(strings.Split(pattern, "/"), strings.Split(rest, "/")); ok && static > best {
				row, params, best = r, p, static
			}
		}
		if best < 0 {
			return nil, nil
		}
	}
	cw, err := s.activeWorkflow(ctx, row.WorkflowID)
	if err != nil {
		return nil, err
	}
	for _, h := range cw.hooks {
		if h.Node == row.Node && h.Method == row.Method && h.Path == row.Path {
			opts, ok := cw.options[h.Node]
			if !ok {
				return &hit{hook: h, wf: cw.wf, params: params, snapshot: cw.snapshot}, nil
			}
			return &hit{hook: h, wf: cw.wf, params: params, snapshot: cw.snapshot, options: &opts}, nil
		}
	}
	return nil, nil
}

// webhookRows looks up the stored webhooks for a request, from the cache when fresh.
func (s *server) webhookRows(ctx context.Context, method, path string) ([]store.Webhook, error) {
	l, key := s.hooks, method+" "+path
	l.mu.Lock()
	r, ok := l.routes[key]
	l.mu.Unlock()
	if ok && time.Since(r.loaded) < cacheAge {
		return r.rows, nil
	}
	rows, err := s.in.Store.FindWebhooks(ctx, method, path)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if len(l.routes) >= routeCacheSize {
		clear(l.routes)
	}
	l.routes[key] = cachedRoute{rows: rows, loaded: time.Now()}
	l.mu.Unlock()
	return rows, nil
}

// productionMethods lists the methods registered for a path, for a preflight answer.
func (s *server) productionMethods(ctx context.Context, path string) []string {
	rows, err := s.in.Store.WebhookMethods(ctx, path)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rows {
		if !slices.Contains(out, r.Method) {
			out = append(out, r.Method)
		}
	}
	return out
}

// activeWorkflow returns an active workflow parsed with its webhooks, from the cache when fresh.
func (s *server) activeWorkflow(ctx context.Context, id string) (cachedWorkflow, error) {
	l := s.hooks
	l.mu.Lock()
	cw, ok := l.cache[id]
	l.mu.Unlock()
	if ok && time.Since(cw.loaded) < cacheAge {
		return cw, nil
	}
	doc, err := s.in.Store.WorkflowDocument(ctx, id)
	if err != nil {
		return cw, err
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return cw, err
	}
	hooks, err := trigger.Webhooks(wf, s.nodeTypes, l.ev)
	if err != nil {
		return cw, err
	}
	snapshot, err := json.Marshal(wf)
	if err != nil {
		return cw, fmt.Errorf("encode workflow snapshot: %w", err)
	}
	options := map[string]webhook.Options{}
	for _, h := range hooks {
		if node, ok := wf.Node(h.Node); ok {
			if o, err := s.webhookOptions(node); err == nil {
				options[h.Node] = o
			}
		}
	}
	cw = cachedWorkflow{wf: wf, hooks: hooks, snapshot: snapshot, options: options, loaded: time.Now()}
	l.mu.Lock()
	l.cache[id] = cw
	l.mu.Unlock()
	return cw, nil
}

// forget drops a workflow from the cache (its activation changed), and every cached route,
// since its webhooks may have moved.
func (l *webhooks) forget(id string) {
	l.mu.Lock()
	delete(l.cache, id)
	clear(l.routes)
	l.mu.Unlock()
}

// preflight answers a CORS preflight with the methods registered for the path.
func (s *server) preflight(c fiber.Ctx, methods []string) error {
	if len(methods) == 0 {
		return &apiError{Status: fiber.StatusNotFound, Message: "The requested webhook is not registered."}
	}
	allowed := strings.Join(append(methods, http.MethodOptions), ", ")
	c.Set("Allow", allowed)
	c.Set("Access-Control-Allow-Origin", "*")
	c.Set("Access-Control-Allow-Methods", allowed)
	if h := c.Get("Access-Control-Request-Headers"); h != "" {
		c.Set("Access-Control-Allow-Headers", h)
	}
	c.Set("Access-Control-Max-Age", "300")
	return c.SendStatus(fiber.StatusNoContent)
}

// serveWebhook checks who is calling, reads the request into the webhook node's item, has start
// begin the execution and answers as the webhook's response mode says.
func (s *server) serveWebhook(c fiber.Ctx, h *hit, start func(workflow.Item, *trigger.Response) (int64, error)) error {
	node, _ := h.wf.Node(h.hook.Node)
	if h.hook.IgnoreBots && trigger.IsBot(c.Get(fiber.HeaderUserAgent)) {
		return authProblem(c, fiber.StatusForbidden, "")
	}
	if done, err := s.checkWebhookAuth(c, h.hook, s.runCredentials(h), node); done || err != nil {
		return err
	}
	opts := h.options
	if opts == nil {
		o, err := s.webhookOptions(node)
		if err != nil {
			return err
		}
		opts = &o
	}
	item, err := webhook.RequestItem(httpRequest(c), h.params, *opts, 0)
	if err != nil {
		return badRequest(strings.TrimPrefix(err.Error(), "webhook: "))
	}
	respond := h.hook.Response
	if !respond.WaitsForRun() {
		if _, err := start(item, nil); err != nil {
			return err
		}
		return writeAnswer(c, respond.OnReceived())
	}
	respond.Token = store.NewID()
	answer, release := s.hooks.answers.expect(respond.Token)
	defer release()
	id, err := start(item, &respond)
	if err != nil {
		return err
	}
	return writeAnswer(c, s.awaitAnswer(c.Context(), id, answer))
}

// webhookOptions reads a webhook node's options, its defaults applied.
func (s *server) webhookOptions(node *workflow.Node) (webhook.Options, error) {
	t, _ := s.nodeTypes.Get(node.Type, node.TypeVersion)
	params, err := workflow.ResolveParameters(t.Description.Properties, node.Parameters, node.TypeVersion)
	if err != nil {
		return webhook.Options{}, err
	}
	opts, _ := params["options"].(map[string]any)
	return webhook.OptionsFrom(opts), nil
}

// awaitAnswer waits for a webhook execution's answer. Every second it looks at the execution
// itself, so a run that ended without an answer reaching this replica, or whose worker died,
// gets an answer too; the caller never waits past the webhook timeout.
func (s *server) awaitAnswer(ctx context.Context, id int64, answer <-chan trigger.Answer) trigger.Answer {
	deadline := time.NewTimer(s.hooks.timeout)
	defer deadline.Stop()
	check := time.NewTicker(time.Second)
	defer check.Stop()
	for {
		select {
		case a := <-answer:
			return a
		case <-ctx.Done():
			return trigger.ErrorAnswer(fiber.StatusServiceUnavailable, "The server is shutting down")
		case <-deadline.C:
			return trigger.ErrorAnswer(fiber.StatusGatewayTimeout,
				fmt.Sprintf("The workflow (execution %d) did not answer within %s", id, s.hooks.timeout))
		case <-check.C:
			e, err := s.in.Store.GetExecution(ctx, id)
			settled := errors.Is(err, store.ErrNotFound) || err == nil && (slices.Contains(workflow.TerminalStatuses, e.Status) || e.Status == workflow.StatusWaiting)
			if settled {
				if a, ok := s.hooks.answers.stored(ctx, id); ok {
					return a
				}
				select {
				case a := <-answer:
					return a
				case <-time.After(500 * time.Millisecond):
				}
				if a, ok := s.hooks.answers.stored(ctx, id); ok {
					return a
				}
				return trigger.ErrorAnswer(fiber.StatusInternalServerError,
					fmt.Sprintf("The workflow (execution %d) ended without an answer", id))
			}
			if err == nil && e.Status == workflow.StatusRunning && e.LeaseExpiresAt != nil && e.LeaseExpiresAt.Before(time.Now()) {
				return trigger.ErrorAnswer(fiber.StatusBadGateway,
					fmt.Sprintf("The worker running the workflow (execution %d) stopped before it answered", id))
			}
		}
	}
}

// writeAnswer sends an answer; webhooks may be called from browsers, so any origin may read it
// unless the workflow set its own CORS header.
func writeAnswer(c fiber.Ctx, a trigger.Answer) error {
	c.Set("Access-Control-Allow-Origin", "*")
	for k, v := range a.Headers {
		c.Set(k, v)
	}
	c.Status(a.Status)
	if len(a.Body) == 0 {
		return nil
	}
	return c.Send(a.Body)
}

// authProblem is n8n's answer to a webhook call that failed authentication.
func authProblem(c fiber.Ctx, status int, message string) error {
	if message == "" {
		message = map[int]string{401: "Authorization is required!", 403: "Authorization data is wrong!"}[status]
	}
	c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="Webhook"`)
	return c.Status(status).SendString(message)
}

// checkWebhookAuth checks basic or header authentication against the node's credentials; done
// means it already answered (401, 403, or 500 when the credentials cannot be read).
func (s *server) checkWebhookAuth(c fiber.Ctx, hook trigger.Webhook, creds nodes.CredentialsFunc, node *workflow.Node) (bool, error) {
	var credType string
	switch hook.Authentication {
	case "basicAuth":
		credType = "httpBasicAuth"
	case "headerAuth":
		credType = "httpHeaderAuth"
	default:
		return false, nil
	}
	ex := nodes.NewExecution(nodes.ExecutionConfig{Node: node, Credentials: creds})
	data, err := ex.Credentials(c.Context(), credType)
	if err != nil {
		return true, authProblem(c, fiber.StatusInternalServerError, "No authentication data defined on node!")
	}
	str := func(k string) string { v, _ := data[k].(string); return v }
	if credType == "httpBasicAuth" {
		if str("user") == "" || str("password") == "" {
			return true, authProblem(c, fiber.StatusInternalServerError, "No authentication data defined on node!")
		}
		user, pass, ok := httpRequest(c).BasicAuth()
		if !ok {
			return true, authProblem(c, fiber.StatusUnauthorized, "")
		}
		if user != str("user") || pass != str("password") {
			return true, authProblem(c, fiber.StatusForbidden, "")
		}
		return false, nil
	}
	if str("name") == "" || str("value") == "" {
		return true, authProblem(c, fiber.StatusInternalServerError, "No authentication data defined on node!")
	}
	if c.Get(str("name")) != str("value") {
		return true, authProblem(c, fiber.StatusForbidden, "")
	}
	return false, nil
}

// httpRequest presents the Fiber request as a net/http request, as the webhook node reads it.
func httpRequest(c fiber.Ctx) *http.Request {
	u := &url.URL{Path: c.Path(), RawQuery: string(c.Request().URI().QueryString())}
	r := &http.Request{Method: c.Method(), URL: u, Header: http.Header{}, Host: c.Hostname(),
		Body: http.NoBody}
	for k, v := range c.Request().Header.All() {
		r.Header.Add(string(k), string(v))
	}
	if body := c.Body(); len(body) > 0 {
		r.Body = readCloser{bytes.NewReader(body)}
		r.ContentLength = int64(len(body))
	}
	return r
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// newWebhooks builds the webhook layer of s.
func newWebhooks(s *server) (*webhooks, error) {
	ev, err := expr.New(expr.Options{DefaultTimezone: s.cfg.Timezone})
	if err != nil {
		return nil, err
	}
	l := &webhooks{ev: ev, timeout: s.cfg.WebhookResponseTimeout, cache: map[string]cachedWorkflow{}, routes: map[string]cachedRoute{},
		tests: &testWebhooks{rdb: s.in.Redis, pub: s.in.Publisher, log: s.log, window: s.cfg.TestWebhookTimeout,
			timers: map[string]*time.Timer{}}}
	l.answers = newAnswers(s.in.Redis, s.log, l.forget)
	return l, nil
}

// stop ends the answer subscription and this replica's test webhook timers.
func (l *webhooks) stop() {
	l.answers.stop()
	l.tests.stop()
}
