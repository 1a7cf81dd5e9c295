package main

import (
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/mail/mailtest"
)

// TestAttacksFailOnRealProcesses replays, against the built binaries of the embedded default and
// of the scaled stack, the attacks a stranger and a member tried on a fresh install: each one now
// fails with a clear error. A trusted proxy on loopback stands for callers on other machines.
func TestAttacksFailOnRealProcesses(t *testing.T) {
	for _, mode := range []string{"embedded", "scaled"} {
		t.Run(mode, func(t *testing.T) {
			smtp := mailtest.Start(t)
			settings := []string{"FLOWMILL_TRUSTED_PROXIES", "127.0.0.1",
				"FLOWMILL_SMTP_HOST", smtp.Host, "FLOWMILL_SMTP_PORT", fmt.Sprint(smtp.Port), "FLOWMILL_SMTP_SSL", "false",
				"FLOWMILL_SMTP_SENDER", "Flowmill <flowmill@example.com>",
				"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true"}
			var base string
			if mode == "embedded" {
				_, base = startEmbedded(t, settings...)
			} else {
				base, _, _, _ = scaledStack(t, 1, settings...)
			}
			attack(t, &testEnv{base: base}, smtp)
		})
	}
}

func attack(t *testing.T, e *testEnv, smtp *mailtest.Server) {
	// 1. No anonymous owner: a stranger gets neither a session nor the setup.
	stranger := e.from("203.0.113.5")
	status, b := stranger.call(t, "GET", "rest/login", "")
	requireError(t, status, b, 401, "only open on the machine it runs on")
	status, _ = stranger.call(t, "POST", "rest/owner", `{"email":"evil@example.com","firstName":"E","lastName":"V","password":"Passw0rd!"}`)
	require.Equal(t, 401, status)

	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "member@example.com", "Mia")

	// 2. No shell for members, no files outside the files folder, no secrets through $env.
	status, b = member.call(t, "POST", "rest/workflows/run", `{"workflowData":{"name":"shell","nodes":[`+startNode+`,
	 {"name":"Shell","type":"n8n-nodes-base.executeCommand","typeVersion":1,"position":[200,0],"parameters":{"command":"id"}}],
	 "connections":{"Start":{"main":[[{"node":"Shell","type":"main","index":0}]]}}}}`)
	requireError(t, status, b, 422, "FLOWMILL_NODES_ENABLE")
	out := runAndWait(t, member, `{"name":"environ","nodes":[`+startNode+`,
	 {"name":"Read","type":"n8n-nodes-base.readBinaryFile","typeVersion":1,"position":[200,0],"parameters":{"filePath":"/proc/self/environ"}}],
	 "connections":{"Start":{"main":[[{"node":"Read","type":"main","index":0}]]}}}`)
	require.Contains(t, out, "FLOWMILL_FILES_DIR")
	require.NotContains(t, out, "FLOWMILL_SMTP_HOST")

	// 6. Server-side fetches: no cloud metadata for nodes, no loopback for Import from URL.
	out = runAndWait(t, member, `{"name":"metadata","nodes":[`+startNode+`,
	 {"name":"Fetch","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[200,0],"parameters":{"url":"http://169.254.169.254/latest/meta-data/"}}],
	 "connections":{"Start":{"main":[[{"node":"Fetch","type":"main","index":0}]]}}}`)
	require.Contains(t, out, "The address 169.254.169.254 is not allowed")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() {
		_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{}`)) }))
	}()
	t.Cleanup(func() { ln.Close() })
	status, b = member.call(t, "GET", "rest/workflows/from-url?url=http://"+ln.Addr().String()+"/wf.json", "")
	requireError(t, status, b, 400, "is not allowed")
	status, _ = member.call(t, "GET", "rest/workflows/from-url?url=http://"+ln.Addr().String()+"/x%23.json", "")
	require.Equal(t, 400, status)

	// 4. and 8. A member reaches none of the owner's workflows: not as a sub-workflow, not
	// through its test webhooks.
	var secret struct{ ID string }
	secretNodes := `[{"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],
	  "webhookId":"0b5e6f7a-1c2d-4e3f-8a9b-0c1d2e3f4a5b","parameters":{"path":"owner-secret"}}]`
	owner.ok(t, "POST", "rest/workflows", `{"name":"owner secret","nodes":`+secretNodes+`,"connections":{}}`, &secret)
	var listening runResponse
	owner.ok(t, "POST", "rest/workflows/run", `{"workflowData":{"id":"`+secret.ID+`","name":"owner secret","nodes":`+secretNodes+`,"connections":{}}}`, &listening)
	require.True(t, listening.WaitingForWebhook)
	out = runAndWait(t, member, `{"name":"idor","nodes":[`+startNode+`,
	 {"name":"Sub","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"position":[200,0],"parameters":{"source":"database","workflowId":"`+secret.ID+`"}}],
	 "connections":{"Start":{"main":[[{"node":"Sub","type":"main","index":0}]]}}}`)
	require.Contains(t, out, "could not be found or you may not run it")
	status, b = member.call(t, "DELETE", "rest/test-webhook/"+secret.ID, "")
	require.Equal(t, 404, status, "%s", b)
	var removed bool
	owner.ok(t, "DELETE", "rest/test-webhook/"+secret.ID, "", &removed)
	require.True(t, removed, "the owner's test webhook was still listening")

	// 3. A member's HTML webhook page runs no script with the editor's origin.
	var created struct{ ID string }
	member.ok(t, "POST", "rest/workflows", respondWorkflow("promo", "GET", `{"respondWith":"text",
	  "responseBody":"<script>fetch('/rest/me/api-key',{method:'POST'})</script>",
	  "options":{"responseHeaders":{"entries":[{"name":"content-type","value":"text/html"}]}}}`), &created)
	member.ok(t, "PATCH", "rest/workflows/"+created.ID, `{"active":true}`, nil)
	var page *http.Response
	require.Eventually(t, func() bool {
		page, _ = owner.raw(t, "GET", "webhook/promo", "")
		return page.StatusCode == 200
	}, 10*time.Second, 50*time.Millisecond)
	require.Contains(t, page.Header.Get("Content-Security-Policy"), "sandbox")
	require.Equal(t, "nosniff", page.Header.Get("X-Content-Type-Options"))

	// 5. Cross-site requests with the owner's cookie are refused.
	status, b = owner.call(t, "POST", "rest/workflows", ``)
	require.Equal(t, 400, status, "an empty JSON call still reaches the handler: %s", b)
	res, b := owner.raw(t, "POST", "rest/workflows", `{"name":"csrf","nodes":[],"connections":{}}`, "Content-Type", "text/plain")
	requireError(t, res.StatusCode, b, 415, "application/json")
	res, b = owner.raw(t, "POST", "rest/workflows", `{"name":"csrf","nodes":[],"connections":{}}`, "Origin", "http://evil.example")
	requireError(t, res.StatusCode, b, 403, "Cross-site request refused")
	page, _ = owner.raw(t, "GET", "workflow/new", "")
	require.Contains(t, page.Header.Get("Content-Security-Policy"), "script-src 'self'")
	require.Equal(t, "DENY", page.Header.Get("X-Frame-Options"))

	// 7. A stranger's guesses do not lock the owner out; signing out ends the session.
	for range 12 {
		status, _ = stranger.call(t, "POST", "rest/login", `{"email":"owner@example.com","password":"Guess1234"}`)
		require.Contains(t, []int{401, 429}, status)
	}
	again := e.from("198.51.100.20")
	again.ok(t, "POST", "rest/login", `{"email":"owner@example.com","password":"`+testPassword+`"}`, nil)
	cookie := again.session()
	again.ok(t, "POST", "rest/logout", "", nil)
	res, _ = e.do(t, "GET", "rest/me", "", "Cookie", "flowmill-auth="+cookie)
	require.Equal(t, 401, res.StatusCode)
	status, b = e.person().call(t, "GET", "rest/resolve-signup-token?inviterId=x&inviteeId=y", "")
	requireError(t, status, b, 400, "token are all required")
}

// runAndWait runs a workflow as p (saved manual executions) and returns the finished
// execution's JSON.
func runAndWait(t *testing.T, p *person, wf string) string {
	t.Helper()
	var run runResponse
	p.ok(t, "POST", "rest/workflows/run", `{"workflowData":`+wf+`}`, &run)
	require.NotEmpty(t, run.ExecutionID)
	var body []byte
	require.Eventually(t, func() bool {
		var status int
		status, body = p.call(t, "GET", "rest/executions/"+run.ExecutionID, "")
		var e executionSummary
		if status != 200 {
			return false
		}
		decodeData(t, body, &e)
		return e.StoppedAt != nil
	}, 20*time.Second, 50*time.Millisecond, "execution %s did not finish: %s", run.ExecutionID, func() string { _, b := p.call(t, "GET", "rest/executions/"+run.ExecutionID, ""); return string(b) }())
	return string(body)
}
