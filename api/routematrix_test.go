package main

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// TestRoutePermissionMatrix calls every /rest route of the route table (read at test time, so
// routes added later are covered) as each kind of caller and checks the access rule: anonymous
// callers get 401 on every route that is not public; a signed-in caller gets 403 when a deny rule
// matches (member on owner routes, the default user on account routes) before any allow rule is
// looked at, and otherwise reaches the handler.
func TestRoutePermissionMatrix(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	rows := e.srv.routes()
	var rest []route
	for _, r := range rows {
		if strings.HasPrefix(r.path, "/rest/") {
			rest = append(rest, r)
		}
	}
	require.Greater(t, len(rest), 30, "the table has the account routes")

	// Before setup: anonymous and the default user.
	def := e.person()
	def.ok(t, "GET", "rest/login", "", nil)
	before := map[string]string{"anonymous": "", "default": def.session()}
	checkMatrix(t, e, rest, before)

	// After setup: anonymous, a member and the owner.
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "member@example.com", "Mia")
	after := map[string]string{"anonymous": "", "member": member.session(), "owner": owner.session()}
	checkMatrix(t, e, rest, after)

	// Public API rows need a key whoever calls: a session cookie is not enough.
	keyed := 0
	for _, r := range rows {
		if r.access != apiKey {
			continue
		}
		keyed++
		path := pathParam.ReplaceAllString(r.path, "1")
		req, err := http.NewRequest(r.method, e.base+strings.TrimPrefix(path, "/"), strings.NewReader("{}"))
		require.NoError(t, err)
		req.AddCookie(&http.Cookie{Name: "flowmill-auth", Value: owner.session()})
		res, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, 401, res.StatusCode, "%s %s without a key", r.method, r.path)
	}
	require.Greater(t, keyed, 10)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

var pathParam = regexp.MustCompile(`:[A-Za-z]+|\*`)

func checkMatrix(t *testing.T, e *testEnv, rows []route, callers map[string]string) {
	t.Helper()
	client := &http.Client{Timeout: 30 * time.Second}
	// Signing out ends the caller's session, so it comes last.
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b route) int {
		return cmp.Compare(boolInt(a.path == "/rest/logout"), boolInt(b.path == "/rest/logout"))
	})
	for _, r := range rows {
		path := pathParam.ReplaceAllString(r.path, "matrix-missing")
		for who, cookie := range callers {
			req, err := http.NewRequest(r.method, e.base+strings.TrimPrefix(path, "/"), strings.NewReader("{}"))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if cookie != "" {
				req.AddCookie(&http.Cookie{Name: "flowmill-auth", Value: cookie})
			}
			res, err := client.Do(req)
			require.NoError(t, err, "%s %s as %s", r.method, path, who)
			res.Body.Close()
			want := expectedAccess(r.access, who)
			label := fmt.Sprintf("%s %s as %s: status %d", r.method, r.path, who, res.StatusCode)
			switch want {
			case 401, 403:
				require.Equal(t, want, res.StatusCode, label)
			default:
				require.NotEqual(t, 403, res.StatusCode, label)
				if r.access != public {
					require.NotEqual(t, 401, res.StatusCode, label)
				}
			}
		}
	}
}

// expectedAccess is the one table of the rules: the status a caller gets from the guard, 0 when
// the guard lets the call through to its handler.
func expectedAccess(a access, who string) int {
	if a == public {
		return 0
	}
	if who == "anonymous" {
		return 401
	}
	deny := map[access][]string{ownerOnly: {"member"}, accountOnly: {"default"}}
	for _, denied := range deny[a] {
		if denied == who {
			return 403
		}
	}
	return 0
}

// ownedBy is, for every signed-in route that names a resource by id in its path, the kind of
// resource it names; "" for routes whose ids name nothing a user owns (node types, tags, which
// every user shares). A new route with an id must be added here, so the ownership matrix below
// covers it.
var ownedBy = map[string]string{
	"GET /rest/node-icon/:type":              "",
	"GET /rest/node-icon/:scope/:type":       "",
	"PATCH /rest/tags/:id":                   "",
	"GET /rest/workflows/:id":                "workflow",
	"PATCH /rest/workflows/:id":              "workflow",
	"DELETE /rest/workflows/:id":             "workflow",
	"GET /rest/active/error/:id":             "workflow",
	"GET /rest/executions/:id":               "execution",
	"POST /rest/executions/:id/retry":        "execution",
	"POST /rest/executions-current/:id/stop": "execution",
	"GET /rest/data/:id":                     "binary",
	"DELETE /rest/test-webhook/:id":          "testWebhook",
	"GET /rest/credentials/:id":              "credential",
	"PATCH /rest/credentials/:id":            "credential",
	"DELETE /rest/credentials/:id":           "credential",
	"GET /rest/credential-icon/:name":        "",

	"GET /api/v1/workflows/:id":                          "workflow",
	"PUT /api/v1/workflows/:id":                          "workflow",
	"DELETE /api/v1/workflows/:id":                       "workflow",
	"POST /api/v1/workflows/:id/activate":                "workflow",
	"POST /api/v1/workflows/:id/deactivate":              "workflow",
	"GET /api/v1/executions/:id":                         "execution",
	"DELETE /api/v1/executions/:id":                      "execution",
	"DELETE /api/v1/credentials/:id":                     "credential",
	"GET /api/v1/credentials/schema/:credentialTypeName": "",
	"GET /api/v1/tags/:id":                               "",
	"PUT /api/v1/tags/:id":                               "",
	"DELETE /api/v1/tags/:id":                            "",
	"GET /api/v1/docs/*":                                 "",
	"GET /api/v1/workflows/:id/tags":                     "workflow",
	"PUT /api/v1/workflows/:id/tags":                     "workflow",
	"GET /api/v1/users/:id":                              "",
}

