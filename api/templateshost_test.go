package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

type hostWorkflows struct {
	TotalWorkflows int `json:"totalWorkflows"`
	Workflows      []struct {
		ID         int    `json:"id"`
		Name       string `json:"name"`
		CreatedAt  string `json:"createdAt"`
		TotalViews int    `json:"totalViews"`
		User       struct {
			Username string `json:"username"`
		} `json:"user"`
		Nodes []struct {
			Name        string `json:"name"`
			DisplayName string `json:"displayName"`
			IconData    struct {
				Type       string `json:"type"`
				Icon       string `json:"icon"`
				FileBuffer string `json:"fileBuffer"`
			} `json:"iconData"`
			TypeVersion float64 `json:"typeVersion"`
		} `json:"nodes"`
	} `json:"workflows"`
}

func hostGet(t *testing.T, e *testEnv, path string, v any) (int, string) {
	t.Helper()
	res, b := e.do(t, "GET", "templates-host/"+path, "")
	if v != nil && res.StatusCode == 200 {
		require.NoError(t, json.Unmarshal(b, v), string(b))
	}
	return res.StatusCode, string(b)
}

// The built-in host answers n8n's templates API: the settings point at it, health and
// categories answer, workflows page with skip and rows, search and the category filter narrow
// them, collections filter the same way, lookups by id answer or 404, and bad values get 400.
func TestTemplatesHost(t *testing.T) {
	e := startServer(t, nil)

	_, b := e.do(t, "GET", "rest/settings", "")
	var s map[string]any
	decodeData(t, b, &s)
	require.Equal(t, map[string]any{"enabled": true, "host": e.cfg.BasePath + "templates-host/"}, s["templates"])

	// Public, like n8n's host: no session needed, JSON that no cache keeps.
	res, err := http.Get(e.base + "templates-host/health")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
	require.JSONEq(t, `{"status":"OK"}`, string(body))
	require.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))

	var cats struct {
		Categories []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"categories"`
	}
	status, _ := hostGet(t, e, "templates/categories", &cats)
	require.Equal(t, 200, status)
	require.GreaterOrEqual(t, len(cats.Categories), 10)
	catID := map[string]int{}
	for _, c := range cats.Categories {
		catID[c.Name] = c.ID
	}

	// Paging: ten by default, pages do not overlap, the last one is short, past the end empty.
	var first, second, all, past hostWorkflows
	hostGet(t, e, "templates/workflows?skip=0&rows=10", &first)
	require.GreaterOrEqual(t, first.TotalWorkflows, 40)
	require.Len(t, first.Workflows, 10)
	hostGet(t, e, "templates/workflows?skip=10&rows=10", &second)
	require.Len(t, second.Workflows, 10)
	require.NotEqual(t, first.Workflows[0].ID, second.Workflows[0].ID)
	hostGet(t, e, "templates/workflows?skip=0&rows=100", &all)
	require.Len(t, all.Workflows, all.TotalWorkflows)
	require.Equal(t, all.Workflows[10].ID, second.Workflows[0].ID)
	hostGet(t, e, "templates/workflows?skip=1000", &past)
	require.Empty(t, past.Workflows)
	require.Equal(t, all.TotalWorkflows, past.TotalWorkflows)
	w := first.Workflows[0]
	require.NotEmpty(t, w.Name)
	require.NotEmpty(t, w.CreatedAt)
	require.Equal(t, "flowmill", w.User.Username)
	require.NotEmpty(t, w.Nodes)
	for _, n := range w.Nodes {
		require.NotEmpty(t, n.DisplayName)
		require.Contains(t, []string{"file", "icon"}, n.IconData.Type, n.Name)
	}

	// Search: every word, case-insensitive, name or description.
	var found hostWorkflows
	hostGet(t, e, "templates/workflows?search=DUPLICATE%20contacts", &found)
	require.Equal(t, 1, found.TotalWorkflows)
	require.Equal(t, "Remove duplicate contacts", found.Workflows[0].Name)
	hostGet(t, e, "templates/workflows?search=nothing-matches-this", &found)
	require.Equal(t, 0, found.TotalWorkflows)
	require.NotNil(t, found.Workflows)

	// Category filter: any of the listed categories.
	var errs, files, either hostWorkflows
	hostGet(t, e, "templates/workflows?rows=100&category="+itoa(catID["Error Handling"]), &errs)
	require.GreaterOrEqual(t, errs.TotalWorkflows, 3)
	require.Less(t, errs.TotalWorkflows, all.TotalWorkflows)
	hostGet(t, e, "templates/workflows?rows=100&category="+itoa(catID["Files & Binary Data"]), &files)
	hostGet(t, e, "templates/workflows?rows=100&category="+itoa(catID["Error Handling"])+","+itoa(catID["Files & Binary Data"]), &either)
	require.Equal(t, errs.TotalWorkflows+files.TotalWorkflows, either.TotalWorkflows)
	hostGet(t, e, "templates/workflows?category="+itoa(catID["Error Handling"])+"&search=severity", &found)
	require.Equal(t, 1, found.TotalWorkflows)
	require.Equal(t, "Sort failures by severity", found.Workflows[0].Name)

	// Collections: all, by category, by search (also in their templates' names).
	type collections struct {
		Collections []struct {
			ID        int    `json:"id"`
			Name      string `json:"name"`
			Workflows []struct {
				ID int `json:"id"`
			} `json:"workflows"`
			Nodes []any `json:"nodes"`
		} `json:"collections"`
	}
	var cols, errCols, searched collections
	hostGet(t, e, "templates/collections?category=&search=", &cols)
	require.GreaterOrEqual(t, len(cols.Collections), 6)
	hostGet(t, e, "templates/collections?category="+itoa(catID["Error Handling"]), &errCols)
	require.Len(t, errCols.Collections, 1)
	require.Equal(t, "Error handling", errCols.Collections[0].Name)
	hostGet(t, e, "templates/collections?search=invoice", &searched)
	require.NotEmpty(t, searched.Collections)
	require.Less(t, len(searched.Collections), len(cols.Collections))

	// One collection, one template, and the import shape.
	var col struct {
		Collection struct {
			ID          int    `json:"id"`
			Name        string `json:"name"`
			Description string `json:"description"`
			Workflows   []struct {
				ID   int    `json:"id"`
				Name string `json:"name"`
			} `json:"workflows"`
			Categories []any `json:"categories"`
			Image      []any `json:"image"`
		} `json:"collection"`
	}
	status, _ = hostGet(t, e, "templates/collections/"+itoa(errCols.Collections[0].ID), &col)
	require.Equal(t, 200, status)
	require.NotEmpty(t, col.Collection.Description)
	require.Len(t, col.Collection.Workflows, len(errCols.Collections[0].Workflows))
	require.NotEmpty(t, col.Collection.Workflows[0].Name)
	require.NotNil(t, col.Collection.Image)

	var tpl struct {
		Workflow struct {
			ID          int    `json:"id"`
			Name        string `json:"name"`
			Description string `json:"description"`
			Categories  []any  `json:"categories"`
			Workflow    struct {
				Nodes       []map[string]any `json:"nodes"`
				Connections map[string]any   `json:"connections"`
			} `json:"workflow"`
		} `json:"workflow"`
	}
	status, _ = hostGet(t, e, "templates/workflows/1", &tpl)
	require.Equal(t, 200, status)
	require.Equal(t, 1, tpl.Workflow.ID)
	require.NotEmpty(t, tpl.Workflow.Description)
	require.NotEmpty(t, tpl.Workflow.Categories)
	require.NotEmpty(t, tpl.Workflow.Workflow.Nodes)
	require.NotEmpty(t, tpl.Workflow.Workflow.Connections)
	var imp struct {
		ID       int    `json:"id"`
		Name     string `json:"name"`
		Workflow struct {
			Nodes []map[string]any `json:"nodes"`
		} `json:"workflow"`
	}
	status, _ = hostGet(t, e, "workflows/templates/1", &imp)
	require.Equal(t, 200, status)
	require.Equal(t, tpl.Workflow.Name, imp.Name)
	require.Len(t, imp.Workflow.Nodes, len(tpl.Workflow.Workflow.Nodes))

	// Not found, and bad values.
	for path, want := range map[string]string{
		"templates/workflows/9999":   "Template 9999 was not found",
		"templates/collections/9999": "Collection 9999 was not found",
		"workflows/templates/9999":   "Template 9999 was not found",
		"templates/no-such-path":     "Not found",
	} {
		status, body := hostGet(t, e, path, nil)
		require.Equal(t, 404, status, path)
		require.Contains(t, body, want, path)
	}
	for path, want := range map[string]string{
		"templates/workflows?skip=-1":       "skip must be a whole number from 0",
		"templates/workflows?skip=ten":      "skip must be a whole number",
		"templates/workflows?rows=0":        "rows must be a whole number from 1 to 100",
		"templates/workflows?rows=101":      "rows must be a whole number from 1 to 100",
		"templates/workflows?category=1,x":  `category must list category ids separated by commas, such as 1,4; \"x\" is not one`,
		"templates/collections?category=-2": "category must list category ids",
		"templates/workflows/abc":           `The template id must be a positive whole number, not \"abc\"`,
		"templates/collections/0":           "The collection id must be a positive whole number",
		"workflows/templates/1.5":           "The template id must be a positive whole number",
	} {
		status, body := hostGet(t, e, path, nil)
		require.Equal(t, 400, status, path)
		require.Contains(t, body, want, path)
	}
	long := make([]byte, 201)
	for i := range long {
		long[i] = 'a'
	}
	status, text := hostGet(t, e, "templates/workflows?search="+string(long), nil)
	require.Equal(t, 400, status)
	require.Contains(t, text, "search may be at most 200 characters long")
}

// With templates off the host is gone and the settings say so.
func TestTemplatesHostOff(t *testing.T) {
	e := startServer(t, map[string]string{"FLOWMILL_TEMPLATES_ENABLED": "false", "FLOWMILL_TEMPLATES_HOST": "https://templates.example.com/"})
	_, b := e.do(t, "GET", "rest/settings", "")
	var s map[string]any
	decodeData(t, b, &s)
	require.Equal(t, map[string]any{"enabled": false, "host": "https://templates.example.com/"}, s["templates"])
	status, body := hostGet(t, e, "health", nil)
	require.Equal(t, 404, status)
	require.Contains(t, body, "FLOWMILL_TEMPLATES_ENABLED=false")
}

func itoa(n int) string { return strconv.Itoa(n) }
