package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/mail/mailtest"
)

// holdings are the resources one user's workflows can reference by id.
type holdings struct {
	who  *person
	name string
	key  string // the user's API key
	// secretWF runs Start → Code, whose output is the holder's secret; a sub-workflow target.
	secretWF string
	// waitWF runs Start → Code (the secret, with binary data) → Wait for an hour.
	waitWF string
	// exec is a run of waitWF, waiting; binary is its Code node's binary data id.
	exec, binary string
	// hookWF is a saved Webhook → Set workflow whose test webhook the holder waits for.
	hookWF string
	// credID is the holder's basic auth credential, whose password is the secret.
	credID, credName string
}

func secretOf(name string) string { return name + "-secret-value" }

// TestMemberCannotReachAnotherUsersResources goes over every resource id a workflow can
// reference (workflow, credential, execution, binary data, test webhook) held by the owner and
// by a member, and calls each through the HTTP api, and from inside a run, as the owner, the
// holder and another member: the other member is refused with a clear 4xx or node error, reads
// nothing of the holder's and changes nothing, while the owner and the holder succeed.
func TestMemberCannotReachAnotherUsersResources(t *testing.T) {
	smtp := mailtest.Start(t)
	e := startWithWorker(t, map[string]string{
		"FLOWMILL_SMTP_HOST": smtp.Host, "FLOWMILL_SMTP_PORT": fmt.Sprint(smtp.Port), "FLOWMILL_SMTP_SSL": "false",
		"FLOWMILL_SMTP_SENDER": "Flowmill <flowmill@example.com>",
	})
	// The HTTP Request node calls this with the credential it was given.
	var (
		mu       sync.Mutex
		received []string
	)
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		mu.Lock()
		received = append(received, user+":"+pass)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":true}`)
	}))
	t.Cleanup(sink.Close)
	sawSecret := func(name string) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range received {
			if strings.Contains(r, secretOf(name)) {
				return true
			}
		}
		return false
	}

	owner := setUpOwner(t, e)
	mia, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	bob, bobID := signUpMember(t, owner, smtp, "bob@example.com", "Bob")
	holders := []*holdings{hold(t, e, owner, "owner"), hold(t, e, mia, "mia")}

	for _, h := range holders {
		t.Run("of "+h.name, func(t *testing.T) {
			// Workflows over REST.
			status, b := bob.call(t, "GET", "rest/workflows/"+h.secretWF, "")
			requireError(t, status, b, 404, "could not be found")
			status, b = bob.call(t, "PATCH", "rest/workflows/"+h.secretWF, `{"name":"taken over"}`)
			requireError(t, status, b, 404, "could not be found")
			status, b = bob.call(t, "PATCH", "rest/workflows/"+h.hookWF, `{"active":true}`)
			requireError(t, status, b, 404, "could not be found")
			status, b = bob.call(t, "DELETE", "rest/workflows/"+h.secretWF, "")
			requireError(t, status, b, 404, "could not be found")
			status, b = bob.call(t, "POST", "rest/workflows/run", fmt.Sprintf(`{"workflowData":{"id":%q,"name":"x","nodes":[%s],"connections":{}}}`, h.secretWF, startNode))
			requireError(t, status, b, 404, "Workflow with ID "+h.secretWF+" could not be found")
			var wf workflowJSON
			h.who.ok(t, "GET", "rest/workflows/"+h.secretWF, "", &wf)
			require.Equal(t, "Secret of "+h.name, wf.Name, "the workflow is unchanged")
			h.who.ok(t, "GET", "rest/workflows/"+h.hookWF, "", &wf)
			require.False(t, wf.Active, "the workflow was not activated")

			// Workflows as Execute Workflow's sub-workflow, from an unsaved and from a saved workflow.
			call := callWorkflow(h.secretWF)
			refused := "Workflow " + h.secretWF + " could not be found or you may not run it."
			for _, saved := range []bool{false, true} {
				out, errMsg := runManually(t, bob, call, saved, "Call")
				require.Equal(t, refused, errMsg, "saved %v", saved)
				require.NotContains(t, out, secretOf(h.name))
			}
			out, errMsg := runManually(t, bob, callWorkflow("no-such-workflow"), false, "Call")
			require.Equal(t, "Workflow no-such-workflow could not be found or you may not run it.", errMsg,
				"a missing workflow reads the same as one the caller may not run")
			require.Empty(t, out)
			// A sub-workflow given as JSON that carries the holder's workflow id is not recorded as
			// a run of that workflow, so retrying it with the saved workflow loads nothing of theirs.
			spoof := fmt.Sprintf(`{"id":%q,"name":"spoof","nodes":[%s,%s],"connections":{"Start":{"main":[[{"node":"Code","type":"main","index":0}]]}}}`,
				h.secretWF, startNode, codeNode(`throw new Error("fail on purpose")`))
			_, errMsg = runManually(t, bob, line("Spoofs "+h.name, fmt.Sprintf(`{"name":"Call","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,
				"position":[200,0],"parameters":{"source":"parameter","workflowJson":%q}}`, spoof)), false, "Call")
			require.Contains(t, errMsg, "fail on purpose")
			var page struct {
				Results []executionSummary `json:"results"`
			}
			bob.ok(t, "GET", "rest/executions", "", &page)
			var child *executionSummary
			for i, r := range page.Results {
				if r.Mode == "integrated" && r.WorkflowName == "spoof" {
					child = &page.Results[i]
					break
				}
			}
			require.NotNil(t, child, "the member sees the sub-workflow run that acted for them")
			require.Nil(t, child.WorkflowID)
			status, b = bob.call(t, "POST", "rest/executions/"+child.ID+"/retry", `{"loadWorkflow":true}`)
			requireError(t, status, b, 400, "never saved")
			require.NotContains(t, string(b), secretOf(h.name))
			bob.ok(t, "POST", "rest/executions/delete", fmt.Sprintf(`{"ids":[%q]}`, child.ID), nil)

			for _, p := range []*person{owner, h.who} {
				out, errMsg = runManually(t, p, call, true, "Call")
				require.Empty(t, errMsg)
				require.Contains(t, out, secretOf(h.name), "the owner and the holder run it")
			}

			// Credentials over REST and the public API.
			var creds []credentialResponse
			bob.ok(t, "GET", "rest/credentials", "", &creds)
			for _, c := range creds {
				require.NotEqual(t, h.credID, c.ID)
			}
			bobAPI := apiClient{e: e, key: createKeyOnce(t, bob)}
			bobAPI.fails(t, "DELETE", "credentials/"+h.credID, "", 404, "could not be found")
			owner.ok(t, "GET", "rest/credentials", "", &creds)
			require.Contains(t, credentialIDs(creds), h.credID, "the credential is still there")

			// Credentials as a node's credential, by id and by name.
			for _, ref := range [][2]string{{h.credID, h.credName}, {"", h.credName}} {
				_, errMsg = runManually(t, bob, useCredential(sink.URL, ref[0], ref[1]), false, "HTTP Request")
				if ref[0] != "" {
					// n8n's message for a credential selected by id that the run may not use.
					require.Contains(t, errMsg, fmt.Sprintf("Credential with ID %q does not exist for type \"httpBasicAuth\".", ref[0]))
				} else {
					require.Contains(t, errMsg, "credential not found")
				}
				require.NotContains(t, errMsg, secretOf(h.name))
			}
			require.False(t, sawSecret(h.name), "no request carried the holder's credential")
			for _, p := range []*person{owner, h.who} {
				_, errMsg = runManually(t, p, useCredential(sink.URL, h.credID, h.credName), true, "HTTP Request")
				require.Empty(t, errMsg, "the owner and the holder use it")
			}
			require.True(t, sawSecret(h.name))

			// Executions and their binary data.
			execPath := "rest/executions/" + h.exec
			status, b = bob.call(t, "GET", execPath, "")
			requireError(t, status, b, 404, "could not be found")
			require.NotContains(t, string(b), secretOf(h.name))
			status, b = bob.call(t, "GET", "rest/data/"+h.binary, "")
			requireError(t, status, b, 404, "could not be found")
			status, b = bob.call(t, "GET", fmt.Sprintf("api/v1/executions/%s", h.exec), "")
			require.Equal(t, 401, status, "a session is no API key: %s", b)
			bobAPI.fails(t, "GET", "executions/"+h.exec, "", 404, "")
			status, b = bob.call(t, "POST", "rest/executions-current/"+h.exec+"/stop", "")
			requireError(t, status, b, 404, "could not be found")
			require.Equal(t, "waiting", executionStatus(t, h.who, h.exec), "the execution still waits")
			var data string
			h.who.ok(t, "GET", "rest/data/"+h.binary, "", &data)
			require.NotEmpty(t, data)
			h.who.ok(t, "POST", "rest/executions-current/"+h.exec+"/stop", "", nil)
			require.Equal(t, "canceled", executionStatus(t, owner, h.exec))
			status, b = bob.call(t, "POST", "rest/executions/"+h.exec+"/retry", "")
			requireError(t, status, b, 404, "could not be found")
			bob.ok(t, "POST", "rest/executions/delete", fmt.Sprintf(`{"ids":[%q]}`, h.exec), nil)
			require.Equal(t, "canceled", executionStatus(t, h.who, h.exec), "a member's delete passes over what they cannot see")
			h.who.ok(t, "POST", "rest/executions/"+h.exec+"/retry", "", nil)
			owner.ok(t, "POST", "rest/executions/delete", fmt.Sprintf(`{"ids":[%q]}`, h.exec), nil)
			status, _ = h.who.call(t, "GET", execPath, "")
			require.Equal(t, 404, status, "the owner deleted it")

			// Test webhooks.
			status, b = bob.call(t, "DELETE", "rest/test-webhook/"+h.hookWF, "")
			requireError(t, status, b, 404, "Workflow with ID "+h.hookWF+" could not be found")
			var stopped bool
			h.who.ok(t, "DELETE", "rest/test-webhook/"+h.hookWF, "", &stopped)
			require.True(t, stopped, "the holder's registration was still there")
			listenForTestCall(t, h)
			owner.ok(t, "DELETE", "rest/test-webhook/"+h.hookWF, "", &stopped)
			require.True(t, stopped, "the owner stops any")
		})
	}

	// A workflow shared with a member runs for that member, not its owner: the document to run
	// comes from the caller, so the share lends neither sub-workflows nor credentials.
	mias := holders[1]
	calls := saveAs(t, mia, callWorkflow(mias.secretWF))
	require.NoError(t, e.in.Store.ShareWorkflow(context.Background(), calls, bobID, "editor"))
	doc := strings.Replace(callWorkflow(mias.secretWF), `{"name":`, fmt.Sprintf(`{"id":%q,"name":`, calls), 1)
	out, errMsg := runManually(t, bob, doc, false, "Call")
	require.Equal(t, "Workflow "+mias.secretWF+" could not be found or you may not run it.", errMsg)
	require.NotContains(t, out, secretOf("mia"))
	out, errMsg = runManually(t, mia, doc, false, "Call")
	require.Empty(t, errMsg)
	require.Contains(t, out, secretOf("mia"))

	// A member's workflow called by the owner's acts for the member: naming the owner's
	// credential gets it nothing.
	mu.Lock()
	received = nil
	mu.Unlock()
	lure := saveAs(t, mia, useCredential(sink.URL, holders[0].credID, holders[0].credName))
	_, errMsg = runManually(t, owner, callWorkflow(lure), false, "Call")
	require.Contains(t, errMsg, fmt.Sprintf("Credential with ID %q does not exist for type \"httpBasicAuth\".", holders[0].credID))
	require.False(t, sawSecret("owner"), "the member's workflow did not send the owner's credential")
}

