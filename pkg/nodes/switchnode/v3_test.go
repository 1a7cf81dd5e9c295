package switchnode_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/switchnode"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func cond(left, right any, typ, op string) m {
	return m{"leftValue": left, "rightValue": right, "operator": m{"type": typ, "operation": op}}
}

func rule(combinator string, conds ...m) m {
	list := make([]any, len(conds))
	for i, c := range conds {
		list[i] = c
	}
	return m{"conditions": m{"conditions": list, "combinator": combinator}}
}

func rulesV3(options m, rs ...m) m {
	list := make([]any, len(rs))
	for i, r := range rs {
		list[i] = r
	}
	return m{"rules": m{"values": list}, "options": options}
}

func TestSwitchV3(t *testing.T) {
	t.Parallel()
	people := nodetest.Items(
		m{"name": "Ada", "age": 36.0, "tags": []any{"math"}},
		m{"name": "bob", "age": "17", "tags": []any{}},
		m{"name": "Cy", "age": 70.0, "tags": []any{"art", "math"}},
	)
	tests := []struct {
		name   string
		params m
		want   [][]int
	}{
		{"expression", m{"mode": "expression", "numberOutputs": 2.0, "output": "={{ $json.name.length > 2 ? 1 : 0 }}"},
			[][]int{{2}, {0, 1}}},
		{"first matching rule, case sensitive without ignoreCase", rulesV3(m{},
			rule("and", cond("={{ $json.name }}", "ada", "string", "equals")),
			rule("and", cond("={{ $json.name }}", "c", "string", "startsWith")),
			rule("or", cond("={{ $json.tags }}", "math", "array", "contains")),
		), [][]int{{}, {}, {0, 2}}},
		{"ignoreCase", rulesV3(m{"ignoreCase": true},
			rule("and", cond("={{ $json.name }}", "ADA", "string", "equals")),
			rule("and", cond("={{ $json.name }}", "c", "string", "startsWith")),
		), [][]int{{0}, {2}}},
		{"all matching outputs and extra fallback", rulesV3(m{"allMatchingOutputs": true, "fallbackOutput": "extra"},
			rule("and", cond("={{ $json.tags }}", "math", "array", "contains")),
			rule("and", cond("={{ $json.tags }}", 2.0, "array", "lengthGte")),
		), [][]int{{0, 2}, {2}, {1}}},
		{"fallback to a rule output", rulesV3(m{"fallbackOutput": 0.0},
			rule("and", cond("={{ $json.name }}", "Ada", "string", "equals")),
			rule("and", cond("={{ $json.name }}", "Cy", "string", "equals")),
		), [][]int{{0, 1}, {2}}},
		{"loose types convert strings to numbers", rulesV3(m{"looseTypeValidation": true},
			rule("and", cond("={{ $json.age }}", 18.0, "number", "lt")),
			rule("and", cond("={{ $json.age }}", 65.0, "number", "gte"), cond("={{ $json.missing }}", "", "string", "notExists")),
		), [][]int{{1}, {2}}},
		{"unmatched items are dropped", rulesV3(m{},
			rule("and", cond("={{ $json.tags }}", "", "array", "empty")),
		), [][]int{{1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: 3, Parameters: tc.params}, people)
			require.NoError(t, err)
			routed(t, people, out, tc.want)
		})
	}
}

func TestSwitchV3PairsItems(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"a": 1.0}, m{"a": 2.0})
	out, err := nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: 3, Parameters: m{"mode": "expression", "numberOutputs": 1.0, "output": 0.0}}, in)
	require.NoError(t, err)
	require.Equal(t, &workflow.PairedItems{{Item: 1}}, out[0][1].PairedItem)
}

