package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestPublicAPIContract calls every operation of the OpenAPI document the way n8n's API clients
// do (the key in X-N8N-API-KEY), in success and error cases, and checks every answer against
// the document: the status must be one the operation declares and the body must match its
// schema. It fails when an operation of the document was not called both ways.
func TestPublicAPIContract(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	seen := map[string]map[int]bool{}
	api := apiClient{e: e, key: createKey(t, owner), header: n8nAPIKeyHeader, seen: seen}
	memberAPI := apiClient{e: e, key: createKey(t, member), header: n8nAPIKeyHeader, seen: seen}
	anon := apiClient{e: e, seen: seen}

	// Workflows: nodes may leave out typeVersion and position, which get n8n's defaults.
	var w workflowJSON
	api.ok(t, "POST", "workflows", `{"name":"Orders","nodes":[{"name":"Start","type":"n8n-nodes-base.start","parameters":{}}],"connections":{},"settings":{}}`, &w)
	require.JSONEq(t, `[{"name":"Start","type":"n8n-nodes-base.start","parameters":{},"typeVersion":1,"position":[0,0]}]`, string(w.Nodes))
	api.fails(t, "POST", "workflows", `{"name":"Orders",`+apiNodes+`}`, 400, "already exists")
	api.fails(t, "POST", "workflows", `{"name":"x","nodes":[{"name":"A","type":"t"}],"connections":{"B":{"main":[[{"node":"A","type":"main","index":0}]]}},"settings":{}}`, 400, "B")
	anon.fails(t, "POST", "workflows", `{"name":"x",`+apiNodes+`}`, 401, "X-N8N-API-KEY")
	api.ok(t, "GET", "workflows/"+w.ID, "", nil)
	memberAPI.fails(t, "GET", "workflows/"+w.ID, "", 404, "could not be found")
	api.ok(t, "PUT", "workflows/"+w.ID, `{"name":"Orders v2",`+apiNodes+`}`, nil)
	api.fails(t, "PUT", "workflows/"+w.ID, `{"name":"x"}`, 400, "request/body")
	api.fails(t, "POST", "workflows/"+w.ID+"/activate", "", 400, "could start the workflow")
	var hook workflowJSON
	api.ok(t, "POST", "workflows", `{"name":"Hook","nodes":[{"name":"Hook","type":"n8n-nodes-base.webhook","webhookId":"0f7d5a52-3c1e-4a8b-9f0e-2b6c1d4e5f60","parameters":{"path":"contract-hook"}}],"connections":{},"settings":{}}`, &hook)
	var active workflowJSON
	api.ok(t, "POST", "workflows/"+hook.ID+"/activate", "", &active)
	require.True(t, active.Active)
	api.ok(t, "POST", "workflows/"+hook.ID+"/deactivate", "", &active)
	require.False(t, active.Active)
	api.ok(t, "POST", "workflows/"+w.ID+"/deactivate", "", nil)
	api.fails(t, "POST", "workflows/nope/deactivate", "", 404, "could not be found")
	// A node version this instance does not implement keeps the workflow inactive, naming the versions it has.
	var newer workflowJSON
	api.ok(t, "POST", "workflows", `{"name":"Hook 2","nodes":[{"name":"Hook","type":"n8n-nodes-base.webhook","typeVersion":3,"webhookId":"1a2b3c4d-3c1e-4a8b-9f0e-2b6c1d4e5f60","parameters":{"path":"contract-hook-2"}}],"connections":{},"settings":{}}`, &newer)
	api.fails(t, "POST", "workflows/"+newer.ID+"/activate", "", 400, `has no version 3 here (known versions: 1, 1.1, 2, 2.1)`)

	// name filters by part of the name; tag names of no tag are skipped.
	var page apiList
	api.ok(t, "POST", "workflows", `{"name":"Billing",`+apiNodes+`}`, nil)
	api.ok(t, "GET", "workflows?name=v2", "", &page)
	require.Len(t, page.Data, 1)
	api.ok(t, "GET", "workflows?name=nothing-like-it", "", &page)
	require.Empty(t, page.Data)
	api.ok(t, "GET", "workflows?tags=nosuchtag", "", &page)
	require.Empty(t, page.Data, "no name is a tag")
	api.fails(t, "GET", "workflows?limit=0", "", 400, "request/query/limit")

	// Workflow tags: replace (201) and read back; unknown tags and workflows are 404.
	var ops, prod tagResponse
	api.ok(t, "POST", "tags", `{"name":"ops"}`, &ops)
	api.ok(t, "POST", "tags", `{"name":"prod"}`, &prod)
	api.fails(t, "POST", "tags", `{"name":"ops"}`, 409, "already exists")
	var tags []tagResponse
	status, b := api.call(t, "PUT", "workflows/"+w.ID+"/tags", `[{"id":"`+prod.ID+`"},{"id":"`+ops.ID+`"}]`)
	require.Equal(t, 201, status, string(b))
	require.NoError(t, json.Unmarshal(b, &tags))
	require.Equal(t, []string{"ops", "prod"}, []string{tags[0].Name, tags[1].Name})
	api.fails(t, "PUT", "workflows/"+w.ID+"/tags", `[{"id":"`+ops.ID+`"},{"id":"nope"}]`, 404, "Some tags not found")
	api.fails(t, "PUT", "workflows/"+w.ID+"/tags", `[{"name":"ops"}]`, 400, "request/body/0")
	memberAPI.fails(t, "PUT", "workflows/"+w.ID+"/tags", `[]`, 404, "could not be found")
	api.ok(t, "GET", "workflows/"+w.ID+"/tags", "", &tags)
	require.Len(t, tags, 2, "the failed replace changed nothing")
	memberAPI.fails(t, "GET", "workflows/"+w.ID+"/tags", "", 404, "could not be found")
	api.ok(t, "GET", "workflows?tags=ops,nosuchtag", "", &page)
	require.Len(t, page.Data, 1)
	api.ok(t, "PUT", "workflows/"+w.ID+"/tags", `[]`, nil)
	api.ok(t, "GET", "workflows/"+w.ID+"/tags", "", &tags)
	require.Empty(t, tags)

	// Tags.
	api.ok(t, "GET", "tags?limit=1", "", &page)
	require.NotNil(t, page.NextCursor)
	api.fails(t, "GET", "tags?cursor=garbage", "", 400, "cursor")
	api.ok(t, "GET", "tags/"+ops.ID, "", nil)
	api.fails(t, "GET", "tags/nope", "", 404, "could not be found")
	api.ok(t, "PUT", "tags/"+ops.ID, `{"name":"operations"}`, nil)
	api.fails(t, "PUT", "tags/"+ops.ID, `{"name":"prod"}`, 409, "already exists")
	memberAPI.fails(t, "DELETE", "tags/"+prod.ID, "", 403, "Only the instance owner")
	api.ok(t, "DELETE", "tags/"+prod.ID, "", nil)

	// Executions: a waiting execution leaves stoppedAt out instead of answering null.
	done := seedExecutions(t, e, 1, w.ID, workflow.StatusSuccess)
	wf, until := w.ID, time.Now().Add(time.Hour)
	waiting := &store.Execution{WorkflowID: &wf, WorkflowName: "Orders v2", Status: workflow.StatusWaiting, Mode: "trigger", WaitTill: &until}
	require.NoError(t, e.in.Store.CreateExecution(context.Background(), waiting, &store.ExecutionData{WorkflowData: store.JSON(`{}`)}))
	api.ok(t, "GET", "executions?status=waiting", "", &page)
	require.Len(t, page.Data, 1)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(page.Data[0], &raw))
	require.NotContains(t, raw, "stoppedAt")
	api.fails(t, "GET", "executions?status=bogus", "", 400, "request/query/status")
	api.ok(t, "GET", fmt.Sprintf("executions/%d", waiting.ID), "", &raw)
	require.NotContains(t, raw, "stoppedAt")
	api.ok(t, "GET", fmt.Sprintf("executions/%d", done[0]), "", &raw)
	require.NotEmpty(t, raw["stoppedAt"])
	api.fails(t, "GET", "executions/abc", "", 400, "request/path/id")
	memberAPI.fails(t, "DELETE", fmt.Sprintf("executions/%d", done[0]), "", 404, "could not be found")
	api.ok(t, "DELETE", fmt.Sprintf("executions/%d", done[0]), "", nil)

	// Credentials.
	var unused, inUse credentialJSON
	api.ok(t, "POST", "credentials", `{"name":"Unused","type":"httpBasicAuth","data":{"user":"a","password":"b"}}`, &unused)
	api.ok(t, "POST", "credentials", `{"name":"In use","type":"httpBasicAuth","data":{"user":"a","password":"b"}}`, &inUse)
	api.fails(t, "POST", "credentials", `{"name":"x","type":"httpBasicAuth"}`, 400, "request/body")
	api.ok(t, "GET", "credentials/schema/httpBasicAuth", "", nil)
	api.fails(t, "GET", "credentials/schema/noSuchType", "", 404, "noSuchType")
	api.fails(t, "DELETE", "credentials/nope", "", 404, "")

	// Users: the owner only; by id or e-mail; role with includeRole.
	var users struct {
		Data []apiUserAnswer `json:"data"`
	}
	api.ok(t, "GET", "users?includeRole=true", "", &users)
	require.Len(t, users.Data, 2)
	require.Equal(t, "global:owner", users.Data[0].Role)
	require.Equal(t, "global:member", users.Data[1].Role)
	api.ok(t, "GET", "users?limit=1", "", &page)
	require.Len(t, page.Data, 1)
	require.NotNil(t, page.NextCursor)
	require.NotContains(t, string(page.Data[0]), `"role"`)
	api.ok(t, "GET", "users?cursor="+url.QueryEscape(*page.NextCursor), "", &page)
	require.Len(t, page.Data, 1)
	require.Nil(t, page.NextCursor)
	memberAPI.fails(t, "GET", "users", "", 403, "only the instance owner")
	var u apiUserAnswer
	api.ok(t, "GET", "users/MIA@example.com?includeRole=true", "", &u)
	require.Equal(t, users.Data[1].ID, u.ID)
	require.Equal(t, "global:member", u.Role)
	var plain apiUserAnswer
	api.ok(t, "GET", "users/"+u.ID, "", &plain)
	require.Equal(t, u.ID, plain.ID)
	require.Empty(t, plain.Role)
	api.fails(t, "GET", "users/nobody@example.com", "", 404, "Could not find user")
	api.fails(t, "GET", "users/not-a-user-id", "", 404, "Could not find user")
	memberAPI.fails(t, "GET", "users/"+u.ID, "", 403, "only the instance owner")

	// Source control is never connected.
	api.fails(t, "POST", "source-control/pull", `{"force":true}`, 400, "Source Control is not connected to a repository")
	memberAPI.fails(t, "POST", "source-control/pull", `{}`, 403, "only the instance owner")

	// Audit: see TestPublicAPIAudit for the findings.
	api.ok(t, "POST", "audit", "", nil)
	api.fails(t, "POST", "audit", `{"additionalOptions":{"categories":["everything"]}}`, 400, "request/body/additionalOptions/categories/0")
	memberAPI.fails(t, "POST", "audit", "", 403, "only the instance owner")

	// Deletes last.
	api.ok(t, "DELETE", "credentials/"+unused.ID, "", nil)
	memberAPI.fails(t, "DELETE", "workflows/"+w.ID, "", 404, "could not be found")
	api.ok(t, "DELETE", "workflows/"+w.ID, "", nil)

	// The Flowmill header works as well; a wrong key is refused.
	apiClient{e: e, key: api.key, seen: seen}.ok(t, "GET", "workflows", "", nil)
	apiClient{e: e, key: "flowmill_api_nope", header: n8nAPIKeyHeader, seen: seen}.fails(t, "GET", "workflows", "", 401, "Unauthorized")

	spec, err := loadPublicAPISpec()
	require.NoError(t, err)
	for path, item := range spec.doc.Paths.Map() {
		for method, op := range item.Operations() {
			statuses := seen[op.OperationID]
			require.NotEmpty(t, statuses, "%s %s (%s) was not called", method, path, op.OperationID)
			var ok, failed bool
			for s := range statuses {
				ok = ok || s < 300
				failed = failed || s >= 400
			}
			require.True(t, failed, "%s was not called with an error", op.OperationID)
			require.True(t, ok || op.OperationID == "pull", "%s was not called with success", op.OperationID)
		}
	}
}

