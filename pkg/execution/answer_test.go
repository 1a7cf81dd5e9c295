package execution_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var respond = node{name: "Respond", typ: "n8n-nodes-base.respondToWebhook",
	params: `{"respondWith":"json","responseBody":"={{ JSON.stringify({a: $json.a}) }}"}`}

// TestWebhookAnswerGoesOnceAndIsKept: whether the run's last node, a node before the end or the
// finished run decides the answer, and whether the execution is kept or not, the waiting api
// gets it in one message and the same answer is kept in the database by then. (A second
// message of a case would be the first the next case receives, and fail its id check.)
func TestWebhookAnswerGoesOnceAndIsKept(t *testing.T) {
	e := setup(t)
	ctx := context.Background()
	published := make(chan execution.WebhookAnswer, 10)
	sub := bus.WebhookAnswers.Subscribe(e.in.Redis, func(m json.RawMessage) {
		var wa execution.WebhookAnswer
		require.NoError(t, json.Unmarshal(m, &wa))
		published <- wa
	}, bus.SubscriberConfig{})
	require.NoError(t, sub.Start(ctx))
	t.Cleanup(sub.Stop)
	hook := node{name: "Webhook", typ: "n8n-nodes-base.webhook", params: `{"path":"answer","responseMode":"responseNode"}`}
	after := node{name: "After", typ: "n8n-nodes-base.set", params: `{"values":{"number":[{"name":"b","value":2}]}}`}
	const notKept = `{"saveDataSuccessExecution":"none"}`
	for _, tc := range []struct {
		name, settings string
		mode           string
		nodes          []node
		body           string
	}{
		{"respond last", "", trigger.ModeResponseNode, []node{hook, set, respond}, `{"a":1}`},
		{"respond last, not kept", notKept, trigger.ModeResponseNode, []node{hook, set, respond}, `{"a":1}`},
		{"respond before the end", "", trigger.ModeResponseNode, []node{hook, set, respond, after}, `{"a":1}`},
		{"last node", "", trigger.ModeLastNode, []node{hook, set}, `{"n":1,"a":1}`},
		{"last node, not kept", notKept, trigger.ModeLastNode, []node{hook, set}, `{"n":1,"a":1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wf := build(t, tc.name, tc.settings, tc.nodes...)
			ex, err := e.svc.Create(ctx, execution.New{Workflow: wf, Mode: workflow.ModeWebhook,
				Start: execution.StartData{StartNode: "Webhook", Input: []workflow.Item{{JSON: workflow.ObjectOf("n", 1.0)}},
					Respond: &trigger.Response{Mode: tc.mode, Code: 200, Token: "tok-" + tc.name}}})
			require.NoError(t, err)
			var wa execution.WebhookAnswer
			select {
			case wa = <-published:
			case <-time.After(20 * time.Second):
				t.Fatal("no answer published")
			}
			require.Equal(t, ex.ID, wa.ExecutionID)
			require.Equal(t, "tok-"+tc.name, wa.Token)
			require.Equal(t, 200, wa.Answer.Status)
			require.JSONEq(t, tc.body, string(wa.Answer.Body))
			kept, err := e.in.Store.GetWebhookAnswer(ctx, ex.ID)
			require.NoError(t, err, "the answer is kept before it is published")
			var keptAnswer execution.WebhookAnswer
			require.NoError(t, json.Unmarshal(kept, &keptAnswer))
			require.Equal(t, wa, keptAnswer)
			if tc.settings == "" {
				require.Equal(t, workflow.StatusSuccess, e.wait(t, ex.ID).Status)
			}
		})
	}
}
