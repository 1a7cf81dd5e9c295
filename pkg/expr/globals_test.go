package expr

import (
	"github.com/flowmill/flowmill/pkg/workflow"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGlobals(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	for _, tc := range []struct {
		expr string
		want any
	}{
		{`={{ $json.name }}`, "b"},
		{`={{ $json["n"] * 10 }}`, int64(20)},
		{`={{ $data.name }}`, "b"},
		{`={{ $json.tags.length }}`, int64(1)},
		{`={{ $binary.file }}`, map[string]any{"mimeType": "text/plain", "fileName": "hi.txt"}},
		{`={{ $thisItem.json.name }}`, "b"},

		{`={{ $node["IF"].json.name }}`, "b"}, // the false branch, which feeds Current
		{`={{ $node.Set.json.name }}`, "a"},   // by item index, last run
		{`={{ $node["Set"].data.n }}`, int64(1)},
		{`={{ $node["Set"].runIndex }}`, int64(1)},
		{`={{ $node["Set"].parameter.keepOnlySet }}`, true},
		{`={{ $node["IF"].context.noItemsLeft }}`, true},
		{`={{ $node["IF"].context["missing"] }}`, nil},
		{`={{ $node["IF"].binary }}`, map[string]any{}},

		{`={{ $items().length }}`, int64(1)},
		{`={{ $items("Set").map(i => i.json.name) }}`, []any{"a", "b"}},
		{`={{ $items("Set", 0, 0)[0].json.name }}`, "old"},
		{`={{ $items("IF", 1)[0].json.name }}`, "b"},
		{`={{ $items("IF")[0].json.name }}`, "a"},

		{`={{ $item(0).$json.name }}`, "b"},
		{`={{ $item(1).$node["Set"].json.name }}`, "b"},
		{`={{ $item(0, 0).$node["Set"].json.name }}`, "old"},

		{`={{ $input.all().length }}`, int64(1)},
		{`={{ $input.first().json.name }}`, "b"},
		{`={{ $input.last().json.n }}`, int64(2)},
		{`={{ $input.item.json.name }}`, "b"},
		{`={{ $input.item.pairedItem }}`, map[string]any{"item": int64(0)}},
		{`={{ $input.params.combineOperation }}`, "all"},
		{`={{ $input.context.noItemsLeft }}`, true},

		{`={{ $("Set").item.json.name }}`, "b"}, // traced back through IF's pairedItem
		{`={{ $("Start").item.json }}`, map[string]any{}},
		{`={{ $("IF").item.json.n }}`, int64(2)},
		{`={{ $("Set").itemMatching(0).json.name }}`, "b"},
		{`={{ $("Set").pairedItem().json.name }}`, "b"},
		{`={{ $("Set").all().length }}`, int64(2)},
		{`={{ $("Set").all(0, 0)[0].json.name }}`, "old"},
		{`={{ $("Set").first().json.name }}`, "a"},
		{`={{ $("Set").last().json.name }}`, "b"},
		{`={{ $("Set").params.keepOnlySet }}`, true},
		{`={{ $("IF").context.noItemsLeft }}`, true},
		{`={{ $("Set").isExecuted }}`, true},
		{`={{ $("Orphan").isExecuted }}`, false},

		{`={{ $parameter.plain }}`, int64(5)}, // JavaScript numbers carry no int/float distinction
		{`={{ $parameter.value }}`, "x2"},     // an expression itself, evaluated
		{`={{ $parameter["rl"] }}`, "abc"},
		{`={{ $parameter.missing }}`, nil},

		{`={{ $position }}`, int64(0)},
		{`={{ $itemIndex }}`, int64(0)},
		{`={{ $runIndex }}`, int64(0)},
		{`={{ $mode }}`, "manual"},
		{`={{ $workflow.id + "/" + $workflow.name + "/" + $workflow.active }}`, "wf1/My workflow/true"},
		{`={{ $execution.id }}`, "42"},
		{`={{ $execution.mode }}`, "test"},
		{`={{ $execution.resumeUrl }}`, "http://localhost:5678/webhook-waiting/42"},
		{`={{ $executionId }}`, "42"},
		{`={{ $resumeWebhookUrl }}`, "http://localhost:5678/webhook-waiting/42"},
		{`={{ $env.HOME }}`, "/home/flowmill"},
		{`={{ $env.NOPE }}`, nil},
		{`={{ $prevNode.name + $prevNode.outputIndex }}`, "IF1"},
		{`={{ $evaluateExpression("{{ $json.name }}!") }}`, "b!"},

		{`={{ $now.zoneName }}`, "Europe/Berlin"},
		{`={{ $today.hour + $today.minute + $today.second }}`, int64(0)},
		{`={{ $today.toMillis() <= $now.toMillis() }}`, true},
		{`={{ DateTime.now().zoneName }}`, "Europe/Berlin"}, // Luxon's default zone follows the workflow
		{`={{ typeof DateTime + typeof Duration + typeof Interval }}`, "functionfunctionfunction"},

		{`={{ $jmespath($json, "name") }}`, "b"},
		// Go data (here jmespath's result) comes back as it is, with float64 numbers.
		{`={{ $jmespath({a: [{b: 1}, {b: 2}]}, "a[?b > ` + "`1`" + `].b") }}`, []any{2.0}},
		{`={{ $jmesPath($input.all(), "[0].json.n") }}`, int64(2)},
	} {
		got, err := e.Evaluate(tc.expr, fixtureContext())
		require.NoError(t, err, tc.expr)
		require.Equal(t, tc.want, workflow.ToMaps(got), tc.expr)
	}
}

func TestGlobalsErrors(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	for _, tc := range []struct {
		expr, message, description string
	}{
		{`={{ $node["Nope"].json }}`, "Referenced node doesn't exist", "Nope"},
		{`={{ $node["Orphan"].json }}`, "Referenced node is unexecuted", "Orphan"},
		{`={{ $items("Orphan") }}`, "Referenced node is unexecuted", "Orphan"},
		{`={{ $("Orphan").all() }}`, "Referenced node is unexecuted", "Orphan"},
		{`={{ $("Nope") }}`, "Referenced node doesn't exist", "Nope"},
		{`={{ $() }}`, "When calling $(), please specify a node", ""},
		{`={{ $("Orphan").item }}`, "Invalid expression", "no path back"},
		{`={{ $("Set").itemMatching() }}`, "Missing item index for .itemMatching()", ""},
		{`={{ $items("Set", 0, 5) }}`, `Run 5 of node "Set" not found`, ""},
		{`={{ $items("Set", 3) }}`, `Node "Set" has no branch with index 3.`, ""},
		{`={{ $item(7).$json }}`, `No data found for item-index: "7"`, ""},
		{`={{ $input.first(1) }}`, "$input.first() should have no arguments", ""},
		{`={{ $jmespath({}, "[[[") }}`, "SyntaxError: Incomplete expression", ""},
	} {
		_, err := e.Evaluate(tc.expr, fixtureContext())
		var ee *Error
		require.ErrorAs(t, err, &ee, tc.expr)
		require.Equal(t, tc.message, ee.Message, tc.expr)
		require.Contains(t, ee.Description, tc.description, tc.expr)
		require.Equal(t, tc.expr, ee.Expression)
	}

	c := fixtureContext()
	c.EnvBlocked = true
	_, err := e.Evaluate(`={{ $env.HOME }}`, c)
	require.ErrorContains(t, err, "Environment variable access got disabled")

	c = fixtureContext()
	c.NodeParameters = map[string]any{"self": "={{ $parameter.self }}"}
	_, err = e.Evaluate(`={{ $parameter.self }}`, c)
	require.ErrorContains(t, err, "nested too deeply")

	c = fixtureContext()
	c.Items = nil
	_, err = e.Evaluate(`={{ $json.a }}`, c)
	require.ErrorContains(t, err, "No execution data available")
}

// Data errors are ordinary exceptions inside JavaScript, so code can catch them as in n8n.
func TestGlobalsErrorsCatchable(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	got, err := e.Evaluate(`={{ (() => { try { return $("Orphan").first() } catch (e) { return "caught: " + e.message } })() }}`, fixtureContext())
	require.NoError(t, err)
	require.Equal(t, "caught: Referenced node is unexecuted", got)
}

func TestNilContext(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	got, err := e.Evaluate(`={{ typeof $json + " " + typeof $now + " " + $jmespath({a: 1}, "a") }}`, nil)
	require.NoError(t, err)
	require.Equal(t, "undefined object 1", got)
}

// Without Context.Nodes and ParentOutput, unknown nodes count as unexecuted and output 0 is read.
func TestGlobalsWithoutWorkflowInfo(t *testing.T) {
	t.Parallel()
	e := newTestEvaluator(t)
	c := fixtureContext()
	c.Nodes, c.ParentOutput = nil, nil
	got, err := e.Evaluate(`={{ $node["IF"].json.name }}`, c)
	require.NoError(t, err)
	require.Equal(t, "a", got)
	_, err = e.Evaluate(`={{ $node["Nope"].json }}`, c)
	require.ErrorContains(t, err, "Referenced node is unexecuted")
	got, err = e.Evaluate(`={{ $("Set").item.json.name }}`, c)
	require.NoError(t, err)
	require.Equal(t, "b", got)
}