const startNode = `{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}}`

// line is a workflow document whose nodes (JSON, after Start) are connected in a line.
func line(name string, nodes ...string) string {
	names := []string{"Start"}
	for _, n := range nodes {
		var v struct{ Name string }
		_ = json.Unmarshal([]byte(n), &v)
		names = append(names, v.Name)
	}
	var conns []string
	for i := 1; i < len(names); i++ {
		conns = append(conns, fmt.Sprintf(`%q:{"main":[[{"node":%q,"type":"main","index":0}]]}`, names[i-1], names[i]))
	}
	return fmt.Sprintf(`{"name":%q,"settings":{"saveManualExecutions":true},"nodes":[%s],"connections":{%s}}`,
		name, strings.Join(append([]string{startNode}, nodes...), ","), strings.Join(conns, ","))
}

func codeNode(js string) string {
	b, _ := json.Marshal(js)
	return `{"name":"Code","type":"n8n-nodes-base.code","typeVersion":1,"position":[200,0],"parameters":{"jsCode":` + string(b) + `}}`
}

func callWorkflow(id string) string {
	return line("Calls "+id, fmt.Sprintf(`{"name":"Call","type":"n8n-nodes-base.executeWorkflow","typeVersion":1,"position":[200,0],
		"parameters":{"source":"database","workflowId":%q}}`, id))
}

