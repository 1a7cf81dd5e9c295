package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// twoNodes is a small valid document: Start connected to a node of a type this instance may not
// have, which a saved workflow is allowed to use.
const twoNodes = `"nodes":[
	{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[240,300],"parameters":{}},
	{"name":"Later","type":"n8n-nodes-base.notInstalledYet","typeVersion":1,"position":[460,300],"parameters":{"a":1}}],
	"connections":{"Start":{"main":[[{"node":"Later","type":"main","index":0}]]}}`

type workflowJSON struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Active      bool            `json:"active"`
	Nodes       json.RawMessage `json:"nodes"`
	Connections json.RawMessage `json:"connections"`
	Settings    json.RawMessage `json:"settings"`
	StaticData  json.RawMessage `json:"staticData"`
	PinData     json.RawMessage `json:"pinData"`
	VersionID   string          `json:"versionId"`
	CreatedAt   string          `json:"createdAt"`
	UpdatedAt   string          `json:"updatedAt"`
	Tags        []tagRef        `json:"tags"`
}

// requireSameWorkflow compares two workflow answers, the document fields as JSON values: Postgres
// keeps them as jsonb, which does not keep the key order of objects.
func requireSameWorkflow(t *testing.T, want, got workflowJSON, msgAndArgs ...any) {
	t.Helper()
	for _, f := range [][2]json.RawMessage{{want.Nodes, got.Nodes}, {want.Connections, got.Connections},
		{want.Settings, got.Settings}, {want.StaticData, got.StaticData}, {want.PinData, got.PinData}} {
		require.JSONEq(t, string(f[0]), string(f[1]), msgAndArgs...)
	}
	want.Nodes, want.Connections, want.Settings, want.StaticData, want.PinData = nil, nil, nil, nil, nil
	got.Nodes, got.Connections, got.Settings, got.StaticData, got.PinData = nil, nil, nil, nil, nil
	require.Equal(t, want, got, msgAndArgs...)
}

// call sends a JSON request and returns the status and body.
func (e *testEnv) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	res, b := e.do(t, method, path, body, "Content-Type", "application/json")
	return res.StatusCode, b
}

func (e *testEnv) createWorkflow(t *testing.T, body string) workflowJSON {
	t.Helper()
	status, b := e.call(t, "POST", "rest/workflows", body)
	require.Equal(t, 200, status, string(b))
	var w workflowJSON
	decodeData(t, b, &w)
	return w
}

func (e *testEnv) createTag(t *testing.T, name string) tagRef {
	t.Helper()
	status, b := e.call(t, "POST", "rest/tags", fmt.Sprintf(`{"name":%q}`, name))
	require.Equal(t, 200, status, string(b))
	var tag tagRef
	decodeData(t, b, &tag)
	return tag
}

func (e *testEnv) getWorkflow(t *testing.T, id string) workflowJSON {
	t.Helper()
	status, b := e.call(t, "GET", "rest/workflows/"+id, "")
	require.Equal(t, 200, status, string(b))
	var w workflowJSON
	decodeData(t, b, &w)
	return w
}

// requireError checks a failed call's status and that its message contains msg.
func requireError(t *testing.T, status int, b []byte, wantStatus int, msg string) {
	t.Helper()
	require.Equal(t, wantStatus, status, string(b))
	var body errorBody
	require.NoError(t, json.Unmarshal(b, &body), string(b))
	require.Equal(t, wantStatus, body.Code)
	require.Contains(t, body.Message, msg)
}

