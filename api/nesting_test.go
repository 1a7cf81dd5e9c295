package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const tooDeep = "the nesting is deeper than 1,000 levels"

// nestedXML is n nested <a> elements.
func nestedXML(n int) string { return strings.Repeat("<a>", n) + strings.Repeat("</a>", n) }

// nestedArrays is n nested JSON arrays.
func nestedArrays(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// runNestingLimits activates Webhook → Set and Webhook → Code (returning an object 2,000 levels
// deep) on a running Flowmill and calls them with bodies nested too deep and exactly deep
// enough: too deep is a 400 naming the limit with nothing stored, and the process goes on
// answering.
func runNestingLimits(t *testing.T, base string) {
	t.Helper()
	for _, wf := range []string{
		hookWorkflow("deep", "deep-1", `{"path":"deep","httpMethod":"POST","responseMode":"lastNode"}`),
		hookThen("deep code", "deep-2", `{"path":"deepcode","httpMethod":"POST","responseMode":"lastNode"}`,
			"Code", "n8n-nodes-base.code", `{"jsCode":"let o = {}; const top = o;\nfor (let i = 0; i < 2000; i++) { o.a = {}; o = o.a }\nreturn [{json: top}]"}`),
	} {
		code, body := patchJSON(t, base+"rest/workflows/"+createVia(t, base, wf), `{"active":true}`)
		require.Equal(t, 200, code, body)
	}
	alive := func() {
		res, err := http.Get(base + "healthz")
		require.NoError(t, err, "the process stopped answering")
		res.Body.Close()
		require.Equal(t, 200, res.StatusCode)
	}

	for _, c := range []struct{ name, contentType, body string }{
		{"xml", "application/xml", nestedXML(1_000_000)},
		{"json", "application/json", nestedArrays(1_000_000)},
		{"json just past the limit", "application/json", nestedArrays(1001)},
		{"xml just past the limit", "text/xml", nestedXML(1001)},
	} {
		t.Run("too deep "+c.name, func(t *testing.T) {
			before := storedExecutions(t, base)
			res, body := call(t, "POST", base+"webhook/deep", c.contentType, strings.NewReader(c.body))
			require.Equal(t, 400, res.StatusCode, body)
			require.Contains(t, body, tooDeep)
			alive()
			require.Equal(t, before, storedExecutions(t, base), "executions stored by the call")
		})
	}
	t.Run("exactly 1,000 levels", func(t *testing.T) {
		res, body := call(t, "POST", base+"webhook/deep", "application/json", strings.NewReader(nestedArrays(1000)))
		require.Equal(t, 200, res.StatusCode, body)
		require.Contains(t, body, `"done":true`)
		res, body = call(t, "POST", base+"webhook/deep", "application/xml", strings.NewReader(nestedXML(1000)))
		require.Equal(t, 200, res.StatusCode, body)
		require.Contains(t, body, `"done":true`)
	})
	t.Run("rest body too deep", func(t *testing.T) {
		doc := fmt.Sprintf(`{"name":"deep doc","nodes":[],"connections":{},"staticData":%s}`, nestedArrays(1_000_000))
		code, body := post(t, base+"rest/workflows", doc)
		require.Equal(t, 400, code, body)
		require.Contains(t, body, tooDeep)
		alive()
	})
	t.Run("code node result too deep", func(t *testing.T) {
		res, body := call(t, "POST", base+"webhook/deepcode", "application/json", strings.NewReader(`{}`))
		require.Equal(t, 500, res.StatusCode, body)
		alive()
		var list struct {
			Results []struct {
				ID string `json:"id"`
			} `json:"results"`
		}
		require.Equal(t, 200, getJSON(t, base+"rest/executions?limit=1", &list))
		require.NotEmpty(t, list.Results)
		res, body = call(t, "GET", base+"rest/executions/"+list.Results[0].ID, "", nil)
		require.Equal(t, 200, res.StatusCode, body)
		require.Contains(t, body, tooDeep)
	})
}

// TestNestingLimitsInProcess runs the nesting limits against an api and a worker in the test
// process.
func TestNestingLimitsInProcess(t *testing.T) {
	e := startWithWorker(t, nil)
	runNestingLimits(t, e.base)
}

// TestNestingLimitsEmbedded runs them against the embedded binary, where a million nested
// elements once overflowed the stack.
func TestNestingLimitsEmbedded(t *testing.T) {
	_, base := startEmbedded(t)
	runNestingLimits(t, base)
}