// rawPublicAPI calls a public API path outside the document's operations and checks that the
// error body is n8n's {message}.
func rawPublicAPI(t *testing.T, e *testEnv, method, path, contentType, body string, headers ...string) (int, string) {
	t.Helper()
	res, b := call(t, method, e.base+"api/v1/"+path, contentType, strings.NewReader(body), headers...)
	var msg map[string]any
	require.NoError(t, json.Unmarshal([]byte(b), &msg), b)
	require.Len(t, msg, 1, "errors are {\"message\"} only: %s", b)
	m, _ := msg["message"].(string)
	require.NotEmpty(t, m)
	return res.StatusCode, m
}

// TestPublicAPIRequestChecks: the key comes first, then 404/405 for paths and methods, then 415
// for a body that is not JSON.
func TestPublicAPIRequestChecks(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	key := createKey(t, owner)

	for _, c := range []struct{ method, path string }{
		{"GET", "nosuch"}, {"PATCH", "workflows"}, {"GET", "workflows/1/nosuch"}, {"DELETE", "users"},
	} {
		status, msg := rawPublicAPI(t, e, c.method, c.path, "", "")
		require.Equal(t, 401, status, "%s %s: %s", c.method, c.path, msg)
	}
	status, msg := rawPublicAPI(t, e, "GET", "nosuch", "", "", n8nAPIKeyHeader, key)
	require.Equal(t, 404, status, msg)
	status, msg = rawPublicAPI(t, e, "PATCH", "workflows", "", "", n8nAPIKeyHeader, key)
	require.Equal(t, 405, status, msg)
	require.Contains(t, msg, "PATCH")
	status, _ = rawPublicAPI(t, e, "DELETE", "users", "", "", apiKeyHeader, key)
	require.Equal(t, 405, status)
	res, _ := call(t, "POST", e.base+"api/v1/workflows/1", "application/json", strings.NewReader("{}"), n8nAPIKeyHeader, key)
	require.Equal(t, 405, res.StatusCode)
	require.Equal(t, "GET, PUT, DELETE", res.Header.Get("Allow"))
	status, msg = rawPublicAPI(t, e, "POST", "tags", "text/plain", `{"name":"x"}`, n8nAPIKeyHeader, key)
	require.Equal(t, 415, status, msg)
	status, msg = rawPublicAPI(t, e, "PUT", "workflows/1/tags", "", `[]`, n8nAPIKeyHeader, key)
	require.Equal(t, 415, status, msg)
	api := apiClient{e: e, key: key, header: n8nAPIKeyHeader}
	var page apiList
	api.ok(t, "GET", "tags", "", &page)
	require.Empty(t, page.Data, "the refused create wrote nothing")
	// A body-less call needs no content type.
	res, b := owner.raw(t, "POST", "api/v1/audit", "", "Content-Type", "", n8nAPIKeyHeader, key)
	require.Equal(t, 200, res.StatusCode, string(b))
	res, b = owner.raw(t, "POST", "api/v1/audit", "", "Content-Type", "text/plain", n8nAPIKeyHeader, key)
	require.Equal(t, 200, res.StatusCode, string(b))
}