func TestWorkflowLifecycle(t *testing.T) {
	e := startServer(t, nil)
	ops, billing := e.createTag(t, "ops"), e.createTag(t, "billing")

	w := e.createWorkflow(t, `{"id":"ignored","name":"  Orders  ","active":true,`+twoNodes+`,
		"settings":{"timezone":"Europe/Berlin"},"staticData":{"global":{"last":3}},"tags":["`+ops.ID+`","`+billing.ID+`"]}`)
	require.Len(t, w.ID, 16)
	require.Equal(t, "Orders", w.Name, "the name is trimmed")
	require.False(t, w.Active, "a new workflow is saved inactive")
	require.Equal(t, []tagRef{billing, ops}, w.Tags, "tags in as ids, out as objects by name")
	require.JSONEq(t, `{"timezone":"Europe/Berlin"}`, string(w.Settings))
	require.JSONEq(t, `{"global":{"last":3}}`, string(w.StaticData))
	require.Equal(t, "null", string(w.PinData))
	require.NotEmpty(t, w.VersionID)
	created, err := time.Parse(time.RFC3339Nano, w.CreatedAt)
	require.NoError(t, err, "timestamps are ISO 8601")
	require.WithinDuration(t, time.Now(), created, time.Minute)
	require.True(t, strings.HasSuffix(w.CreatedAt, "Z"))

	got := e.getWorkflow(t, w.ID)
	requireSameWorkflow(t, w, got)
	require.Contains(t, string(got.Nodes), "n8n-nodes-base.notInstalledYet")

	status, b := e.call(t, "GET", "rest/workflows", "")
	require.Equal(t, 200, status)
	var list []map[string]any
	decodeData(t, b, &list)
	require.Len(t, list, 1)
	require.ElementsMatch(t, []string{"id", "name", "active", "createdAt", "updatedAt", "tags"}, keys(list[0]),
		"lists leave the document out")
	require.Equal(t, w.ID, list[0]["id"])

	// A partial update changes only what the body holds and gives a new version.
	status, b = e.call(t, "PATCH", "rest/workflows/"+w.ID, `{"name":"Orders v2"}`)
	require.Equal(t, 200, status, string(b))
	var patched workflowJSON
	decodeData(t, b, &patched)
	require.Equal(t, "Orders v2", patched.Name)
	require.False(t, patched.Active)
	require.JSONEq(t, string(w.Nodes), string(patched.Nodes))
	require.Equal(t, w.Tags, patched.Tags)
	require.NotEqual(t, w.VersionID, patched.VersionID)
	require.Equal(t, w.CreatedAt, patched.CreatedAt)
	requireSameWorkflow(t, patched, e.getWorkflow(t, w.ID))

	status, b = e.call(t, "PATCH", "rest/workflows/"+w.ID, `{"tags":[{"id":"`+ops.ID+`","name":"ops"}],"settings":null,"pinData":{"Start":[{"json":{"a":1}}]}}`)
	require.Equal(t, 200, status, string(b))
	decodeData(t, b, &patched)
	require.Equal(t, []tagRef{ops}, patched.Tags, "tag objects, as files carry them, are read by id")
	require.Equal(t, "null", string(patched.Settings), "null clears settings")
	require.JSONEq(t, `{"Start":[{"json":{"a":1}}]}`, string(patched.PinData))

	status, b = e.call(t, "PATCH", "rest/workflows/"+w.ID, `{"tags":[]}`)
	require.Equal(t, 200, status, string(b))
	decodeData(t, b, &patched)
	require.Empty(t, patched.Tags)
	require.NotNil(t, patched.Tags, "tags is always a list")

	status, b = e.call(t, "DELETE", "rest/workflows/"+w.ID, "")
	require.Equal(t, 200, status, string(b))
	require.JSONEq(t, `{"data":true}`, string(b))
	status, b = e.call(t, "GET", "rest/workflows/"+w.ID, "")
	requireError(t, status, b, 404, "Workflow with ID "+w.ID+" could not be found")
	status, b = e.call(t, "DELETE", "rest/workflows/"+w.ID, "")
	requireError(t, status, b, 404, "could not be found")
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestCreateWorkflowRejectsBadInputAndWritesNothing(t *testing.T) {
	e := startServer(t, nil)
	tag := e.createTag(t, "kept")
	e.createWorkflow(t, `{"name":"Orders",`+twoNodes+`}`)

	cases := []struct {
		name, body string
		status     int
		msg        string
	}{
		{"malformed JSON", `{"name": "x",`, 400, "The body must be a JSON object"},
		{"not an object", `["x"]`, 400, "The body must be a JSON object"},
		{"no name", `{` + twoNodes + `}`, 400, "Workflow name cannot be empty"},
		{"null name", `{"name":null}`, 400, "Workflow name cannot be empty"},
		{"blank name", `{"name":"   "}`, 400, "Workflow name cannot be empty"},
		{"long name", fmt.Sprintf(`{"name":%q}`, strings.Repeat("w", 129)), 400, "Workflow name must be 1 to 128 characters long"},
		{"name not a string", `{"name":5}`, 400, "name must be a string"},
		{"active not a boolean", `{"name":"A","active":"yes"}`, 400, "active must be true or false"},
		{"taken name", `{"name":" Orders "}`, 409, `A workflow with the name "Orders" already exists`},
		{"nodes not a list", `{"name":"A","nodes":{},"connections":{}}`, 422, "nodes: want an array"},
		{"node without a type", `{"name":"A","nodes":[{"name":"Set"}],"connections":{}}`, 422, `node "Set": type`},
		{"duplicate node names", `{"name":"A","nodes":[{"name":"Set","type":"t"},{"name":"Set","type":"u"}],"connections":{}}`, 422, `node "Set"`},
		{"connection to a missing node", `{"name":"A","nodes":[{"name":"Start","type":"t"}],
			"connections":{"Start":{"main":[[{"node":"Ghost","type":"main","index":0}]]}}}`, 422, `node "Start": connections: output 0 connects to "Ghost"`},
		{"settings not an object", `{"name":"A","settings":[1]}`, 422, "settings"},
		{"unknown execution order", `{"name":"A","settings":{"executionOrder":"v2"}}`, 422, "settings.executionOrder: want \"v0\" or \"v1\", got v2"},
		{"unknown tag", `{"name":"A","tags":["` + tag.ID + `","nope"]}`, 400, "Tag with ID nope does not exist"},
		{"tags not a list", `{"name":"A","tags":"` + tag.ID + `"}`, 400, "tags must be a list of tag ids"},
	}
	for _, c := range cases {
		status, b := e.call(t, "POST", "rest/workflows", c.body)
		requireError(t, status, b, c.status, c.msg)
	}
	db := e.in.Store.DB
	for table, want := range map[string]int64{"workflows": 1, "shared_workflows": 1, "workflow_tags": 0} {
		var n int64
		require.NoError(t, db.Table(table).Count(&n).Error)
		require.Equal(t, want, n, "rows in %s", table)
	}
}

func TestPatchWorkflowRejectsBadInputAndChangesNothing(t *testing.T) {
	e := startServer(t, nil)
	tag := e.createTag(t, "kept")
	w := e.createWorkflow(t, `{"name":"Orders",`+twoNodes+`,"tags":["`+tag.ID+`"]}`)
	e.createWorkflow(t, `{"name":"Invoices"}`)

	cases := []struct {
		name, id, body string
		status         int
		msg            string
	}{
		{"unknown workflow", "nope", `{"name":"B"}`, 404, "Workflow with ID nope could not be found"},
		{"malformed JSON", w.ID, `{"name"`, 400, "The body must be a JSON object"},
		{"blank name", w.ID, `{"name":""}`, 400, "Workflow name cannot be empty"},
		{"taken name", w.ID, `{"name":"Invoices","tags":[]}`, 409, `A workflow with the name "Invoices" already exists`},
		{"unknown tag", w.ID, `{"name":"Renamed","tags":["nope"]}`, 400, "Tag with ID nope does not exist"},
		// Only nodes, without the node the stored connections lead to: the merged document is checked.
		{"stored connection to a removed node", w.ID, `{"nodes":[{"name":"Start","type":"n8n-nodes-base.start"}]}`,
			422, `connects to "Later"`},
	}
	for _, c := range cases {
		status, b := e.call(t, "PATCH", "rest/workflows/"+c.id, c.body)
		requireError(t, status, b, c.status, c.msg)
		requireSameWorkflow(t, w, e.getWorkflow(t, w.ID), c.name)
	}

	// null nodes and connections leave them as they are.
	status, b := e.call(t, "PATCH", "rest/workflows/"+w.ID, `{"nodes":null,"connections":null}`)
	require.Equal(t, 200, status, string(b))
	got := e.getWorkflow(t, w.ID)
	require.JSONEq(t, string(w.Nodes), string(got.Nodes))
	require.JSONEq(t, string(w.Connections), string(got.Connections))
}

func TestListWorkflowsFilter(t *testing.T) {
	e := startServer(t, nil)
	red, blue := e.createTag(t, "red"), e.createTag(t, "blue")
	e.createWorkflow(t, `{"name":"Sync orders","tags":["`+red.ID+`","`+blue.ID+`"]}`)
	e.createWorkflow(t, `{"name":"Sync invoices","tags":["`+red.ID+`"]}`)
	reports := e.createWorkflow(t, `{"name":"Reports","nodes":[{"name":"Cron","type":"n8n-nodes-base.cron","typeVersion":1,"position":[0,0],"parameters":{}}],"connections":{}}`)
	status, b := e.call(t, "PATCH", "rest/workflows/"+reports.ID, `{"active":true}`)
	require.Equal(t, 200, status, string(b))

	names := func(filter string) []string {
		t.Helper()
		status, b := e.call(t, "GET", "rest/workflows?filter="+url.QueryEscape(filter), "")
		require.Equal(t, 200, status, string(b))
		var list []workflowSummary
		decodeData(t, b, &list)
		out := []string{}
		for _, w := range list {
			out = append(out, w.Name)
		}
		return out
	}
	require.Equal(t, []string{"Reports", "Sync invoices", "Sync orders"}, names(`{}`), "most recently updated first")
	require.Equal(t, []string{"Sync invoices", "Sync orders"}, names(`{"name":"sync"}`))
	require.Equal(t, []string{"Reports"}, names(`{"active":true}`))
	require.Equal(t, []string{"Sync invoices", "Sync orders"}, names(`{"active":false}`))
	require.Equal(t, []string{"Sync orders"}, names(`{"tags":["`+red.ID+`","`+blue.ID+`"]}`))
	require.Equal(t, []string{"Sync orders"}, names(`{"name":"ORDERS","tags":["`+blue.ID+`"],"active":false}`))

	for _, bad := range []string{`{"name":`, `{"owner":"me"}`, `{"active":"yes"}`, `[]`} {
		status, b := e.call(t, "GET", "rest/workflows?filter="+url.QueryEscape(bad), "")
		requireError(t, status, b, 400, "The query parameter filter must be a JSON object")
	}
}

func TestNewWorkflowName(t *testing.T) {
	e := startServer(t, nil)
	newName := func(query string) newWorkflowResponse {
		t.Helper()
		status, b := e.call(t, "GET", "rest/workflows/new"+query, "")
		require.Equal(t, 200, status, string(b))
		var r newWorkflowResponse
		decodeData(t, b, &r)
		require.Contains(t, string(b), `"onboardingFlowEnabled":false`)
		return r
	}
	require.Equal(t, "My workflow", newName("").Name)
	e.createWorkflow(t, `{"name":"My workflow"}`)
	require.Equal(t, "My workflow 2", newName("").Name)
	e.createWorkflow(t, `{"name":"My workflow 2"}`)
	require.Equal(t, "My workflow 3", newName("?name=").Name)
	require.Equal(t, "My workflow 3", newName("?name=%20%20").Name, "a blank name means the default")
	require.Equal(t, "Sales copy", newName("?name=Sales%20copy").Name)
	e.createWorkflow(t, `{"name":"Sales copy"}`)
	require.Equal(t, "Sales copy 2", newName("?name=Sales%20copy").Name)
	require.Len(t, []rune(newName("?name="+strings.Repeat("é", 200)).Name), 128, "the answer always fits")
}

func TestTimezones(t *testing.T) {
	e := startServer(t, nil)
	status, b := e.call(t, "GET", "rest/options/timezones", "")
	require.Equal(t, 200, status)
	var zones map[string]string
	decodeData(t, b, &zones)
	require.Greater(t, len(zones), 400)
	require.Equal(t, "(GMT+00:00) UTC", zones["UTC"])
	require.Equal(t, "(GMT-05:00) America - New York", zones["America/New_York"])
	require.Equal(t, "(GMT+05:30) Asia - Kolkata", zones["Asia/Kolkata"])
	require.Equal(t, "(GMT+01:00) Europe - Berlin", zones["Europe/Berlin"], "the standard offset, not summer time")
	require.Equal(t, "(GMT+10:00) Australia - Sydney", zones["Australia/Sydney"], "southern summer time too")
	require.Equal(t, "(GMT-03:00) America - Argentina - Buenos Aires", zones["America/Argentina/Buenos_Aires"])
	require.NotContains(t, zones, "US/Eastern", "legacy aliases are left out")

	// The editor shows the keys in the order they come: west to east.
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	require.NoError(t, json.Unmarshal(b, &env))
	dec := json.NewDecoder(strings.NewReader(string(env.Data)))
	_, err := dec.Token()
	require.NoError(t, err)
	last := ""
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		v, err := dec.Token()
		require.NoError(t, err)
		offset := gmtSortKey(v.(string))
		require.GreaterOrEqual(t, offset, last, "%s after offset %s", k, last)
		last = offset
	}

	_, again := e.call(t, "GET", "rest/options/timezones", "")
	require.Equal(t, string(b), string(again), "the same answer every time")
}

// gmtSortKey turns "(GMT-05:30) …" into a string that sorts like the offset.
func gmtSortKey(label string) string {
	sign, hhmm := label[4], label[5:10]
	if sign == '-' {
		// Larger negative offsets sort first: invert the digits.
		inv := []byte(hhmm)
		for i, c := range inv {
			if c >= '0' && c <= '9' {
				inv[i] = '9' - c + '0'
			}
		}
		return "0" + string(inv)
	}
	return "1" + hhmm
}