func useCredential(url, id, name string) string {
	return line("Uses "+name, fmt.Sprintf(`{"name":"HTTP Request","type":"n8n-nodes-base.httpRequest","typeVersion":1,"position":[200,0],
		"parameters":{"url":%q,"authentication":"basicAuth"},"credentials":{"httpBasicAuth":{"id":%q,"name":%q}}}`, url, id, name))
}

// hold creates, as p, one resource of each kind.
func hold(t *testing.T, e *testEnv, p *person, name string) *holdings {
	t.Helper()
	h := &holdings{who: p, name: name, key: createKeyOnce(t, p), credName: "Vault of " + name}
	secret := secretOf(name)
	h.secretWF = saveAs(t, p, strings.Replace(line("Secret of "+name, codeNode(`return [{json: {secret: "`+secret+`"}}]`)), `"saveManualExecutions":true`, `"saveManualExecutions":true,"saveDataSuccessExecution":"all"`, 1))
	h.waitWF = saveAs(t, p, line("Waits of "+name,
		codeNode(`return [{json: {secret: "`+secret+`"}, binary: {data: {data: "aGk=", mimeType: "text/plain", fileName: "s.txt"}}}]`),
		`{"name":"Wait","type":"n8n-nodes-base.wait","typeVersion":1,"position":[400,0],"parameters":{"resume":"timeInterval","amount":1,"unit":"hours"}}`))
	var wf workflowJSON
	p.ok(t, "GET", "rest/workflows/"+h.waitWF, "", &wf)
	var run runResponse
	p.ok(t, "POST", "rest/workflows/run", fmt.Sprintf(`{"workflowData":{"id":%q,"name":%q,"nodes":%s,"connections":%s,"settings":%s}}`,
		wf.ID, wf.Name, wf.Nodes, wf.Connections, wf.Settings), &run)
	h.exec = run.ExecutionID
	require.Eventually(t, func() bool { return executionStatus(t, p, h.exec) == "waiting" }, 20*time.Second, 20*time.Millisecond)
	h.binary = fmt.Sprintf("execution:%s:Code:0:0:0:data", h.exec)

	h.hookWF = saveAs(t, p, hookWorkflow("Hook of "+name, "hook-"+name, fmt.Sprintf(`{"path":"idor-%s"}`, name)))
	listenForTestCall(t, h)

	var created credentialResponse
	apiClient{e: e, key: h.key}.ok(t, "POST", "credentials",
		fmt.Sprintf(`{"name":%q,"type":"httpBasicAuth","data":{"user":"u","password":%q}}`, h.credName, secret), &created)
	h.credID = created.ID
	return h
}

