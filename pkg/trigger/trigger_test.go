package trigger_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/nodes/respondtowebhook"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func parse(t *testing.T, nodes string) *workflow.Workflow {
	t.Helper()
	wf, err := workflow.Parse([]byte(`{"id":"WF1","name":"w","nodes":` + nodes + `,"connections":{}}`))
	require.NoError(t, err)
	return wf
}

func evaluator(t *testing.T) *expr.Evaluator {
	ev, err := expr.New(expr.Options{})
	require.NoError(t, err)
	return ev
}

func hookNode(name, webhookID, params string) string {
	return fmt.Sprintf(`{"name":%q,"type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":%q,"parameters":%s}`,
		name, webhookID, params)
}

func TestWebhookPaths(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, node           string
		method, path, hookID string
		length               int
	}{
		{"full path", hookNode("Webhook", "abc", `{"path":"/orders/","httpMethod":"POST"}`), "POST", "orders", "", 0},
		{"empty path is the webhook id", hookNode("Webhook", "abc", `{}`), "GET", "abc", "", 0},
		{"dynamic path gets the webhook id", hookNode("Webhook", "abc", `{"path":"user/:id/:op"}`), "GET", "abc/user/:id/:op", "abc", 3},
		{"no webhook id", hookNode("My Hook", "", `{"path":"x"}`), "GET", "WF1/my%20hook/x", "", 0},
		{"expression", hookNode("Webhook", "abc", `{"path":"={{ 'p' + 1 }}","httpMethod":"PUT"}`), "PUT", "p1", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hooks, err := trigger.Webhooks(parse(t, "["+tc.node+"]"), core.Registry(), evaluator(t))
			require.NoError(t, err)
			require.Len(t, hooks, 1)
			h := hooks[0]
			require.Equal(t, tc.method, h.Method)
			require.Equal(t, tc.path, h.Path)
			require.Equal(t, tc.hookID, h.WebhookID)
			require.Equal(t, tc.length, h.PathLength)
			require.Equal(t, trigger.ModeOnReceived, h.Response.Mode)
			require.Equal(t, 200, h.Response.Code)
		})
	}
}

func TestWebhookResponseSettings(t *testing.T) {
	t.Parallel()
	wf := parse(t, "["+hookNode("Webhook", "abc", `{"path":"p","responseMode":"lastNode","responseData":"firstEntryJson","responseCode":201,
	  "options":{"responseHeaders":{"entries":[{"name":"x-a","value":"1"}]},"responseContentType":"text/plain","ignoreBots":true}}`)+"]")
	hooks, err := trigger.Webhooks(wf, core.Registry(), evaluator(t))
	require.NoError(t, err)
	r := hooks[0].Response
	require.Equal(t, trigger.Response{Mode: "lastNode", Code: 201, Data: "firstEntryJson", BinaryPropertyName: "",
		ContentType: "text/plain", Headers: map[string]string{"x-a": "1"}}, r)
	require.True(t, hooks[0].IgnoreBots)
	require.True(t, r.WaitsForRun())

	// noResponseBody turns into noData, as the node's description says.
	wf = parse(t, "["+hookNode("Webhook", "abc", `{"path":"p","options":{"noResponseBody":true}}`)+"]")
	hooks, err = trigger.Webhooks(wf, core.Registry(), evaluator(t))
	require.NoError(t, err)
	require.Equal(t, "noData", hooks[0].Response.Data)
	require.Equal(t, trigger.Answer{Status: 200, Headers: map[string]string{}}, hooks[0].Response.OnReceived())
}

