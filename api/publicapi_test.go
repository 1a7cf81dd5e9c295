package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// apiClient calls the public API with a key and checks every answer against the OpenAPI
// document: the status must be one the operation declares, and the body must match its schema.
type apiClient struct {
	e   *testEnv
	key string
	// header carries the key; apiKeyHeader when empty.
	header string
	// seen, when set, records the statuses each operation of the document answered.
	seen map[string]map[int]bool
}

func (a apiClient) call(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, a.e.base+"api/v1/"+strings.TrimPrefix(path, "/"), strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if a.key != "" {
		req.Header.Set(cmp.Or(a.header, apiKeyHeader), a.key)
	}
	res, err := (&http.Client{}).Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	a.checkAgainstDocument(t, req, res, b)
	return res.StatusCode, b
}

func (a apiClient) checkAgainstDocument(t *testing.T, req *http.Request, res *http.Response, body []byte) {
	t.Helper()
	spec, err := loadPublicAPISpec()
	require.NoError(t, err)
	u := url.URL{Path: "/" + strings.TrimPrefix(req.URL.Path, a.e.cfg.BasePath), RawQuery: req.URL.RawQuery}
	docReq := req.Clone(context.Background())
	docReq.URL = &u
	route, params, err := spec.router.FindRoute(docReq)
	require.NoError(t, err, "%s %s is in the document", req.Method, u.Path)
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: docReq, PathParams: params, Route: route},
		Status:                 res.StatusCode, Header: res.Header, Body: io.NopCloser(bytes.NewReader(body)),
		Options: &openapi3filter.Options{IncludeResponseStatus: true},
	}
	require.NoError(t, openapi3filter.ValidateResponse(context.Background(), in), "%s %s answered %d %s", req.Method, u.Path, res.StatusCode, body)
	if a.seen != nil {
		op := route.Operation.OperationID
		if a.seen[op] == nil {
			a.seen[op] = map[int]bool{}
		}
		a.seen[op][res.StatusCode] = true
	}
	if res.StatusCode >= 400 {
		var e map[string]any
		require.NoError(t, json.Unmarshal(body, &e))
		require.Len(t, e, 1, "errors are {\"message\"}: %s", body)
		require.NotEmpty(t, e["message"])
	}
}

func (a apiClient) ok(t *testing.T, method, path, body string, v any) {
	t.Helper()
	status, b := a.call(t, method, path, body)
	require.Contains(t, []int{200, 201}, status, "%s %s: %s", method, path, b)
	if v != nil {
		require.NoError(t, json.Unmarshal(b, v), string(b))
	}
}

func (a apiClient) fails(t *testing.T, method, path, body string, status int, msg string) {
	t.Helper()
	got, b := a.call(t, method, path, body)
	require.Equal(t, status, got, "%s %s: %s", method, path, b)
	var e struct{ Message string }
	require.NoError(t, json.Unmarshal(b, &e))
	require.Contains(t, e.Message, msg)
}

// createKey creates an API key for p through the settings calls and checks it is shown once.
func createKey(t *testing.T, p *person) string {
	t.Helper()
	var got struct {
		APIKey *string `json:"apiKey"`
	}
	p.ok(t, "POST", "rest/me/api-key", "", &got)
	require.NotNil(t, got.APIKey)
	key := *got.APIKey
	require.True(t, strings.HasPrefix(key, "flowmill_api_"))
	p.ok(t, "GET", "rest/me/api-key", "", &got)
	require.NotEqual(t, key, *got.APIKey, "the key is shown only once")
	require.True(t, strings.HasSuffix(key, strings.TrimPrefix(*got.APIKey, "flowmill_…")))
	return key
}

type apiList struct {
	Data       []json.RawMessage `json:"data"`
	NextCursor *string           `json:"nextCursor"`
}

const apiNodes = `"nodes":[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[240,300],"parameters":{}}],"connections":{},"settings":{}`

