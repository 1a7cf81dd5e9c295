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
			out, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Parameters: tc.params}, people)
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
	_, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Parameters: params}, items)
	nerr := nodetest.NodeError(t, err)
	require.Equal(t, "Wrong type: '5' is a string but was expecting a number [condition 0, item 1]", nerr.Message)
	require.Equal(t, 1, nerr.ItemIndex)
	require.NotEmpty(t, nerr.Description)

	out, err := nodetest.Run(t, ifnode.TypeV2(), nodetest.Node{Parameters: params, ContinueOnFail: true}, items)
	require.NoError(t, err)
	require.Equal(t, [][]map[string]any{{{"count": 5.0}}, {{"count": "5"}}}, nodetest.Outputs(out))
}

func TestIfVersionsAreSeparate(t *testing.T) {
	t.Parallel()
	require.Equal(t, []float64{1}, []float64(ifnode.Type().Description.Version))
	require.Equal(t, []float64{2}, []float64(ifnode.TypeV2().Description.Version))
	require.Equal(t, "filter", ifnode.TypeV2().Description.Properties[0].Type)
}
