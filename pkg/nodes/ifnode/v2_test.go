package ifnode_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/ifnode"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

func filterParam(combinator string, opts m, conds ...m) m {
	list := make([]any, len(conds))
	for i, c := range conds {
		list[i] = c
	}
	return m{"conditions": m{"options": opts, "combinator": combinator, "conditions": list}}
}

func condition(left any, typ, op string, right any) m {
	return m{"leftValue": left, "rightValue": right, "operator": m{"type": typ, "operation": op}}
}

func TestIfV2(t *testing.T) {
	t.Parallel()
	people := nodetest.Items(
		m{"email": "Shane@yahoo.com", "firstname": "Shane", "lastname": "Martin", "count": 1.0},
		m{"email": "sarah@gmail.com", "firstname": "Sarah", "count": 12.0},
		m{"email": "tom@yahoo.com", "firstname": "Tom", "lastname": "Hill", "count": "5"},
	)
	strict := m{"caseSensitive": true, "typeValidation": "strict"}
	loose := m{"caseSensitive": true, "typeValidation": "loose"}
	tests := []struct {
		name      string
		params    m
		wantTrue  []int
		wantFalse []int
	}{
		{"and over several types", filterParam("and", m{"caseSensitive": false, "typeValidation": "strict"},
			condition("={{ $json.firstname }}", "string", "startsWith", "s"),
			condition("={{ $json.lastname }}", "any", "exists", ""),
			condition("={{ $json.email }}", "string", "endsWith", "@yahoo.com")),
			[]int{0}, []int{1, 2}},
		{"or with loose numbers", filterParam("or", loose,
			condition("={{ $json.count }}", "number", "equals", "1"),
			condition("={{ $json.count }}", "number", "gt", "10")),
			[]int{0, 1}, []int{2}},
		{"loose converts the numeric string", filterParam("and", loose,
			condition("={{ $json.count }}", "number", "equals", 5.0)),
			[]int{2}, []int{0, 1}},
		{"case sensitive by default", filterParam("and", strict,
			condition("={{ $json.firstname }}", "string", "startsWith", "s")),
			nil, []int{0, 1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Version: 2, Parameters: tc.params}, people)
			require.NoError(t, err)
			require.Len(t, out, 2)
			require.Equal(t, pick(people, tc.wantTrue), nodetest.JSONs(out[0]), "true output")
			require.Equal(t, pick(people, tc.wantFalse), nodetest.JSONs(out[1]), "false output")
		})
	}
}

func TestIfV2StrictTypeError(t *testing.T) {
	t.Parallel()
	params := filterParam("and", m{"caseSensitive": true, "typeValidation": "strict"},
		condition("={{ $json.count }}", "number", "equals", 5.0))
	items := nodetest.Items(m{"count": 5.0}, m{"count": "5"})
	_, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Version: 2, Parameters: params}, items)
	nerr := nodetest.NodeError(t, err)
	require.Equal(t, "Wrong type: '5' is a string but was expecting a number [condition 0, item 1]", nerr.Message)
	require.Equal(t, 1, nerr.ItemIndex)
	require.NotEmpty(t, nerr.Description)

	out, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Version: 2, Parameters: params, ContinueOnFail: true}, items)
	require.NoError(t, err)
	require.Equal(t, [][]map[string]any{{{"count": 5.0}}, {{"count": "5"}}}, nodetest.Outputs(out))
}

func TestIfVersionsAreSeparate(t *testing.T) {
	t.Parallel()
	require.Equal(t, []float64{1}, []float64(ifnode.Type().Description.Version))
	require.Equal(t, []float64{2, 2.1, 2.2, 2.3}, []float64(ifnode.TypeV2().Description.Version))
	require.Equal(t, "filter", ifnode.TypeV2().Description.Properties[0].Type)
}

func TestIfV2Versions(t *testing.T) {
	t.Parallel()
	items := nodetest.Items(m{"n": "5", "flag": "false", "blank": ""}, m{"n": 7.0, "flag": true, "blank": 3.0})
	// Stored options as n8n's editor writes them; the node's version and parameters decide.
	opts := m{"caseSensitive": true, "typeValidation": "strict"}
	numberIs5 := condition("={{ $json.n }}", "number", "equals", 5.0)
	flagTrue := m{"leftValue": "={{ $json.flag }}", "operator": m{"type": "boolean", "operation": "true", "singleValue": true}}
	blankIsZero := condition("={{ $json.blank }}", "number", "equals", 0.0)
	with := func(p m, extra m) m {
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	tests := []struct {
		name      string
		version   float64
		params    m
		wantTrue  []int
		wantFalse []int
		wantErr   string
	}{
		{"2: loose from the option", 2, with(filterParam("and", opts, numberIs5), m{"options": m{"looseTypeValidation": true}}), []int{0}, []int{1}, ""},
		{"2.1: the option is gone, strict by default", 2.1, with(filterParam("and", opts, numberIs5), m{"options": m{"looseTypeValidation": true}}), nil, nil,
			"Wrong type: '5' is a string but was expecting a number [condition 0, item 0]"},
		{"2.1: loose from the top-level parameter", 2.1, with(filterParam("and", opts, numberIs5), m{"looseTypeValidation": true}), []int{0}, []int{1}, ""},
		{"2.1: a loose boolean is truthiness", 2.1, with(filterParam("and", opts, flagTrue), m{"looseTypeValidation": true}), []int{0, 1}, nil, ""},
		{"2.2: a loose boolean string is parsed", 2.2, with(filterParam("and", opts, flagTrue), m{"looseTypeValidation": true}), []int{1}, []int{0}, ""},
		{"2.2: an empty string is the number 0", 2.2, with(filterParam("and", opts, blankIsZero), m{"looseTypeValidation": true}), []int{0}, []int{1}, ""},
		{"2.3: an empty string is no number", 2.3, with(filterParam("and", opts, blankIsZero), m{"looseTypeValidation": true}), nil, []int{0, 1}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Version: tc.version, Parameters: tc.params}, items)
			if tc.wantErr != "" {
				require.Equal(t, tc.wantErr, nodetest.NodeError(t, err).Message)
				return
			}
			require.NoError(t, err)
			require.Equal(t, pick(items, tc.wantTrue), nodetest.JSONs(out[0]), "true output")
			require.Equal(t, pick(items, tc.wantFalse), nodetest.JSONs(out[1]), "false output")
		})
	}
}
