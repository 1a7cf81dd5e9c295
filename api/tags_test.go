package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTagsLifecycle(t *testing.T) {
	e := startServer(t, nil)
	status, b := e.call(t, "POST", "rest/tags", `{"name":"  ops  "}`)
	require.Equal(t, 200, status, string(b))
	var ops tagResponse
	decodeData(t, b, &ops)
	require.Equal(t, "ops", ops.Name, "the name is trimmed")
	require.Len(t, ops.ID, 16)
	require.False(t, ops.CreatedAt.IsZero())
	require.Nil(t, ops.UsageCount)
	billing := e.createTag(t, "billing")
	unused := e.createTag(t, strings.Repeat("ü", 24))
	e.createWorkflow(t, `{"name":"A","tags":["`+ops.ID+`","`+billing.ID+`"]}`)
	b2 := e.createWorkflow(t, `{"name":"B","tags":["`+ops.ID+`"]}`)

	list := func(query string) []map[string]any {
		t.Helper()
		status, b := e.call(t, "GET", "rest/tags"+query, "")
		require.Equal(t, 200, status, string(b))
		var out []map[string]any
		decodeData(t, b, &out)
		return out
	}
	plain := list("")
	require.Equal(t, []any{"billing", "ops", unused.Name}, pluck(plain, "name"), "sorted by name")
	require.NotContains(t, plain[0], "usageCount")
	require.Contains(t, plain[0], "createdAt")
	withUsage := list("?withUsageCount=true")
	require.Equal(t, []any{float64(1), float64(2), float64(0)}, pluck(withUsage, "usageCount"))

	// Rename, including to the same name, which is no conflict with itself.
	for _, name := range []string{"operations", "operations"} {
		status, b = e.call(t, "PATCH", "rest/tags/"+ops.ID, `{"name":"`+name+`"}`)
		require.Equal(t, 200, status, string(b))
		var renamed tagResponse
		decodeData(t, b, &renamed)
		require.Equal(t, tagResponse{ID: ops.ID, Name: "operations", CreatedAt: ops.CreatedAt, UpdatedAt: renamed.UpdatedAt}, renamed)
	}
	require.Equal(t, []tagRef{{ID: ops.ID, Name: "operations"}}, e.getWorkflow(t, b2.ID).Tags)

	status, b = e.call(t, "DELETE", "rest/tags/"+ops.ID, "")
	require.Equal(t, 200, status, string(b))
	require.JSONEq(t, `{"data":true}`, string(b))
	require.Empty(t, e.getWorkflow(t, b2.ID).Tags, "workflows lose a deleted tag")
	require.Equal(t, []any{float64(1), float64(0)}, pluck(list("?withUsageCount=true"), "usageCount"))
}

func pluck(list []map[string]any, key string) []any {
	out := make([]any, len(list))
	for i, m := range list {
		out[i] = m[key]
	}
	return out
}

func TestTagsRejectBadInput(t *testing.T) {
	e := startServer(t, nil)
	ops := e.createTag(t, "ops")
	e.createTag(t, "billing")

	cases := []struct {
		method, path, body string
		status             int
		msg                string
	}{
		{"POST", "rest/tags", `{"name":`, 400, "The body must be JSON"},
		{"POST", "rest/tags", `{}`, 400, "name is missing"},
		{"POST", "rest/tags", `{"name":"  "}`, 400, "Tag name cannot be empty"},
		{"POST", "rest/tags", `{"name":"` + strings.Repeat("t", 25) + `"}`, 400, "Tag name must be 1 to 24 characters long"},
		{"POST", "rest/tags", `{"name":" ops"}`, 409, `A tag with the name "ops" already exists`},
		{"PATCH", "rest/tags/" + ops.ID, `{"name":"billing"}`, 409, `A tag with the name "billing" already exists`},
		{"PATCH", "rest/tags/" + ops.ID, `{"name":""}`, 400, "Tag name cannot be empty"},
		{"PATCH", "rest/tags/" + ops.ID, `nope`, 400, "The body must be JSON"},
		{"PATCH", "rest/tags/nope", `{"name":"x"}`, 404, "Tag with ID nope could not be found"},
		{"DELETE", "rest/tags/nope", ``, 404, "Tag with ID nope could not be found"},
	}
	for _, c := range cases {
		status, b := e.call(t, c.method, c.path, c.body)
		requireError(t, status, b, c.status, c.msg)
	}
	status, b := e.call(t, "GET", "rest/tags", "")
	require.Equal(t, 200, status)
	var tags []tagRef
	decodeData(t, b, &tags)
	require.Equal(t, []string{"billing", "ops"}, []string{tags[0].Name, tags[1].Name}, "failures change nothing")
	require.Len(t, tags, 2)
}

func TestTagsDisabled(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_WORKFLOW_TAGS_DISABLED": "true"})
	for _, c := range [][2]string{{"GET", "rest/tags"}, {"POST", "rest/tags"}, {"PATCH", "rest/tags/x"}, {"DELETE", "rest/tags/x"}} {
		status, b := e.call(t, c[0], c[1], `{"name":"x"}`)
		requireError(t, status, b, 400, "Workflow tags are disabled")
	}
	w := e.createWorkflow(t, `{"name":"A","tags":["ignored"]}`)
	require.Empty(t, w.Tags, "tags in workflow bodies are ignored")
	out, err := json.Marshal(w.Tags)
	require.NoError(t, err)
	require.Equal(t, "[]", string(out))
}
