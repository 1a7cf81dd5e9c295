package execution_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// A webhook execution run in the api's own process is stored claimed before it runs, answers
// the waiting request without Redis, and ends as a queued one does.
func TestWebhookRunsHereWithoutTheQueue(t *testing.T) {
	e := setup(t)
	answers := make(chan execution.WebhookAnswer, 1)
	e.runner.DeliverAnswersHere(func(wa execution.WebhookAnswer) bool {
		answers <- wa
		return true
	})
	e.svc.RunWebhooksOn(e.runner)
	wf := build(t, "here", "", node{name: "Webhook", typ: "n8n-nodes-base.webhook", params: `{"path":"here"}`}, set)
	ex, err := e.svc.Create(context.Background(), execution.New{Workflow: wf, Mode: "webhook",
		Start: execution.StartData{StartNode: "Webhook", Input: []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"n": 1.0})}},
			Respond: &trigger.Response{Mode: trigger.ModeLastNode, Code: 200, Token: "tok"}}})
	require.NoError(t, err)
	require.Equal(t, workflow.StatusRunning, ex.Status, "stored already claimed, not queued")

	select {
	case wa := <-answers:
		require.Equal(t, "tok", wa.Token)
		require.Equal(t, ex.ID, wa.ExecutionID)
		require.Equal(t, 200, wa.Answer.Status)
		require.JSONEq(t, `{"n":1,"a":1}`, string(wa.Answer.Body))
	case <-time.After(10 * time.Second):
		t.Fatal("no answer")
	}
	done := e.wait(t, ex.ID)
	require.Equal(t, workflow.StatusSuccess, done.Status)
	require.Empty(t, done.LeaseOwner)
	n, err := e.in.Redis.Exists(context.Background(), "flowmill:webhook:response:"+execution.IDString(ex.ID)).Result()
	require.NoError(t, err)
	require.Zero(t, n, "the answer did not go through Redis")
}
