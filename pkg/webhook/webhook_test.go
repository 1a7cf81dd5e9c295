package webhook_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra/infratest"
	"github.com/flowmill/flowmill/pkg/webhook"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// runtime builds a started runtime on a fresh Postgres schema and Redis database.
func runtime(t *testing.T) *webhook.Runtime {
	t.Helper()
	rt := idleRuntime(t)
	require.NoError(t, rt.Start(context.Background()))
	t.Cleanup(rt.Stop)
	return rt
}

// idleRuntime builds a runtime that is not started.
func idleRuntime(t *testing.T) *webhook.Runtime {
	t.Helper()
	in := infratest.Open(t, map[string]string{"FLOWMILL_ENCRYPTION_KEY": "webhook-test-key-0123"})
	cfg := in.Config
	cipher, err := credential.NewCipher(cfg.EncryptionKey)
	require.NoError(t, err)
	svc, err := execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis})
	require.NoError(t, err)
	rt, err := webhook.New(webhook.Config{Store: in.Store, Redis: in.Redis, Queue: in.Queue, Publisher: in.Publisher,
		Executions: svc, Nodes: in.Nodes, Evaluator: in.Eval, Credentials: cipher,
		Log: in.Log, ResponseTimeout: cfg.WebhookResponseTimeout, TestWindow: cfg.TestWebhookTimeout})
	require.NoError(t, err)
	return rt
}

// hookWorkflow is an unsaved workflow with one webhook node.
func hookWorkflow(t *testing.T, id, webhookID, params string) (*workflow.Workflow, []byte) {
	t.Helper()
	doc := []byte(`{"id":"` + id + `","name":"Hook","nodes":[{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,
		"webhookId":"` + webhookID + `","position":[0,0],"parameters":` + params + `}],"connections":{}}`)
	wf, err := workflow.Parse(doc)
	require.NoError(t, err)
	return wf, doc
}

func call(kind webhook.Kind, method, path string) webhook.Call {
	return webhook.Call{Kind: kind, Path: path, Request: httptest.NewRequest(method, "/x", strings.NewReader(""))}
}

func requireKind(t *testing.T, err error, kind webhook.ErrorKind) *webhook.Error {
	t.Helper()
	var we *webhook.Error
	require.True(t, errors.As(err, &we), "%v", err)
	require.Equal(t, kind, we.Kind, we.Message)
	return we
}

func TestTestWebhookServesOneCallOnItsDynamicPath(t *testing.T) {
	rt, ctx := runtime(t), context.Background()
	wf, doc := hookWorkflow(t, "wf1", "hook1", `{"httpMethod":"POST","path":"user/:id"}`)
	require.NoError(t, rt.RegisterTest(ctx, webhook.TestRun{Workflow: doc, Parsed: wf}))

	// Another workflow may not wait on the same path.
	other, otherDoc := hookWorkflow(t, "wf2", "hook1", `{"httpMethod":"POST","path":"user/:id"}`)
	err := rt.RegisterTest(ctx, webhook.TestRun{Workflow: otherDoc, Parsed: other})
	requireKind(t, err, webhook.Conflict)

	// A preflight lists the methods waiting on the path.
	a, err := rt.Serve(ctx, call(webhook.Test, http.MethodOptions, "hook1/user/:id"))
	require.NoError(t, err)
	require.Equal(t, http.StatusNoContent, a.Status)
	require.Equal(t, "POST, OPTIONS", a.Headers["Allow"])

	a, err = rt.Serve(ctx, call(webhook.Test, http.MethodPost, "hook1/user/7"))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, a.Status)
	require.JSONEq(t, `{"message":"Workflow was started"}`, string(a.Body))

	// One call only.
	_, err = rt.Serve(ctx, call(webhook.Test, http.MethodPost, "hook1/user/7"))
	we := requireKind(t, err, webhook.NotFound)
	require.Equal(t, webhook.HintTestUnregistered, we.Hint)
}

func TestWebhookCallsThatCannotBeServed(t *testing.T) {
	rt, ctx := runtime(t), context.Background()
	_, err := rt.Serve(ctx, call(webhook.Production, http.MethodGet, "nowhere"))
	we := requireKind(t, err, webhook.NotFound)
	require.Equal(t, `The requested webhook "GET nowhere" is not registered.`, we.Message)
	require.Equal(t, webhook.HintProductionUnregistered, we.Hint)

	_, err = rt.Serve(ctx, call(webhook.Production, http.MethodOptions, "nowhere"))
	requireKind(t, err, webhook.NotFound)

	c := call(webhook.Waiting, http.MethodGet, "")
	c.ExecutionID = "abc"
	_, err = rt.Serve(ctx, c)
	requireKind(t, err, webhook.NotFound)

	// Basic authentication without a credential selected on the node cannot check anyone.
	wf, doc := hookWorkflow(t, "wf3", "hook3", `{"path":"guarded-hook3","authentication":"basicAuth"}`)
	require.NoError(t, rt.RegisterTest(ctx, webhook.TestRun{Workflow: doc, Parsed: wf}))
	_, err = rt.Serve(ctx, call(webhook.Test, http.MethodGet, "guarded-hook3"))
	we = requireKind(t, err, webhook.NoAuthData)
	require.True(t, we.AuthFailure())
}

func TestStopIsSafeTwiceAndBeforeStart(t *testing.T) {
	rt := runtime(t)
	rt.Stop()
	rt.Stop()
	idleRuntime(t).Stop()

	invalid, err := webhook.New(webhook.Config{})
	require.Error(t, err)
	require.Nil(t, invalid)
}