func TestCheck(t *testing.T) {
	t.Parallel()
	set := `{"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[0,0],"parameters":{}}`
	cases := []struct {
		name, nodes string
		want        string
	}{
		{"no trigger", "[" + set + "]", trigger.ErrNoTrigger.Error()},
		{"only a disabled trigger", `[{"name":"Cron","type":"n8n-nodes-base.cron","typeVersion":1,"position":[0,0],"disabled":true,"parameters":{}}]`, trigger.ErrNoTrigger.Error()},
		{"manual trigger does not count", `[{"name":"M","type":"n8n-nodes-base.manualTrigger","typeVersion":1,"position":[0,0],"parameters":{}}]`, trigger.ErrNoTrigger.Error()},
		{"unknown type", `[{"name":"X","type":"n8n-nodes-base.nope","typeVersion":1,"position":[0,0],"parameters":{}}]`, `Node "X": The node type "n8n-nodes-base.nope" is not known`},
		{"unknown version", `[{"name":"Cron","type":"n8n-nodes-base.cron","typeVersion":2,"position":[0,0],"parameters":{}}]`, `Node "Cron": The node type "n8n-nodes-base.cron" has no version 2 here (known version: 1)`},
		{"credentials missing", "[" + hookNode("Webhook", "a", `{"path":"p","authentication":"basicAuth"}`) + "]", `Node "Webhook": Credentials for "httpBasicAuth" are not set.`},
		{"bad cron", `[{"name":"Cron","type":"n8n-nodes-base.cron","typeVersion":1,"position":[0,0],"parameters":{"triggerTimes":{"item":[{"mode":"custom","cronExpression":"nope"}]}}}]`, `Node "Cron": `},
		{"same path twice", "[" + hookNode("A", "a", `{"path":"p"}`) + "," + hookNode("B", "b", `{"path":"p"}`) + "]", `Node "B": The webhook GET "p" is also used by the node "A"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := trigger.Check(parse(t, tc.nodes), core.Registry(), evaluator(t))
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
	hooks, err := trigger.Check(parse(t, "["+hookNode("A", "a", `{"path":"p"}`)+`,
	  {"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[0,0],"webhookId":"w","parameters":{"resume":"webhook"}}]`),
		core.Registry(), evaluator(t))
	require.NoError(t, err)
	require.Len(t, hooks, 1, "the Wait node's resume webhook is not registered")
	var issue *trigger.NodeIssueError
	_, err = trigger.Check(parse(t, `[{"name":"X","type":"x","typeVersion":1,"position":[0,0],"parameters":{}}]`), core.Registry(), evaluator(t))
	require.True(t, errors.As(err, &issue))
	require.Equal(t, "X", issue.Node)
}

func lastNodeResult(items ...workflow.Item) *engine.Result {
	return &engine.Result{Status: workflow.StatusSuccess, State: &engine.State{ResultData: engine.ResultData{
		LastNodeExecuted: "Set",
		RunData:          workflow.RunData{"Set": {{Data: &workflow.TaskDataConnections{Main: [][]workflow.Item{items}}}}},
	}}}
}

func TestFinishedAnswers(t *testing.T) {
	t.Parallel()
	two := lastNodeResult(workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"a": map[string]any{"b": "x"}})}, workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"n": 2.0})})
	json := map[string]string{"content-type": "application/json; charset=utf-8"}
	cases := []struct {
		name string
		r    trigger.Response
		res  *engine.Result
		want trigger.Answer
	}{
		{"first entry", trigger.Response{Mode: "lastNode", Code: 200}, two, trigger.Answer{200, json, []byte(`{"a":{"b":"x"}}`)}},
		{"property", trigger.Response{Mode: "lastNode", Code: 200, PropertyName: "a.b"}, two,
			trigger.Answer{200, map[string]string{"content-type": "text/html; charset=utf-8"}, []byte("x")}},
		{"all entries", trigger.Response{Mode: "lastNode", Code: 202, Data: "allEntries"}, two, trigger.Answer{202, json, []byte(`[{"a":{"b":"x"}},{"n":2}]`)}},
		{"no data", trigger.Response{Mode: "lastNode", Code: 200, Data: "noData"}, two, trigger.Answer{200, map[string]string{}, nil}},
		{"no item", trigger.Response{Mode: "lastNode", Code: 200}, lastNodeResult(), trigger.Answer{500, json, []byte(`{"code":500,"message":"No item to return got found."}`)}},
		{"binary", trigger.Response{Mode: "lastNode", Code: 200, Data: "firstEntryBinary"},
			lastNodeResult(workflow.Item{Binary: map[string]workflow.BinaryData{"data": {Data: "aGk=", MimeType: "text/plain"}}}),
			trigger.Answer{200, map[string]string{"content-type": "text/plain"}, []byte("hi")}},
		{"error", trigger.Response{Mode: "lastNode", Code: 200}, &engine.Result{Status: workflow.StatusError, State: &engine.State{}},
			trigger.Answer{500, json, []byte(`{"message":"Workflow did error."}`)}},
		{"respond node never ran", trigger.Response{Mode: "responseNode", Code: 200}, two,
			trigger.Answer{200, json, []byte(`{"message":"Workflow executed sucessfully"}`)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.r.Finished(tc.res))
		})
	}
	a := trigger.RespondNodeAnswer(&respondtowebhook.Response{StatusCode: 201, Headers: map[string]string{"x-y": "z"}, Body: map[string]any{"ok": true}})
	require.Equal(t, trigger.Answer{201, map[string]string{"content-type": "application/json; charset=utf-8", "x-y": "z"}, []byte(`{"ok":true}`)}, a)
}

func TestWebhookV2Settings(t *testing.T) {
	t.Parallel()
	v2 := func(params string) []trigger.Webhook {
		node := fmt.Sprintf(`{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":2,"position":[0,0],"webhookId":"abc","parameters":%s}`, params)
		hooks, err := trigger.Webhooks(parse(t, "["+node+"]"), core.Registry(), evaluator(t))
		require.NoError(t, err)
		return hooks
	}
	// Several methods: one webhook each, leaving by the method's output.
	hooks := v2(`{"multipleMethods":true,"httpMethod":["PUT","GET","put"],"path":"p"}`)
	require.Len(t, hooks, 2)
	require.Equal(t, []any{"PUT", 0, "GET", 1}, []any{hooks[0].Method, hooks[0].OutputIndex, hooks[1].Method, hooks[1].OutputIndex})
	// The default list of methods.
	hooks = v2(`{"multipleMethods":true,"path":"p"}`)
	require.Equal(t, []string{"GET", "POST"}, []string{hooks[0].Method, hooks[1].Method})
	// One method, the response code from the options, custom or chosen.
	hooks = v2(`{"httpMethod":"POST","path":"p","options":{"responseCode":{"values":{"responseCode":"customCode","customCode":299}},
	  "allowedOrigins":"https://a.example","ipWhitelist":"10.0.0.1"}}`)
	require.Len(t, hooks, 1)
	require.Equal(t, "POST", hooks[0].Method)
	require.Equal(t, 299, hooks[0].Response.Code)
	require.Equal(t, "https://a.example", hooks[0].AllowedOrigins)
	require.Equal(t, "10.0.0.1", hooks[0].IPWhitelist)
	require.Equal(t, 201, v2(`{"path":"p","options":{"responseCode":{"values":{"responseCode":201}}}}`)[0].Response.Code)
	require.Equal(t, 200, v2(`{"path":"p"}`)[0].Response.Code)
	// onReceived's custom body is the response data.
	r := v2(`{"path":"p","options":{"responseData":"thanks"}}`)[0].Response
	require.Equal(t, "thanks", r.Data)
	require.Equal(t, "thanks", string(r.OnReceived().Body))
}
