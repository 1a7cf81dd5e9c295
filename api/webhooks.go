package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// The api's side of webhooks: it turns a request into a webhook.Call for the runtime in
// pkg/webhook and the Answer back into a response; webhook errors become responses in the one
// error handler (webhookErrorStatus, writeWebhookError).

// webhookRoutes are the rows of the route table for /webhook, /webhook-test and
// /webhook-waiting: every method, no session (the node decides who may call).
func (s *server) webhookRoutes() []route {
	var out []route
	for _, m := range webhook.Methods {
		out = append(out,
			route{m, "/webhook/*", public, s.productionWebhook},
			route{m, "/webhook-test/*", public, s.testWebhook},
			route{m, "/webhook-waiting/:id", public, s.waitingWebhook},
			route{m, "/webhook-waiting/:id/*", public, s.waitingWebhook})
	}
	return out
}

// productionWebhook serves a call of an active workflow's webhook.
func (s *server) productionWebhook(c fiber.Ctx) error {
	return s.serveWebhook(c, webhook.Call{Kind: webhook.Production})
}

// testWebhook serves a call of a test webhook: one call starts the manual execution the editor
// waits for.
func (s *server) testWebhook(c fiber.Ctx) error {
	return s.serveWebhook(c, webhook.Call{Kind: webhook.Test})
}

// waitingWebhook resumes an execution waiting at a Wait node for its webhook
// (/webhook-waiting/:executionId, plus the node's webhook suffix).
func (s *server) waitingWebhook(c fiber.Ctx) error {
	return s.serveWebhook(c, webhook.Call{Kind: webhook.Waiting, ExecutionID: c.Params("id")})
}

// serveWebhook completes call from the request, has the runtime serve it and writes its answer.
func (s *server) serveWebhook(c fiber.Ctx, call webhook.Call) error {
	call.Path = webhookPath(c)
	call.Request = httpRequest(c)
	// The caller's address for the node's IP whitelist: a trusted proxy's X-Forwarded-For counts.
	call.Request.RemoteAddr = s.clientIP(c)
	a, err := s.hooks.Serve(c.Context(), call)
	if err != nil {
		return err
	}
	return writeAnswer(c, a)
}

func webhookPath(c fiber.Ctx) string {
	p := c.Params("*")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	return strings.Trim(p, "/")
}

// writeAnswer sends an answer; webhooks may be called from browsers, so any origin may read it
// unless the workflow set its own CORS header.
func writeAnswer(c fiber.Ctx, a webhook.Answer) error {
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

// webhookErrorStatus is the status of each kind of webhook error.
var webhookErrorStatus = map[webhook.ErrorKind]int{
	webhook.NotFound:     http.StatusNotFound,
	webhook.Conflict:     http.StatusConflict,
	webhook.Invalid:      http.StatusUnprocessableEntity,
	webhook.BadRequest:   http.StatusBadRequest,
	webhook.Unauthorized: http.StatusUnauthorized,
	webhook.Forbidden:    http.StatusForbidden,
	webhook.NoAuthData:   http.StatusInternalServerError,
	webhook.NoAnswer:     http.StatusInternalServerError,
	webhook.NotYet:       http.StatusServiceUnavailable,
	webhook.Unavailable:  http.StatusServiceUnavailable,
	webhook.Timeout:      http.StatusGatewayTimeout,
	webhook.IPRefused:    http.StatusForbidden,
	webhook.NotStarted:   http.StatusInternalServerError,
}

// writeWebhookError answers the webhook errors that n8n does not answer in the JSON error
// shape: failed authentication as plain text with a challenge, and a run that gave no answer
// as an answer any origin may read. false leaves err to the JSON error body.
func writeWebhookError(c fiber.Ctx, err error) (bool, error) {
	var we *webhook.Error
	if !errors.As(err, &we) {
		return false, nil
	}
	status := webhookErrorStatus[we.Kind]
	switch {
	case we.Kind == webhook.IPRefused:
		return true, c.Status(status).SendString(we.Message)
	case we.AuthFailure():
		c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="Webhook"`)
		return true, c.Status(status).SendString(we.Message)
	case we.RunFailure():
		if status == http.StatusServiceUnavailable {
			c.Set(fiber.HeaderRetryAfter, retryAfter)
		}
		return true, writeAnswer(c, trigger.ErrorAnswer(status, we.Message))
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

// registerTestWebhooks answers a manual run that starts at a webhook: the workflow's webhooks
// wait for one call for the test window, for the editor session that asked.
func (s *server) registerTestWebhooks(c fiber.Ctx, raw json.RawMessage, wf *workflow.Workflow, destination, userID string) error {
	err := s.hooks.RegisterTest(c.Context(), webhook.TestRun{SessionID: c.Get("sessionid"), Workflow: raw, Parsed: wf,
		Destination: destination, UserID: userID})
	if err != nil {
		return err
	}
	return respond(c, runResponse{WaitingForWebhook: true})
}

// deleteTestWebhook stops the test webhooks of a workflow (the editor stopped waiting) and
// answers whether there were any.
func (s *server) deleteTestWebhook(c fiber.Ctx) error {
	stopped, err := s.hooks.StopTest(c.Context(), sessionUser(c), c.Params("id"))
	if err != nil {
		return err
	}
	return respond(c, stopped)
}

// newWebhooks builds the webhook runtime of s.
func newWebhooks(s *server) (*webhook.Runtime, error) {
	return webhook.New(webhook.Config{Store: s.in.Store, Redis: s.in.Redis, Queue: s.in.Queue, Publisher: s.in.Publisher,
		Executions: s.executions, Nodes: s.nodeTypes, Evaluator: s.ev, Credentials: s.credentials, Log: s.log,
		WebhookURL: s.cfg.WebhookURL, ResponseTimeout: s.cfg.WebhookResponseTimeout, TestWindow: s.cfg.TestWebhookTimeout, IdempotencyTTL: s.cfg.IdempotencyTTL})
}

// runWebhooksHere lets production webhooks run on the runner of this process (the embedded
// default, where the api holds the worker); see webhook.Runtime.RunHere.
func (s *server) runWebhooksHere(r *execution.Runner) { s.hooks.RunHere(r) }