// TestPublicAPIAudit checks the findings of the security audit in n8n's report format.
func TestPublicAPIAudit(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	api := apiClient{e: e, key: createKey(t, owner), header: n8nAPIKeyHeader}

	var unused, used credentialJSON
	api.ok(t, "POST", "credentials", `{"name":"Unused","type":"httpBasicAuth","data":{"user":"a","password":"b"}}`, &unused)
	api.ok(t, "POST", "credentials", `{"name":"Used","type":"httpBasicAuth","data":{"user":"a","password":"b"}}`, &used)
	var risky, hooks workflowJSON
	api.ok(t, "POST", "workflows", `{"name":"Risky","nodes":[
		{"id":"n1","name":"Shell","type":"n8n-nodes-base.executeCommand","parameters":{"command":"ls"}},
		{"id":"n2","name":"Read","type":"n8n-nodes-base.readBinaryFile","parameters":{"filePath":"/tmp/x"}},
		{"id":"n3","name":"Query","type":"n8n-nodes-base.postgres","parameters":{"operation":"executeQuery","query":"=SELECT * FROM t WHERE id = {{ $json.id }}"}},
		{"id":"n4","name":"Call","type":"n8n-nodes-base.httpRequest","parameters":{"url":"https://example.com"},"credentials":{"httpBasicAuth":{"id":"`+used.ID+`","name":"Used"}}}
	],"connections":{},"settings":{}}`, &risky)
	api.ok(t, "POST", "workflows", `{"name":"Hooks","nodes":[
		{"id":"h1","name":"Open","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"6b0c0e55-8a2e-4f3b-9a51-0d7b2f1c1a01","parameters":{"path":"audit-open","httpMethod":"POST"}},
		{"id":"h2","name":"Checked","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,200],"webhookId":"6b0c0e55-8a2e-4f3b-9a51-0d7b2f1c1a02","parameters":{"path":"audit-checked","httpMethod":"POST"}},
		{"id":"h3","name":"If","type":"n8n-nodes-base.if","typeVersion":1,"position":[200,200],"parameters":{}},
		{"id":"h4","name":"Locked","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,400],"webhookId":"6b0c0e55-8a2e-4f3b-9a51-0d7b2f1c1a03","parameters":{"path":"audit-locked","httpMethod":"POST","authentication":"basicAuth"},"credentials":{"httpBasicAuth":{"id":"`+used.ID+`","name":"Used"}}}
	],"connections":{"Checked":{"main":[[{"node":"If","type":"main","index":0}]]}},"settings":{}}`, &hooks)

	type report struct {
		Risk     string         `json:"risk"`
		Sections []auditSection `json:"sections"`
	}
	audit := func(body string) map[string]report {
		var out map[string]report
		api.ok(t, "POST", "audit", body, &out)
		return out
	}
	nodeNames := func(sec auditSection) []string {
		var out []string
		for _, l := range sec.Location {
			require.Equal(t, "node", l.Kind)
			out = append(out, l.WorkflowName+"/"+l.NodeName+"/"+l.NodeID)
		}
		slices.Sort(out)
		return out
	}

	got := audit("")
	require.ElementsMatch(t, []string{"Credentials Risk Report", "Database Risk Report", "Nodes Risk Report",
		"Filesystem Risk Report", "Instance Risk Report"}, keysOf(got))
	creds := got["Credentials Risk Report"]
	require.Equal(t, "credentials", creds.Risk)
	require.Equal(t, "Credentials not used in any workflow", creds.Sections[0].Title)
	require.Equal(t, []auditLocation{{Kind: "credential", ID: unused.ID, Name: "Unused"}}, creds.Sections[0].Location)
	require.Equal(t, "Credentials not used in any active workflow", creds.Sections[1].Title)
	require.Len(t, creds.Sections[1].Location, 2, "the workflow using one is not active")
	require.Equal(t, "Credentials not used in recently executed workflows", creds.Sections[2].Title)
	require.Len(t, creds.Sections[2].Location, 2)
	require.Equal(t, []string{"Risky/Query/n3"}, nodeNames(got["Database Risk Report"].Sections[0]))
	require.Equal(t, []string{"Risky/Call/n4", "Risky/Shell/n1"}, nodeNames(got["Nodes Risk Report"].Sections[0]))
	require.Equal(t, []string{"Risky/Read/n2"}, nodeNames(got["Filesystem Risk Report"].Sections[0]))
	instance := got["Instance Risk Report"]
	require.Len(t, instance.Sections, 1, "no active webhook yet: the settings only")
	require.Equal(t, "Security settings", instance.Sections[0].Title)
	require.Equal(t, true, instance.Sections[0].Settings["features"].(map[string]any)["publicApiEnabled"])

	// A run of the workflow that uses the credential makes it recently used; activating the
	// webhook workflow flags its one unprotected webhook.
	seedExecutions(t, e, 1, risky.ID, workflow.StatusSuccess)
	api.ok(t, "POST", "workflows/"+hooks.ID+"/activate", "", nil)
	got = audit(`{"additionalOptions":{"categories":["credentials","instance"],"daysAbandonedWorkflow":7}}`)
	require.ElementsMatch(t, []string{"Credentials Risk Report", "Instance Risk Report"}, keysOf(got))
	creds = got["Credentials Risk Report"]
	require.Len(t, creds.Sections, 3)
	require.Contains(t, creds.Sections[2].Description, "last 7 days")
	require.Equal(t, []auditLocation{{Kind: "credential", ID: unused.ID, Name: "Unused"}}, creds.Sections[2].Location)
	instance = got["Instance Risk Report"]
	require.Equal(t, "Unprotected webhooks in instance", instance.Sections[0].Title)
	require.Equal(t, []string{"Hooks/Open/h1"}, nodeNames(instance.Sections[0]))
	require.Equal(t, "Security settings", instance.Sections[1].Title)

	api.fails(t, "POST", "audit", `{"additionalOptions":{"daysAbandonedWorkflow":0}}`, 400, "daysAbandonedWorkflow")
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