func TestPublicAPIWorkflowsAndKeys(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	var none struct {
		APIKey *string `json:"apiKey"`
	}
	owner.ok(t, "GET", "rest/me/api-key", "", &none)
	require.Nil(t, none.APIKey)
	ownerAPI := apiClient{e: e, key: createKey(t, owner)}
	memberAPI := apiClient{e: e, key: createKey(t, member)}

	apiClient{e: e}.fails(t, "GET", "workflows", "", 401, "'X-FLOWMILL-API-KEY' or 'X-N8N-API-KEY' header required")
	apiClient{e: e, key: "flowmill_api_nope"}.fails(t, "GET", "workflows", "", 401, "Unauthorized")

	// Create: bad bodies are refused with the place and the rule.
	ownerAPI.fails(t, "POST", "workflows", `{"nodes":[],"connections":{},"settings":{}}`, 400, `"name"`)
	ownerAPI.fails(t, "POST", "workflows", `{"name":"x","nodes":{},"connections":{},"settings":{}}`, 400, "request/body/nodes")
	ownerAPI.fails(t, "POST", "workflows", `{"name":"x","nodes":[{"type":"t"}],"connections":{},"settings":{}}`, 400, "request/body/nodes/0")
	ownerAPI.fails(t, "POST", "workflows", `{"name":"`+strings.Repeat("n", 129)+`",`+apiNodes+`}`, 400, "request/body/name")
	ownerAPI.fails(t, "POST", "workflows", `{"name":`, 400, "request/body")
	ownerAPI.fails(t, "POST", "workflows", `{"name":"x","nodes":[{"name":"A","type":"t","typeVersion":1,"position":[0,0]}],"connections":{"B":{"main":[[{"node":"A","type":"main","index":0}]]}},"settings":{}}`, 400, "B")

	var w workflowJSON
	ownerAPI.ok(t, "POST", "workflows", `{"name":"Orders","active":true,`+apiNodes+`,"staticData":{"last":1}}`, &w)
	require.False(t, w.Active, "created inactive")
	require.Equal(t, "Orders", w.Name)
	ownerAPI.fails(t, "POST", "workflows", `{"name":"Orders",`+apiNodes+`}`, 400, "already exists")
	for _, name := range []string{"Billing", "Support"} {
		ownerAPI.ok(t, "POST", "workflows", `{"name":"`+name+`",`+apiNodes+`}`, nil)
	}
	var mine workflowJSON
	memberAPI.ok(t, "POST", "workflows", `{"name":"Mia's",`+apiNodes+`}`, &mine)

	// List with cursor paging; members see their own only.
	var page apiList
	ownerAPI.ok(t, "GET", "workflows?limit=3", "", &page)
	require.Len(t, page.Data, 3)
	require.NotNil(t, page.NextCursor)
	ownerAPI.ok(t, "GET", "workflows?cursor="+url.QueryEscape(*page.NextCursor), "", &page)
	require.Len(t, page.Data, 1)
	require.Nil(t, page.NextCursor)
	ownerAPI.fails(t, "GET", "workflows?cursor=garbage", "", 400, "cursor")
	ownerAPI.fails(t, "GET", "workflows?limit=0", "", 400, "request/query/limit")
	ownerAPI.fails(t, "GET", "workflows?limit=251", "", 400, "request/query/limit")
	ownerAPI.fails(t, "GET", "workflows?active=maybe", "", 400, "request/query/active")
	ownerAPI.ok(t, "GET", "workflows?active=true", "", &page)
	require.Empty(t, page.Data)
	memberAPI.ok(t, "GET", "workflows", "", &page)
	require.Len(t, page.Data, 1)
	var got workflowJSON
	require.NoError(t, json.Unmarshal(page.Data[0], &got))
	require.Equal(t, mine.ID, got.ID)
	require.JSONEq(t, `[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[240,300],"parameters":{}}]`, string(got.Nodes))

	// Tag filter by name.
	owner.ok(t, "POST", "rest/tags", `{"name":"ops"}`, nil)
	var tags []tagRef
	owner.ok(t, "GET", "rest/tags", "", &tags)
	owner.ok(t, "PATCH", "rest/workflows/"+w.ID, `{"tags":["`+tags[0].ID+`"]}`, nil)
	ownerAPI.ok(t, "GET", "workflows?tags=ops", "", &page)
	require.Len(t, page.Data, 1)
	ownerAPI.ok(t, "GET", "workflows?tags=ops,nosuchtag", "", &page)
	require.Len(t, page.Data, 1, "names of no tag are skipped")

	// Get, update, activate, delete.
	ownerAPI.ok(t, "GET", "workflows/"+w.ID, "", &got)
	require.JSONEq(t, `{"last":1}`, string(got.StaticData))
	memberAPI.fails(t, "GET", "workflows/"+w.ID, "", 404, "could not be found")
	ownerAPI.ok(t, "GET", "workflows/"+mine.ID, "", nil)
	ownerAPI.ok(t, "PUT", "workflows/"+w.ID, `{"name":"Orders v2",`+apiNodes+`}`, &got)
	require.Equal(t, "Orders v2", got.Name)
	require.JSONEq(t, `null`, string(got.StaticData), "PUT replaces the document")
	require.Len(t, got.Tags, 1, "tags stay")
	ownerAPI.fails(t, "PUT", "workflows/"+w.ID, `{"name":"x"}`, 400, "request/body")
	memberAPI.fails(t, "PUT", "workflows/"+w.ID, `{"name":"mine",`+apiNodes+`}`, 404, "could not be found")
	ownerAPI.fails(t, "POST", "workflows/"+w.ID+"/activate", "", 400, "does not contain any nodes which could start the workflow")
	ownerAPI.ok(t, "POST", "workflows/"+w.ID+"/deactivate", "", &got)
	require.False(t, got.Active)
	memberAPI.fails(t, "POST", "workflows/"+w.ID+"/activate", "", 404, "could not be found")
	memberAPI.fails(t, "DELETE", "workflows/"+w.ID, "", 404, "could not be found")
	ownerAPI.ok(t, "DELETE", "workflows/"+w.ID, "", &got)
	require.Equal(t, "Orders v2", got.Name)
	ownerAPI.fails(t, "GET", "workflows/"+w.ID, "", 404, "could not be found")

	// A new key replaces the old one; deleting it stops it.
	old := ownerAPI.key
	ownerAPI.key = createKey(t, owner)
	apiClient{e: e, key: old}.fails(t, "GET", "workflows", "", 401, "Unauthorized")
	owner.ok(t, "DELETE", "rest/me/api-key", "", nil)
	ownerAPI.fails(t, "GET", "workflows", "", 401, "Unauthorized")
}

