package comparedatasets_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/comparedatasets"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any
type l = []any

func match(field1, field2 string) m {
	return m{"values": l{m{"field1": field1, "field2": field2}}}
}

func TestCompareDatasets(t *testing.T) {
	t.Parallel()
	a := func() []workflow.Item {
		return nodetest.Items(m{"id": 1.0, "name": "a", "n": 1.0}, m{"id": 2.0, "name": "b", "n": 2.0}, m{"id": 3.0, "name": "c"})
	}
	b := func() []workflow.Item {
		return nodetest.Items(m{"id": 1.0, "name": "a", "n": 1.0}, m{"id": 2.0, "name": "B", "n": 2.0}, m{"id": 4.0, "name": "d"})
	}
	byID := match("id", "id")
	tests := []struct {
		name    string
		version float64
		params  m
		a, b    []workflow.Item
		want    [4][]m
		err     string
	}{
		{"prefer B by default in v1", 1, m{"mergeByFields": byID}, a(), b(), [4][]m{
			{{"id": 3.0, "name": "c"}}, {{"id": 1.0, "name": "a", "n": 1.0}}, {{"id": 2.0, "name": "B", "n": 2.0}}, {{"id": 4.0, "name": "d"}}}, ""},
		{"prefer A", 1, m{"mergeByFields": byID, "resolve": "preferInput1"}, a(), b(), [4][]m{
			{{"id": 3.0, "name": "c"}}, {{"id": 1.0, "name": "a", "n": 1.0}}, {{"id": 2.0, "name": "b", "n": 2.0}}, {{"id": 4.0, "name": "d"}}}, ""},
		{"mix", 1, m{"mergeByFields": byID, "resolve": "mix", "preferWhenMix": "input1", "exceptWhenMix": "name"}, a(), b(), [4][]m{
			{{"id": 3.0, "name": "c"}}, {{"id": 1.0, "name": "a", "n": 1.0}}, {{"id": 2.0, "name": "B", "n": 2.0}}, {{"id": 4.0, "name": "d"}}}, ""},
		{"include both, v1 names", 1, m{"mergeByFields": byID, "resolve": "includeBoth"}, a(), b(), [4][]m{
			{{"id": 3.0, "name": "c"}}, {{"id": 1.0, "name": "a", "n": 1.0}},
			{{"keys": m{"id": 2.0}, "same": m{"id": 2.0, "n": 2.0}, "different": m{"name": m{"input1": "b", "input2": "B"}}}},
			{{"id": 4.0, "name": "d"}}}, ""},
		{"include both is the v2.1 default, v2 names", 2.1, m{"mergeByFields": byID}, a(), b(), [4][]m{
			{{"id": 3.0, "name": "c"}}, {{"id": 1.0, "name": "a", "n": 1.0}},
			{{"keys": m{"id": 2.0}, "same": m{"id": 2.0, "n": 2.0}, "different": m{"name": m{"inputA": "b", "inputB": "B"}}}},
			{{"id": 4.0, "name": "d"}}}, ""},
		{"skip fields", 2.1, m{"mergeByFields": byID, "options": m{"skipFields": "name"}}, a(), b(), [4][]m{
			{{"id": 3.0, "name": "c"}}, {{"id": 1.0, "name": "a", "n": 1.0}, {"id": 2.0, "name": "b", "n": 2.0}}, {}, {{"id": 4.0, "name": "d"}}}, ""},
		{"skip nested fields", 2.1, m{"mergeByFields": byID, "options": m{"skipFields": "o.x"}},
			nodetest.Items(m{"id": 1.0, "o": m{"x": 1.0, "y": 1.0}}), nodetest.Items(m{"id": 1.0, "o": m{"x": 2.0, "y": 2.0}}), [4][]m{{}, {},
				{{"keys": m{"id": 1.0}, "same": m{"id": 1.0}, "different": m{"o": m{"inputA": m{"y": 1.0}, "inputB": m{"y": 2.0}}},
					"skipped": m{"o": m{"inputA": m{"x": 1.0}, "inputB": m{"x": 2.0}}}}}, {}}, ""},
		{"fuzzy: number matches string", 2, m{"mergeByFields": byID, "fuzzyCompare": true, "resolve": "preferInput1"},
			nodetest.Items(m{"id": 1.0, "v": "3"}), nodetest.Items(m{"id": "1", "v": 3.0}), [4][]m{{}, {{"id": 1.0, "v": "3"}}, {}, {}}, ""},
		{"fuzzy v1 is an option", 1, m{"mergeByFields": byID, "options": m{"fuzzyCompare": true}, "resolve": "preferInput1"},
			nodetest.Items(m{"id": 1.0, "v": true}), nodetest.Items(m{"id": "1", "v": "TRUE"}), [4][]m{{}, {{"id": 1.0, "v": true}}, {}, {}}, ""},
		{"fuzzy v2: null matches 0", 2, m{"mergeByFields": byID, "fuzzyCompare": true, "resolve": "preferInput1"},
			nodetest.Items(m{"id": 1.0, "v": nil}), nodetest.Items(m{"id": 1.0, "v": "0"}), [4][]m{{}, {{"id": 1.0, "v": nil}}, {}, {}}, ""},
		{"strict: number is not string", 2, m{"mergeByFields": byID, "resolve": "preferInput1"},
			nodetest.Items(m{"id": 1.0}), nodetest.Items(m{"id": "1"}), [4][]m{{{"id": 1.0}}, {}, {}, {{"id": "1"}}}, ""},
		{"all matches", 2, m{"mergeByFields": match("k", "k"), "options": m{"multipleMatches": "all"}, "resolve": "preferInput2"},
			nodetest.Items(m{"k": "x", "v": 1.0}), nodetest.Items(m{"k": "x", "v": 1.0}, m{"k": "x", "v": 2.0}),
			[4][]m{{}, {{"k": "x", "v": 1.0}}, {{"k": "x", "v": 2.0}}, {}}, ""},
		{"dot notation", 2, m{"mergeByFields": match("a.id", "b.id"), "resolve": "preferInput1"},
			nodetest.Items(m{"a": m{"id": 1.0}}), nodetest.Items(m{"b": m{"id": 1.0}}), [4][]m{{}, {}, {{"a": m{"id": 1.0}}}, {}}, ""},
		{"missing match field is only in A", 2.2, m{"mergeByFields": byID}, nodetest.Items(m{"x": 1.0}), b(),
			[4][]m{{{"x": 1.0}}, {}, {}, nodetest.JSONs(b())}, ""},
		{"missing match field fails before 2.2", 2.1, m{"mergeByFields": byID}, nodetest.Items(m{"x": 1.0}), b(),
			[4][]m{}, "Field 'id' is not present in any of items in 'Input A'"},
		{"empty items are ignored", 2, m{"mergeByFields": byID, "resolve": "preferInput1"}, nodetest.Items(m{}), nodetest.Items(m{"id": 1.0}),
			[4][]m{{}, {}, {}, {{"id": 1.0}}}, ""},
		{"one input empty", 2.2, m{"mergeByFields": byID}, a(), []workflow.Item{}, [4][]m{nodetest.JSONs(a()), {}, {}, {}}, ""},
		{"match fields required", 2, m{}, a(), b(), [4][]m{}, "at least one pair of fields"},
		{"both match fields required", 2, m{"mergeByFields": match("id", "")}, a(), b(), [4][]m{}, "define both fields"},
		{"dotted skip field without dot notation", 2, m{"mergeByFields": byID, "options": m{"skipFields": "a.b", "disableDotNotation": true}},
			a(), b(), [4][]m{}, "Dot notation is disabled"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, comparedatasets.Type(), nodetest.Node{Version: tc.version, Parameters: tc.params}, tc.a, tc.b)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, out, 4)
			for i := range out {
				want := tc.want[i]
				if want == nil {
					want = []m{}
				}
				got := nodetest.JSONs(out[i])
				require.Equal(t, want, got, "output %d", i)
			}
		})
	}
}