// listenForTestCall has the holder's editor wait for a test call of their webhook workflow.
func listenForTestCall(t *testing.T, h *holdings) {
	t.Helper()
	var wf workflowJSON
	h.who.ok(t, "GET", "rest/workflows/"+h.hookWF, "", &wf)
	var run runResponse
	h.who.ok(t, "POST", "rest/workflows/run", fmt.Sprintf(`{"workflowData":{"id":%q,"name":%q,"nodes":%s,"connections":%s}}`,
		wf.ID, wf.Name, wf.Nodes, wf.Connections), &run)
	require.True(t, run.WaitingForWebhook)
}

func saveAs(t *testing.T, p *person, doc string) string {
	t.Helper()
	var wf workflowJSON
	p.ok(t, "POST", "rest/workflows", doc, &wf)
	return wf.ID
}

// keys remembers each person's API key: a new one replaces the old.
var (
	apiKeysMu sync.Mutex
	apiKeys   = map[*person]string{}
)

func createKeyOnce(t *testing.T, p *person) string {
	t.Helper()
	apiKeysMu.Lock()
	defer apiKeysMu.Unlock()
	if k, ok := apiKeys[p]; ok {
		return k
	}
	apiKeys[p] = createKey(t, p)
	return apiKeys[p]
}

func credentialIDs(list []credentialResponse) []string {
	var ids []string
	for _, c := range list {
		ids = append(ids, c.ID)
	}
	return ids
}

func executionStatus(t *testing.T, p *person, id string) string {
	t.Helper()
	var d struct {
		Status string `json:"status"`
	}
	p.ok(t, "GET", "rest/executions/"+id, "", &d)
	return d.Status
}

// runManually runs doc as p from the editor, saved first when saved, and waits for the end. It
// returns the node's output as JSON and the run's error message ("" when it succeeded).
func runManually(t *testing.T, p *person, doc string, saved bool, node string) (string, string) {
	t.Helper()
	if saved {
		// A fresh name each time: names are unique.
		doc = strings.Replace(doc, `"name":"`, fmt.Sprintf(`"name":"%d `, time.Now().UnixNano()), 1)
		id := saveAs(t, p, doc)
		doc = strings.Replace(doc, `{"name":`, fmt.Sprintf(`{"id":%q,"name":`, id), 1)
	}
	var run runResponse
	p.ok(t, "POST", "rest/workflows/run", `{"workflowData":`+doc+`}`, &run)
	var d struct {
		Status string `json:"status"`
		Data   struct {
			ResultData struct {
				Error   *struct{ Message string } `json:"error"`
				RunData map[string][]struct {
					Data  json.RawMessage           `json:"data"`
					Error *struct{ Message string } `json:"error"`
				} `json:"runData"`
			} `json:"resultData"`
		} `json:"data"`
	}
	require.Eventually(t, func() bool {
		p.ok(t, "GET", "rest/executions/"+run.ExecutionID, "", &d)
		return d.Status != "new" && d.Status != "queued" && d.Status != "running"
	}, 20*time.Second, 20*time.Millisecond)
	var out string
	if runs := d.Data.ResultData.RunData[node]; len(runs) > 0 {
		out = string(runs[0].Data)
	}
	if d.Data.ResultData.Error != nil {
		return out, d.Data.ResultData.Error.Message
	}
	require.Equal(t, "success", d.Status)
	return out, ""
}