func TestPublicAPIExecutionsAndTags(t *testing.T) {
	e, smtp := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	member, _ := signUpMember(t, owner, smtp, "mia@example.com", "Mia")
	ownerAPI := apiClient{e: e, key: createKey(t, owner)}
	memberAPI := apiClient{e: e, key: createKey(t, member)}
	var a, b workflowJSON
	ownerAPI.ok(t, "POST", "workflows", `{"name":"A",`+apiNodes+`}`, &a)
	memberAPI.ok(t, "POST", "workflows", `{"name":"B",`+apiNodes+`}`, &b)
	okRuns := seedExecutions(t, e, 3, a.ID, workflow.StatusSuccess)
	failed := seedExecutions(t, e, 1, a.ID, workflow.StatusError)
	memberRuns := seedExecutions(t, e, 1, b.ID, workflow.StatusSuccess)

	var page apiList
	ownerAPI.ok(t, "GET", "executions?limit=2", "", &page)
	require.Len(t, page.Data, 2)
	seen := 2
	for page.NextCursor != nil {
		ownerAPI.ok(t, "GET", "executions?cursor="+url.QueryEscape(*page.NextCursor), "", &page)
		seen += len(page.Data)
	}
	require.Equal(t, 5, seen)
	ownerAPI.ok(t, "GET", "executions?status=error", "", &page)
	require.Len(t, page.Data, 1)
	var ex apiExecution
	require.NoError(t, json.Unmarshal(page.Data[0], &ex))
	require.Equal(t, failed[0], ex.ID)
	require.Empty(t, ex.Data, "no data unless asked")
	ownerAPI.ok(t, "GET", "executions?workflowId="+a.ID+"&includeData=true", "", &page)
	require.Len(t, page.Data, 4)
	require.NoError(t, json.Unmarshal(page.Data[0], &ex))
	require.NotEmpty(t, ex.Data)
	ownerAPI.fails(t, "GET", "executions?status=bogus", "", 400, "request/query/status")
	memberAPI.ok(t, "GET", "executions", "", &page)
	require.Len(t, page.Data, 1, "members see executions of their own workflows")

	ownerAPI.ok(t, "GET", fmt.Sprintf("executions/%d?includeData=true", okRuns[0]), "", &ex)
	require.Equal(t, okRuns[0], ex.ID)
	require.Equal(t, "success", ex.Status)
	ownerAPI.fails(t, "GET", "executions/abc", "", 400, "request/path/id")
	memberAPI.fails(t, "GET", fmt.Sprintf("executions/%d", okRuns[0]), "", 404, "could not be found")
	memberAPI.fails(t, "DELETE", fmt.Sprintf("executions/%d", okRuns[0]), "", 404, "could not be found")
	memberAPI.ok(t, "DELETE", fmt.Sprintf("executions/%d", memberRuns[0]), "", &ex)
	require.Equal(t, memberRuns[0], ex.ID)
	ownerAPI.fails(t, "GET", fmt.Sprintf("executions/%d", memberRuns[0]), "", 404, "could not be found")

	// Tags.
	var tag tagResponse
	ownerAPI.ok(t, "POST", "tags", `{"name":"ops"}`, &tag)
	require.Equal(t, "ops", tag.Name)
	ownerAPI.fails(t, "POST", "tags", `{"name":"ops"}`, 409, "already exists")
	ownerAPI.fails(t, "POST", "tags", `{"name":"`+strings.Repeat("t", 25)+`"}`, 400, "request/body/name")
	ownerAPI.fails(t, "POST", "tags", `{"name":"x","color":"red"}`, 400, "color")
	for _, n := range []string{"billing", "zeta"} {
		memberAPI.ok(t, "POST", "tags", `{"name":"`+n+`"}`, nil)
	}
	ownerAPI.ok(t, "GET", "tags?limit=2", "", &page)
	require.Len(t, page.Data, 2)
	require.NotNil(t, page.NextCursor)
	ownerAPI.ok(t, "GET", "tags?cursor="+url.QueryEscape(*page.NextCursor), "", &page)
	require.Len(t, page.Data, 1)
	ownerAPI.ok(t, "GET", "tags/"+tag.ID, "", &tag)
	ownerAPI.ok(t, "PUT", "tags/"+tag.ID, `{"name":"operations"}`, &tag)
	require.Equal(t, "operations", tag.Name)
	ownerAPI.fails(t, "PUT", "tags/nope", `{"name":"x"}`, 404, "could not be found")
	memberAPI.fails(t, "DELETE", "tags/"+tag.ID, "", 403, "Only the instance owner")
	ownerAPI.ok(t, "DELETE", "tags/"+tag.ID, "", nil)
	ownerAPI.fails(t, "GET", "tags/"+tag.ID, "", 404, "could not be found")
}

