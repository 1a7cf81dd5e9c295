package core_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/nodes/manualtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/noop"
	"github.com/flowmill/flowmill/pkg/nodes/start"
	"github.com/flowmill/flowmill/pkg/nodes/stickynote"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestRegistryLookup(t *testing.T) {
	t.Parallel()
	r := core.Registry()
	tests := []struct {
		name    string
		version float64
		want    float64 // latest version of the type found; 0 means not found
	}{
		{"n8n-nodes-base.set", 1, 2},
		{"n8n-nodes-base.set", 2, 2},
		{"n8n-nodes-base.set", 0, 2}, // no typeVersion: version 1
		{"n8n-nodes-base.set", 3, 3.4},
		{"n8n-nodes-base.set", 3.2, 3.4},
		{"n8n-nodes-base.set", 4, 0},
		{"n8n-nodes-base.if", 1, 1},
		{"n8n-nodes-base.if", 2, 2.3},
		{"n8n-nodes-base.if", 2.2, 2.3},
		{"n8n-nodes-base.if", 3, 0},
		{"n8n-nodes-base.filter", 1, 1},
		{"n8n-nodes-base.filter", 2, 2.3},
		{"n8n-nodes-base.filter", 2.1, 2.3},
		{"n8n-nodes-base.switch", 3.2, 3.4},
		{"n8n-nodes-base.splitInBatches", 2, 2},
		{"n8n-nodes-base.splitInBatches", 3, 3},
		{"n8n-nodes-base.merge", 1, 1},
		{"n8n-nodes-base.merge", 2, 2.1},
		{"n8n-nodes-base.merge", 2.1, 2.1},
		{"n8n-nodes-base.merge", 3, 3.2},
		{"n8n-nodes-base.merge", 3.1, 3.2},
		{"n8n-nodes-base.merge", 4, 0},
		{"n8n-nodes-base.notANode", 1, 0},
		{"n8n-nodes-base.code", 1, 2},
		{"n8n-nodes-base.code", 2, 2},
		{"n8n-nodes-base.noOp", 2, 0},
		{"n8n-nodes-base.itemLists", 2.2, 2.2},
		{"n8n-nodes-base.itemLists", 3, 3.1},
		{"n8n-nodes-base.itemLists", 3.1, 3.1},
		{"n8n-nodes-base.dateTime", 1, 1},
		{"n8n-nodes-base.dateTime", 2, 2},
		{"n8n-nodes-base.removeDuplicates", 1.1, 1.1},
	}
	for _, tc := range tests {
		typ, ok := r.Get(tc.name, tc.version)
		if tc.want == 0 {
			require.False(t, ok, "%s v%g", tc.name, tc.version)
			continue
		}
		require.True(t, ok, "%s v%g", tc.name, tc.version)
		require.Equal(t, tc.want, typ.Description.Version.Latest())
	}
	require.Error(t, r.Register(noop.Type()), "a version registered twice")
}

func TestDescriptions(t *testing.T) {
	t.Parallel()
	r := core.Registry()
	names := map[string]bool{}
	for _, typ := range r.Latest() {
		names[typ.Description.Name] = true
	}
	require.GreaterOrEqual(t, len(names), 8)
	for _, typ := range r.Types() {
		d := typ.Description
		b, err := json.Marshal(d)
		require.NoError(t, err)
		var generic map[string]any
		require.NoError(t, json.Unmarshal(b, &generic))
		for _, key := range []string{"displayName", "name", "group", "version", "defaults", "inputs", "outputs", "properties", "codex"} {
			require.Contains(t, generic, key, d.Name)
		}
		// Core nodes sit in one of the Core Nodes subcategories; integrations in n8n's own
		// categories of the node creator.
		if slices.Contains(d.Codex.Categories, "Core Nodes") {
			require.Equal(t, []string{"Core Nodes"}, d.Codex.Categories, d.Name)
			require.Regexp(t, `^(Flow|Files|Data Transformation|Helpers)$`, d.Codex.Subcategories["Core Nodes"][0], d.Name)
		} else {
			require.NotEmpty(t, d.Codex.Categories, d.Name)
			for _, c := range d.Codex.Categories {
				require.Contains(t, integrationCategories, c, d.Name)
			}
		}
		require.Regexp(t, `^(fa|file):`, d.Icon, d.Name)
		for _, v := range d.Version {
			_, err := workflow.ResolveParameters(d.Properties, map[string]any{}, v)
			require.NoError(t, err, d.Name)
		}
	}
}

