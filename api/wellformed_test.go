package main

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

const (
	notUTF8 = "The request body is not valid UTF-8"
	hasNUL  = `Text may not contain the NUL character (\\u0000)`
)

// TestTextMustBeWellFormed sends names, node parameters and query strings with a NUL character
// or bytes that are not UTF-8 to the REST and public API: each is a 400 naming the rule (and
// the field), nothing is stored, and the text is never rewritten.
func TestTextMustBeWellFormed(t *testing.T) {
	e, _ := startAccounts(t, nil)
	owner := setUpOwner(t, e)
	api := apiClient{e: e, key: createKey(t, owner)}
	ctx := t.Context()
	countWorkflows := func() int64 {
		var n int64
		require.NoError(t, e.in.Store.DB.WithContext(ctx).Model(&store.Workflow{}).Count(&n).Error)
		return n
	}
	countTags := func() int64 {
		var n int64
		require.NoError(t, e.in.Store.DB.WithContext(ctx).Model(&store.Tag{}).Count(&n).Error)
		return n
	}
	wf := func(name, value string) string {
		return `{"name":"` + name + `","nodes":[{"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},` +
			`{"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"string":[{"name":"a","value":"` + value + `"}]}}}],` +
			`"connections":{},"settings":{}}`
	}
	for _, c := range []struct{ name, method, path, body, want, field string }{
		{"workflow name with NUL", "POST", "rest/workflows", wf(`a\u0000b`, "x"), hasNUL, "name"},
		{"workflow name not UTF-8", "POST", "rest/workflows", wf("a\xffb", "x"), notUTF8, "name"},
		{"parameter with NUL", "POST", "rest/workflows", wf("ok", `x\u0000`), hasNUL, "nodes[1].parameters.values.string[0].value"},
		{"parameter not UTF-8", "POST", "rest/workflows", wf("ok", "x\xc3\x28"), notUTF8, "nodes[1].parameters.values.string[0].value"},
		{"parameter with a lone surrogate", "POST", "rest/workflows", wf("ok", `\ud800x`), notUTF8, "nodes[1].parameters"},
		{"tag name with NUL", "POST", "rest/tags", `{"name":"t\u0000"}`, hasNUL, "name"},
		{"tag name not UTF-8", "POST", "rest/tags", "{\"name\":\"t\xfe\"}", notUTF8, "name"},
		{"credential name with NUL", "POST", "api/v1/credentials", `{"name":"c\u0000","type":"httpBasicAuth","data":{"user":"u","password":"p"}}`, hasNUL, "name"},
		{"key with NUL", "POST", "rest/tags", `{"na\u0000me":"t"}`, hasNUL, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			workflows, tags := countWorkflows(), countTags()
			res, b := owner.raw(t, c.method, c.path, c.body, apiKeyHeader, api.key)
			require.Equal(t, 400, res.StatusCode, string(b))
			require.Contains(t, string(b), c.want)
			require.Contains(t, string(b), c.field)
			require.Equal(t, workflows, countWorkflows())
			require.Equal(t, tags, countTags())
		})
	}

	t.Run("public API body", func(t *testing.T) {
		workflows := countWorkflows()
		code, b := api.call(t, "POST", "workflows", wf(`p\u0000`, "x"))
		require.Equal(t, 400, code, string(b))
		require.Contains(t, string(b), hasNUL)
		code, b = api.call(t, "POST", "workflows", wf("p\xff", "x"))
		require.Equal(t, 400, code, string(b))
		require.Contains(t, string(b), notUTF8)
		require.Equal(t, workflows, countWorkflows())
	})

	t.Run("query strings and paths", func(t *testing.T) {
		for _, p := range []string{
			"api/v1/workflows?tags=" + url.QueryEscape("a\x00b"),
			"api/v1/workflows?tags=" + url.QueryEscape("a\xffb"),
			"rest/workflows/new?name=" + url.QueryEscape("n\x00"),
			"rest/workflows?filter=" + url.QueryEscape(`{"name":"a\u0000"}`),
			"rest/workflows/" + url.PathEscape("1\x00"),
		} {
			res, b := owner.raw(t, "GET", p, "", apiKeyHeader, api.key)
			require.Equal(t, 400, res.StatusCode, p+": "+string(b))
			require.True(t, strings.Contains(string(b), hasNUL) || strings.Contains(string(b), "not valid UTF-8"), string(b))
		}
	})

	t.Run("well-formed text is kept as written", func(t *testing.T) {
		res, b := owner.raw(t, "POST", "rest/tags", `{"name":"Grüße 😀 \u00e9"}`)
		require.Equal(t, 200, res.StatusCode, string(b))
		require.Contains(t, string(b), `"name":"Grüße 😀 é"`)
	})
}

// TestWebhookBodiesKeepNULAndRefuseBytesNotUTF8 calls an active webhook with data holding the
// NUL character and with bytes that are not UTF-8. Webhook bodies are data: the NUL character
// is kept as sent, through the run and the stored execution; a JSON or form body that is not
// UTF-8 is not JSON (RFC 8259) and gets 400 instead of being rewritten; never a 500.
func TestWebhookBodiesKeepNULAndRefuseBytesNotUTF8(t *testing.T) {
	e := startWithWorker(t, nil)
	id := e.saveWorkflow(t, hookThen("data", "wf-data", `{"path":"data","httpMethod":"POST","responseMode":"lastNode"}`,
		"Set", "n8n-nodes-base.set", `{"values":{"string":[{"name":"copy","value":"={{ $json.body.a }}"}]}}`))
	code, b := e.setActive(t, id, true)
	require.Equal(t, 200, code, string(b))

	res, body := call(t, "POST", e.base+"webhook/data", "application/json", strings.NewReader(`{"a":"x\u0000y"}`))
	require.Equal(t, 200, res.StatusCode, body)
	require.JSONEq(t, `"x\u0000y"`, jsonField(t, body, "copy"))
	var list []store.Execution
	require.Eventually(t, func() bool {
		var err error
		list, err = e.in.Store.ListExecutions(t.Context(), store.ExecutionFilter{Statuses: []workflow.Status{workflow.StatusSuccess}}, 10)
		require.NoError(t, err)
		return len(list) == 1
	}, 10*time.Second, 20*time.Millisecond)
	res, stored := call(t, "GET", e.base+"rest/executions/"+fmt.Sprint(list[0].ID), "", nil)
	require.Equal(t, 200, res.StatusCode, stored)
	require.Contains(t, stored, `"copy":"x\u0000y"`, "the stored run data keeps the NUL character")

	for _, c := range []struct{ contentType, body string }{
		{"application/json", "{\"a\":\"x\xffy\"}"},
		{"application/x-www-form-urlencoded", "a=x%FFy"},
	} {
		res, body = call(t, "POST", e.base+"webhook/data", c.contentType, strings.NewReader(c.body))
		require.Equal(t, 400, res.StatusCode, c.contentType+": "+body)
		require.Contains(t, body, "not valid UTF-8")
	}
	res, body = call(t, "POST", e.base+"webhook/data", "application/json", strings.NewReader(`{"a":"ok"}`))
	require.Equal(t, 200, res.StatusCode, body)
}