func TestPublicAPIDocsAndSwitch(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	res, b := owner.raw(t, "GET", "api/v1/docs", "")
	if _, err := os.Stat("swaggerui/dist/swagger-ui-bundle.js"); err != nil {
		// Only a bare `go test` lacks the bundle: `make test` (and so CI) builds it first.
		require.Empty(t, os.Getenv("CI"), "CI runs make test, which builds the Swagger UI")
		require.Equal(t, 503, res.StatusCode, "without the built Swagger UI the page says how to build it")
	} else {
		require.Equal(t, 200, res.StatusCode, string(b))
		require.Contains(t, string(b), `src="/flow/api/v1/docs/swagger-ui-bundle.js"`)
		res, b = owner.raw(t, "GET", "api/v1/docs/swagger-ui-bundle.js", "")
		require.Equal(t, 200, res.StatusCode)
		require.Contains(t, res.Header.Get("Content-Type"), "javascript")
		require.Contains(t, string(b), "SwaggerUIBundle")
	}
	res, b = owner.raw(t, "GET", "api/v1/docs/init.js", "")
	require.Equal(t, 200, res.StatusCode)
	require.Contains(t, string(b), `'/flow/api/v1/openapi.yml'`)
	res, _ = owner.raw(t, "GET", "api/v1/docs/../../rest/settings", "")
	require.NotEqual(t, 200, res.StatusCode)
	res, b = owner.raw(t, "GET", "api/v1/openapi.yml", "")
	require.Equal(t, 200, res.StatusCode)
	require.Equal(t, publicAPIDoc, b)

	off, _ := startAccounts(t, map[string]string{"FLOWMILL_PUBLIC_API_DISABLED": "true"})
	offOwner := setUpOwner(t, off)
	for _, path := range []string{"api/v1/docs", "api/v1/openapi.yml", "api/v1/workflows"} {
		res, _ := offOwner.raw(t, "GET", path, "")
		require.Equal(t, 404, res.StatusCode, path)
	}
	status, b := offOwner.call(t, "POST", "rest/me/api-key", "")
	requireError(t, status, b, 400, "The public API is disabled")
}