func TestPassThroughNodes(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(map[string]any{"a": 1.0}, map[string]any{"b": 2.0})
	for _, typ := range []nodes.Type{noop.Type(), start.Type(), stickynote.Type()} {
		out, err := nodetest.Run(t, typ, nodetest.Node{}, in)
		require.NoError(t, err, typ.Description.Name)
		require.Equal(t, nodetest.JSONs(in), nodetest.JSONs(out[0]), typ.Description.Name)
	}
	out, err := nodetest.Run(t, manualtrigger.Type(), nodetest.Node{})
	require.NoError(t, err)
	require.Equal(t, [][]map[string]any{{{}}}, nodetest.Outputs(out))
	require.Equal(t, nodes.KindTrigger, manualtrigger.Type().Kind)
}

// TestNodeTraits pins the traits the node folders declare: which nodes are not checkpointed
// (README, Limits, Checkpoints), which start a run without a trigger, and which webhooks only
// resume one.
func TestNodeTraits(t *testing.T) {
	t.Parallel()
	effectFree := map[string]bool{}
	starters := map[string]int{}
	webhookStarters := map[string]bool{}
	for _, typ := range core.Registry().Types() {
		if typ.EffectFree {
			effectFree[typ.Description.Name] = true
		}
		if typ.StartPriority > 0 {
			starters[typ.Description.Name] = typ.StartPriority
		}
		if typ.Description.StartsFromWebhook() {
			webhookStarters[typ.Description.Name] = true
		}
	}
	require.Equal(t, map[string]bool{
		"n8n-nodes-base.webhook": true, "n8n-nodes-base.start": true, "n8n-nodes-base.manualTrigger": true,
		"n8n-nodes-base.set": true, "n8n-nodes-base.if": true, "n8n-nodes-base.switch": true,
		"n8n-nodes-base.merge": true, "n8n-nodes-base.noOp": true, "n8n-nodes-base.renameKeys": true,
		"n8n-nodes-base.filter": true, "n8n-nodes-base.respondToWebhook": true,
		"n8n-nodes-base.itemLists": true, "n8n-nodes-base.dateTime": true,
		"n8n-nodes-base.compareDatasets": true, "n8n-nodes-base.stickyNote": true,
		"n8n-nodes-base.aggregate": true, "n8n-nodes-base.limit": true, "n8n-nodes-base.removeDuplicates": true,
		"n8n-nodes-base.sort": true, "n8n-nodes-base.splitOut": true, "n8n-nodes-base.summarize": true,
		"n8n-nodes-base.n8nTrainingCustomerDatastore": true, "n8n-nodes-base.n8nTrainingCustomerMessenger": true,
		"n8n-nodes-base.htmlExtract":            true,
		"n8n-nodes-base.html":                   true,
		"n8n-nodes-base.iCal":                   true,
		"n8n-nodes-base.executeWorkflowTrigger": true,
	}, effectFree)
	require.Equal(t, map[string]int{"n8n-nodes-base.manualTrigger": 1, "n8n-nodes-base.errorTrigger": 2,
		"n8n-nodes-base.start": 3}, starters)
	require.Equal(t, map[string]bool{"n8n-nodes-base.webhook": true}, webhookStarters,
		"Wait's webhook resumes an execution, it does not start one")
}

// integrationCategories are the node creator's categories of n8n's integration nodes.
var integrationCategories = []string{"Analytics", "Communication", "Cybersecurity", "Data & Storage", "Development",
	"Finance & Accounting", "Marketing & Content", "Miscellaneous", "Productivity", "Sales", "Utility"}