func TestSwitchV3Errors(t *testing.T) {
	t.Parallel()
	strict := rulesV3(m{}, rule("and", cond("={{ $json.age }}", 18.0, "number", "lt")))
	_, err := nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: 3, Parameters: strict}, nodetest.Items(m{"age": "17"}))
	e := nodetest.NodeError(t, err)
	require.Equal(t, "Wrong type: '17' is a string but was expecting a number [condition 0, item 0]", e.Message)
	require.Equal(t, "Try changing the type of comparison.", e.Description)

	loose := rulesV3(m{"looseTypeValidation": true}, rule("and", cond("={{ $json.age }}", 18.0, "number", "lt")))
	_, err = nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: 3, Parameters: loose}, nodetest.Items(m{"age": "old"}))
	require.ErrorContains(t, err, "Conversion error: the string 'old' can't be converted to a number [condition 0, item 0]")

	expr := m{"mode": "expression", "numberOutputs": 2.0, "output": "={{ 2 }}"}
	_, err = nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: 3, Parameters: expr}, nodetest.Items(m{}))
	e = nodetest.NodeError(t, err)
	require.Equal(t, "The ouput 2 is not allowed. ", e.Message)
	require.Equal(t, "Output indexes are zero based, if you want to use the extra output use 1", e.Description)

	out, err := nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: 3, Parameters: strict, ContinueOnFail: true}, nodetest.Items(m{"age": true}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "Wrong type: 'true' is a boolean but was expecting a number [condition 0, item 0]"}}, nodetest.JSONs(out[0]))
}

func TestSwitchV3FallbackOptions(t *testing.T) {
	t.Parallel()
	opts, err := switchnode.TypeV3().LoadOptions["getFallbackOutputOptions"](context.Background(), nodes.LoadOptionsRequest{
		Parameters: m{"rules": m{"values": []any{m{"outputKey": "Big"}, m{}}}},
	})
	require.NoError(t, err)
	var names []string
	for _, o := range opts {
		names = append(names, o.Name)
	}
	require.Equal(t, []string{"None (default)", "Extra Output", "Output Big", "Output 1"}, names)
}

func TestSwitchV3Versions(t *testing.T) {
	t.Parallel()
	items := nodetest.Items(m{"age": "17", "vip": "false", "code": ""}, m{"age": 70.0, "vip": true, "code": 4.0})
	young := rule("and", cond("={{ $json.age }}", 18.0, "number", "lt"))
	vip := rule("and", m{"leftValue": "={{ $json.vip }}", "operator": m{"type": "boolean", "operation": "true", "singleValue": true}})
	noCode := rule("and", cond("={{ $json.code }}", 0.0, "number", "equals"))
	with := func(p m, extra m) m {
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	tests := []struct {
		name    string
		version float64
		params  m
		want    [][]int
		wantErr string
	}{
		{"3: loose from the option", 3, rulesV3(m{"looseTypeValidation": true}, young), [][]int{{0}}, ""},
		{"3.1: the option is gone, strict by default", 3.1, rulesV3(m{"looseTypeValidation": true}, young), nil,
			"Wrong type: '17' is a string but was expecting a number [condition 0, item 0]"},
		{"3.1: loose from the top-level parameter", 3.1, with(rulesV3(m{}, young), m{"looseTypeValidation": true}), [][]int{{0}}, ""},
		{"3.1: a loose boolean is truthiness", 3.1, with(rulesV3(m{}, vip), m{"looseTypeValidation": true}), [][]int{{0, 1}}, ""},
		{"3.2: a loose boolean string is parsed", 3.2, with(rulesV3(m{}, vip), m{"looseTypeValidation": true}), [][]int{{1}}, ""},
		{"3.3: an empty string is still the number 0", 3.3, with(rulesV3(m{}, noCode), m{"looseTypeValidation": true}), [][]int{{0}}, ""},
		{"3.4: an empty string is no number", 3.4, with(rulesV3(m{}, noCode), m{"looseTypeValidation": true}), [][]int{{}}, ""},
		{"3.4: expression mode", 3.4, m{"mode": "expression", "numberOutputs": 3.0, "output": "={{ $itemIndex + 1 }}"}, [][]int{{}, {0}, {1}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, switchnode.TypeV3(), nodetest.Node{Version: tc.version, Parameters: tc.params}, items)
			if tc.wantErr != "" {
				require.Equal(t, tc.wantErr, nodetest.NodeError(t, err).Message)
				return
			}
			require.NoError(t, err)
			routed(t, items, out, tc.want)
		})
	}
}

func TestSwitchV3NumberOutputsIsFixedFrom33(t *testing.T) {
	t.Parallel()
	var fixed []bool
	for _, p := range switchnode.TypeV3().Description.Properties {
		if p.Name == "numberOutputs" {
			fixed = append(fixed, p.NoDataExpression)
		}
	}
	require.Equal(t, []bool{true, false}, fixed)
}