// TestRouteOwnershipMatrix calls every signed-in /rest route that names a resource by id with
// the id of the owner's resource, as a member: each answers 404, as for an id that does not
// exist, and leaves the resource as it was; the owner reaches every one of them.
func TestRouteOwnershipMatrix(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "member@example.com", "Mia")
	var ownerID string
	{
		var me userResponse
		owner.ok(t, "GET", "rest/me", "", &me)
		ownerID = me.ID
	}

	wfID := saveAs(t, owner, hookWorkflow("Owner's hook", "matrix-hook", `{"path":"matrix"}`))
	listenForTestCall(t, &holdings{who: owner, hookWF: wfID})
	state := `{"resultData":{"runData":{"A":[{"startTime":1,"executionTime":0,"source":[],"data":{"main":[[{"json":{},"binary":{"data":{"data":"aGk=","mimeType":"text/plain"}}}]]}}]}}}`
	ex := &store.Execution{WorkflowID: &wfID, WorkflowName: "Owner's hook", Status: workflow.StatusWaiting, Mode: "manual", UserID: ownerID}
	require.NoError(t, e.in.Store.CreateExecution(context.Background(), ex,
		&store.ExecutionData{WorkflowData: store.JSON(`{"nodes":[],"connections":{}}`), Data: store.JSON(state)}))
	var cred credentialResponse
	apiClient{e: e, key: createKeyOnce(t, owner)}.ok(t, "POST", "credentials",
		`{"name":"Owner's vault","type":"httpBasicAuth","data":{"user":"u","password":"p"}}`, &cred)
	ids := map[string]string{"workflow": wfID, "execution": fmt.Sprint(ex.ID), "testWebhook": wfID,
		"binary": fmt.Sprintf("execution:%d:A:0:0:0:data", ex.ID), "credential": cred.ID}
	memberAPI := apiClient{e: e, key: createKeyOnce(t, member)}

	covered := 0
	for _, r := range e.srv.routes() {
		rest := r.access == signedIn && strings.HasPrefix(r.path, "/rest/")
		if !(rest || r.access == apiKey || strings.HasPrefix(r.path, "/api/v1/")) || !pathParam.MatchString(r.path) {
			continue
		}
		key := r.method + " " + r.path
		kind, listed := ownedBy[key]
		require.True(t, listed, "%s names an id: add it to ownedBy", key)
		if kind == "" {
			continue
		}
		covered++
		path := pathParam.ReplaceAllString(r.path, ids[kind])
		body := "{}"
		switch r.method {
		case "PATCH":
			body = `{"name":"taken over","active":true}`
		case "PUT":
			body = `{"name":"taken over",` + apiNodes + `}`
			if strings.HasSuffix(r.path, "/tags") {
				body = `[]`
			}
		}
		if rest {
			status, b := member.call(t, r.method, path, body)
			require.Equal(t, 404, status, "%s as the member: %s", key, b)
			require.Contains(t, string(b), "could not be found", key)
			continue
		}
		memberAPI.fails(t, r.method, strings.TrimPrefix(path, "/api/v1/"), body, 404, "could not be found")
	}
	require.Equal(t, 22, covered)

	// Routes that take the ids in their body.
	status, b := member.call(t, "POST", "rest/workflows/run", fmt.Sprintf(`{"workflowData":{"id":%q,"name":"x","nodes":[%s],"connections":{}}}`, wfID, startNode))
	requireError(t, status, b, 404, "could not be found")
	member.ok(t, "POST", "rest/executions/delete", fmt.Sprintf(`{"ids":[%q]}`, ids["execution"]), nil)

	// Nothing changed: the owner still finds everything as it was.
	var wf workflowJSON
	owner.ok(t, "GET", "rest/workflows/"+wfID, "", &wf)
	require.Equal(t, "Owner's hook", wf.Name)
	require.False(t, wf.Active)
	require.Equal(t, "waiting", executionStatus(t, owner, ids["execution"]))
	var data string
	owner.ok(t, "GET", "rest/data/"+ids["binary"], "", &data)
	require.Equal(t, "aGk=", data)
	var stopped bool
	owner.ok(t, "DELETE", "rest/test-webhook/"+wfID, "", &stopped)
	require.True(t, stopped, "the owner's test webhook was still waiting")
	var creds []credentialResponse
	owner.ok(t, "GET", "rest/credentials", "", &creds)
	require.Contains(t, credentialIDs(creds), cred.ID)
	owner.ok(t, "POST", "rest/executions-current/"+ids["execution"]+"/stop", "", nil)
	require.Equal(t, "canceled", executionStatus(t, owner, ids["execution"]))
	owner.ok(t, "DELETE", "rest/workflows/"+wfID, "", nil)
}
