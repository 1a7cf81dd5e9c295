package templates_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/filefence"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/templates"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func registry() *nodes.Registry {
	r := nodes.NewRegistry()
	core.Register(r)
	return r
}

func TestCatalogueSize(t *testing.T) {
	t.Parallel()
	c, err := templates.Builtin(registry())
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(c.Templates()), 40)
	require.GreaterOrEqual(t, len(c.Collections()), 6)
	require.GreaterOrEqual(t, len(c.Categories()), 10)
	used := map[int]bool{}
	for _, tpl := range c.Templates() {
		require.NotEmpty(t, tpl.Categories, tpl.Name)
		require.NotEmpty(t, strings.TrimSpace(tpl.Description), tpl.Name)
		require.NotEmpty(t, tpl.Author, tpl.Name)
		require.False(t, tpl.CreatedAt.IsZero(), tpl.Name)
		require.NotEmpty(t, tpl.Nodes, tpl.Name)
		for _, cat := range tpl.Categories {
			used[cat.ID] = true
		}
	}
	for _, cat := range c.Categories() {
		require.True(t, used[cat.ID], "category %q has no template", cat.Name)
	}
	for _, col := range c.Collections() {
		require.GreaterOrEqual(t, len(col.Workflows), 3, col.Name)
	}
}

// Every node of every template is a type this instance has, in the type's latest version, and
// has no parameter issue: a template imports with nothing to fix but missing credentials.
func TestCatalogueNodesAreKnownAndComplete(t *testing.T) {
	t.Parallel()
	reg := registry()
	c, err := templates.Builtin(reg)
	require.NoError(t, err)
	for _, tpl := range c.Templates() {
		for _, ref := range tpl.NodeRefs() {
			where := tpl.Name + " / " + ref.Name
			typ, err := reg.Lookup(ref.Type, ref.TypeVersion)
			require.NoError(t, err, where)
			versions := reg.Versions(ref.Type)
			require.Equal(t, versions[len(versions)-1], ref.TypeVersion, "%s: use the latest version of %s", where, ref.Type)
			params := ref.Parameters
			if params == nil {
				params = map[string]any{}
			}
			issues, err := workflow.ParameterIssues(typ.Description.Properties, params, ref.TypeVersion)
			require.NoError(t, err, where)
			require.Empty(t, issues, where)
		}
	}
}

// webhookInput is the call a webhook-started template gets in the test run.
var webhookInput = []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{
	"headers": map[string]any{"content-type": "application/json"},
	"params":  map[string]any{},
	"query":   map[string]any{},
	"body": map[string]any{
		"name": "Ada Lovelace", "email": "ada@example.com", "country": "DE", "status": "shipped",
		"severity": "high", "orderId": 1042.0, "customerId": 1.0, "employees": 800.0, "budget": 20000.0,
		"topic": "shipping", "tracking": "TRK-1042",
	},
})}}

// Templates that need no credentials run through the engine to a successful end, as they are.
func TestCatalogueTemplatesRun(t *testing.T) {
	t.Parallel()
	reg := registry()
	c, err := templates.Builtin(reg)
	require.NoError(t, err)
	ev, err := expr.New(expr.Options{})
	require.NoError(t, err)
	ran := 0
	for _, tpl := range c.Templates() {
		if tpl.NeedsCredentials() {
			continue
		}
		ran++
		t.Run(tpl.Name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			files, err := filefence.New(filefence.Options{Root: dir + "/files", DataDir: dir + "/data"})
			require.NoError(t, err)
			eng, err := engine.New(engine.Options{Registry: reg, Evaluator: ev,
				Host: nodes.Host{Files: files, Workflows: workflow.Limits{}}})
			require.NoError(t, err)
			doc, err := json.Marshal(tpl.Workflow)
			require.NoError(t, err)
			mode, input := workflow.ModeManual, []workflow.Item(nil)
			if tpl.NodeRefs()[0].Type == "n8n-nodes-base.webhook" {
				mode, input = workflow.ModeWebhook, webhookInput
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			rep, err := eng.ExecuteDocument(ctx, doc, mode, input)
			require.NoError(t, err)
			var failure string
			if e := rep.Data.ResultData.Error; e != nil {
				failure = e.Node + ": " + e.Message
			}
			require.True(t, rep.Finished, "run did not finish: %s", failure)
			require.Equal(t, workflow.StatusSuccess, rep.Status, failure)
			// Every node that is not behind an untaken branch ran.
			require.NotEmpty(t, rep.NodeExecutionOrder)
		})
	}
	require.GreaterOrEqual(t, ran, 30)
}
