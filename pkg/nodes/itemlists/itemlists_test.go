package itemlists_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any
type l = []any

type testCase struct {
	name    string
	version float64
	params  m
	input   []workflow.Item
	want    []m
	err     string
}

func typeFor(version float64) nodes.Type {
	if version >= 3 {
		return itemlists.TypeV3()
	}
	if version < 2 {
		return itemlists.TypeV1()
	}
	return itemlists.TypeV2()
}

func runCases(t *testing.T, tests []testCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			version := tc.version
			if version == 0 {
				version = 1
			}
			out, err := nodetest.Run(t, typeFor(version), nodetest.Node{Version: version, Parameters: tc.params}, tc.input)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, out, 1)
			got := nodetest.JSONs(out[0])
			if len(tc.want) == 0 {
				require.Empty(t, got)
				return
			}
			require.Equal(t, tc.want, got)
		})
	}
}

func fields(key string, names ...string) m {
	list := l{}
	for _, n := range names {
		list = append(list, m{key: n})
	}
	return m{"fields": list}
}

func TestSplitOut(t *testing.T) {
	t.Parallel()
	in := func() []workflow.Item {
		return nodetest.Items(m{"id": 1.0, "data": l{m{"a": 1.0}, m{"a": 2.0}}, "other": "x"})
	}
	scalars := func() []workflow.Item { return nodetest.Items(m{"id": 1.0, "data": l{"a", "b"}}) }
	runCases(t, []testCase{
		{name: "objects spread into new items", params: m{"fieldToSplitOut": "data"}, input: in(),
			want: []m{{"a": 1.0}, {"a": 2.0}}},
		{name: "scalars keep the field name", params: m{"fieldToSplitOut": "data"}, input: scalars(),
			want: []m{{"data": "a"}, {"data": "b"}}},
		{name: "destination field", params: m{"fieldToSplitOut": "data", "options": m{"destinationFieldName": "out"}}, input: in(),
			want: []m{{"out": m{"a": 1.0}}, {"out": m{"a": 2.0}}}},
		{name: "all other fields", params: m{"fieldToSplitOut": "data", "include": "allOtherFields"}, input: in(),
			want: []m{{"id": 1.0, "other": "x", "data": m{"a": 1.0}}, {"id": 1.0, "other": "x", "data": m{"a": 2.0}}}},
		{name: "all other fields keep a scalar under the field", params: m{"fieldToSplitOut": "data", "include": "allOtherFields"}, input: scalars(),
			want: []m{{"id": 1.0, "data": "a"}, {"id": 1.0, "data": "b"}}},
		{name: "selected other fields", params: m{"fieldToSplitOut": "data", "include": "selectedOtherFields",
			"fieldsToInclude": fields("fieldName", "id", "missing")}, input: in(),
			want: []m{{"id": 1.0, "data": m{"a": 1.0}}, {"id": 1.0, "data": m{"a": 2.0}}}},
		{name: "selected other fields need a field", params: m{"fieldToSplitOut": "data", "include": "selectedOtherFields"}, input: in(),
			err: "No fields specified"},
		{name: "dot notation", params: m{"fieldToSplitOut": "n.list"}, input: nodetest.Items(m{"n": m{"list": l{1.0, 2.0}}}),
			want: []m{{"n.list": 1.0}, {"n.list": 2.0}}},
		{name: "dot notation disabled reads the key", params: m{"fieldToSplitOut": "n.list", "options": m{"disableDotNotation": true}},
			input: nodetest.Items(m{"n.list": l{1.0}}), want: []m{{"n.list": 1.0}}},
		{name: "dot notation disabled explains a nested field", params: m{"fieldToSplitOut": "n.list", "options": m{"disableDotNotation": true}},
			input: nodetest.Items(m{"n": m{"list": l{1.0}}}), err: "Couldn't find the field 'n.list'"},
		{name: "v1 missing field", params: m{"fieldToSplitOut": "nope"}, input: in(), err: "Couldn't find the field 'nope' in the input data"},
		{name: "v1 object is not a list", params: m{"fieldToSplitOut": "data"}, input: nodetest.Items(m{"data": m{"a": 1.0}}),
			err: "is not an array"},
		{name: "v2 splits object values", version: 2, params: m{"fieldToSplitOut": "data"}, input: nodetest.Items(m{"data": m{"x": 1.0, "y": 2.0}}),
			want: []m{{"data": 1.0}, {"data": 2.0}}},
		{name: "v2 missing field fails", version: 2, params: m{"fieldToSplitOut": "nope"}, input: in(), err: "Couldn't find the field"},
		{name: "v2.1 missing field gives nothing", version: 2.1, params: m{"fieldToSplitOut": "nope"}, input: in(), want: nil},
		{name: "v2.1 scalar fails", version: 2.1, params: m{"fieldToSplitOut": "id"}, input: in(), err: "is not an array or object"},
		{name: "v2.2 scalar is one item", version: 2.2, params: m{"fieldToSplitOut": "id"}, input: in(), want: []m{{"id": 1.0}}},
		{name: "v2 several fields side by side", version: 2, params: m{"fieldToSplitOut": "a, b"},
			input: nodetest.Items(m{"a": l{1.0, 2.0}, "b": l{"x"}}), want: []m{{"a": 1.0, "b": "x"}, {"a": 2.0}}},
		{name: "v2 destination count must match", version: 2, params: m{"fieldToSplitOut": "a, b", "options": m{"destinationFieldName": "x"}},
			input: nodetest.Items(m{"a": l{1.0}}), err: "same number of destination fields"},
		{name: "v2 all other fields", version: 2, params: m{"fieldToSplitOut": "data", "include": "allOtherFields"}, input: in(),
			want: []m{{"id": 1.0, "other": "x", "data": m{"a": 1.0}}, {"id": 1.0, "other": "x", "data": m{"a": 2.0}}}},
		{name: "v2 selected other fields", version: 2, params: m{"fieldToSplitOut": "data", "include": "selectedOtherFields",
			"fieldsToInclude": fields("fieldName", "other")}, input: in(),
			want: []m{{"other": "x", "data": m{"a": 1.0}}, {"other": "x", "data": m{"a": 2.0}}}},
		{name: "empty list gives nothing", params: m{"fieldToSplitOut": "data"}, input: nodetest.Items(m{"data": l{}}), want: nil},
	})
}

func TestSplitOutPairsItems(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, itemlists.TypeV1(), nodetest.Node{Version: 1, Parameters: m{"fieldToSplitOut": "d"}},
		nodetest.Items(m{"d": l{1.0}}, m{"d": l{2.0, 3.0}}))
	require.NoError(t, err)
	require.Equal(t, &workflow.PairedItems{{Item: 1}}, out[0][2].PairedItem)
}

func TestAggregate(t *testing.T) {
	t.Parallel()
	in := func() []workflow.Item {
		return nodetest.Items(m{"id": 1.0, "tags": l{"a", nil}, "n": m{"v": "x"}}, m{"id": 2.0, "tags": l{"b"}}, m{"id": nil})
	}
	agg := func(entries ...m) m {
		list := l{}
		for _, e := range entries {
			list = append(list, e)
		}
		return m{"fieldToAggregate": list}
	}
	runCases(t, []testCase{
		{name: "field into a list, nulls dropped", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "id"})},
			input: in(), want: []m{{"id": l{1.0, 2.0}}}},
		{name: "keep missing and null", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "id"}),
			"options": m{"keepMissing": true}}, input: in(), want: []m{{"id": l{1.0, 2.0, nil}}}},
		{name: "lists of lists, nulls removed inside", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "tags"})},
			input: in(), want: []m{{"tags": l{l{"a"}, l{"b"}}}}},
		{name: "merge lists", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "tags"}),
			"options": m{"mergeLists": true}}, input: in(), want: []m{{"tags": l{"a", "b"}}}},
		{name: "rename", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "id", "renameField": true, "outputFieldName": "ids"})},
			input: in(), want: []m{{"ids": l{1.0, 2.0}}}},
		{name: "nested field uses its last key", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "n.v"})},
			input: in(), want: []m{{"v": l{"x"}}}},
		{name: "duplicate output field", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "id"}, m{"fieldToAggregate": "id"})},
			input: in(), err: "used more than once"},
		{name: "v1 missing field", params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "nope"})},
			input: in(), err: "Couldn't find the field 'nope'"},
		{name: "v1 blank field", params: m{"operation": "aggregateItems"}, input: in(), err: "Field to aggregate is blank"},
		{name: "v2.1 missing field gives an empty list", version: 2.1, params: m{"operation": "aggregateItems", "fieldsToAggregate": agg(m{"fieldToAggregate": "nope"})},
			input: in(), want: []m{{"nope": l{}}}},
		{name: "all item data", params: m{"operation": "aggregateItems", "aggregate": "aggregateAllItemData"},
			input: nodetest.Items(m{"a": 1.0}, m{"b": 2.0}), want: []m{{"data": l{m{"a": 1.0}, m{"b": 2.0}}}}},
		{name: "all item data, specified fields", params: m{"operation": "aggregateItems", "aggregate": "aggregateAllItemData",
			"include": "specifiedFields", "fieldsToInclude": fields("fieldName", "a")},
			input: nodetest.Items(m{"a": 1.0, "c": 0.0}, m{"b": 2.0}), want: []m{{"data": l{m{"a": 1.0}}}}},
		{name: "all item data, all fields except", params: m{"operation": "aggregateItems", "aggregate": "aggregateAllItemData",
			"destinationFieldName": "out", "include": "allFieldsExcept", "fieldsToExclude": fields("fieldName", "a")},
			input: nodetest.Items(m{"a": 1.0, "c": 0.0}, m{"b": 2.0}), want: []m{{"out": l{m{"c": 0.0}, m{"b": 2.0}}}}},
	})
}

func TestRemoveDuplicatesAndLimit(t *testing.T) {
	t.Parallel()
	in := func() []workflow.Item {
		return nodetest.Items(m{"id": 1.0, "c": "a"}, m{"id": 2.0, "c": "b"}, m{"id": 1.0, "c": "a"}, m{"id": 3.0, "c": "a"})
	}
	runCases(t, []testCase{
		{name: "all fields", params: m{"operation": "removeDuplicates"}, input: in(),
			want: []m{{"id": 1.0, "c": "a"}, {"id": 2.0, "c": "b"}, {"id": 3.0, "c": "a"}}},
		{name: "selected fields keep the first", params: m{"operation": "removeDuplicates", "compare": "selectedFields",
			"fieldsToCompare": fields("fieldName", "c")}, input: in(), want: []m{{"id": 1.0, "c": "a"}, {"id": 2.0, "c": "b"}}},
		{name: "selected fields, remove others", params: m{"operation": "removeDuplicates", "compare": "selectedFields",
			"fieldsToCompare": fields("fieldName", "c"), "options": m{"removeOtherFields": true}}, input: in(), want: []m{{"c": "a"}, {"c": "b"}}},
		{name: "all fields except", params: m{"operation": "removeDuplicates", "compare": "allFieldsExcept",
			"fieldsToExclude": fields("fieldName", "id")}, input: in(), want: []m{{"id": 1.0, "c": "a"}, {"id": 2.0, "c": "b"}}},
		{name: "nested fields", params: m{"operation": "removeDuplicates"},
			input: nodetest.Items(m{"n": m{"v": 1.0}}, m{"n": m{"v": 1.0}}, m{"n": m{"v": 2.0}}), want: []m{{"n": m{"v": 1.0}}, {"n": m{"v": 2.0}}}},
		{name: "missing field", params: m{"operation": "removeDuplicates"}, input: nodetest.Items(m{"a": 1.0}, m{"b": 1.0}),
			err: "field is missing from some input items"},
		{name: "mixed types", params: m{"operation": "removeDuplicates"}, input: nodetest.Items(m{"a": 1.0}, m{"a": "1"}),
			err: "isn't always the same type"},
		{name: "no fields to compare", params: m{"operation": "removeDuplicates", "compare": "selectedFields"}, input: in(),
			err: "Please add a field to compare on"},
		{name: "limit keeps the first", params: m{"operation": "limit", "maxItems": 2.0}, input: in(),
			want: []m{{"id": 1.0, "c": "a"}, {"id": 2.0, "c": "b"}}},
		{name: "limit keeps the last", params: m{"operation": "limit", "maxItems": 1.0, "keep": "lastItems"}, input: in(),
			want: []m{{"id": 3.0, "c": "a"}}},
		{name: "limit above the count", params: m{"operation": "limit", "maxItems": 10.0}, input: in(), want: nodetest.JSONs(in())},
	})
}

func TestSort(t *testing.T) {
	t.Parallel()
	in := func() []workflow.Item {
		return nodetest.Items(m{"id": 2.0, "c": "B"}, m{"id": 1.0, "c": "a"}, m{"id": 3.0, "c": "b"}, m{"id": 10.0, "c": "a"})
	}
	sortBy := func(entries ...m) m {
		list := l{}
		for _, e := range entries {
			list = append(list, e)
		}
		return m{"sortField": list}
	}
	code := "fieldName = 'id';\nif (a.json[fieldName] < b.json[fieldName]) { return -1; }\nif (a.json[fieldName] > b.json[fieldName]) { return 1; }\nreturn 0;"
	runCases(t, []testCase{
		{name: "ascending numbers", params: m{"operation": "sort", "sortFieldsUi": sortBy(m{"fieldName": "id"})}, input: in(),
			want: []m{{"id": 1.0, "c": "a"}, {"id": 2.0, "c": "B"}, {"id": 3.0, "c": "b"}, {"id": 10.0, "c": "a"}}},
		{name: "strings ignore case, stable, then descending ids", params: m{"operation": "sort",
			"sortFieldsUi": sortBy(m{"fieldName": "c"}, m{"fieldName": "id", "order": "descending"})}, input: in(),
			want: []m{{"id": 10.0, "c": "a"}, {"id": 1.0, "c": "a"}, {"id": 3.0, "c": "b"}, {"id": 2.0, "c": "B"}}},
		{name: "unknown field", params: m{"operation": "sort", "sortFieldsUi": sortBy(m{"fieldName": "x"})}, input: in(),
			err: "Couldn't find the field 'x'"},
		{name: "no fields", params: m{"operation": "sort"}, input: in(), err: "No sorting specified"},
		{name: "code with an undeclared variable", params: m{"operation": "sort", "type": "code", "code": code}, input: in(),
			want: []m{{"id": 1.0, "c": "a"}, {"id": 2.0, "c": "B"}, {"id": 3.0, "c": "b"}, {"id": 10.0, "c": "a"}}},
		{name: "code without return", params: m{"operation": "sort", "type": "code", "code": "a < b"}, input: in(),
			err: "Sort code doesn't return"},
	})
}

func TestSortRandomKeepsItems(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"i": 1.0}, m{"i": 2.0}, m{"i": 3.0})
	out, err := nodetest.Run(t, itemlists.TypeV1(), nodetest.Node{Version: 1, Parameters: m{"operation": "sort", "type": "random"}}, in)
	require.NoError(t, err)
	require.ElementsMatch(t, nodetest.JSONs(in), nodetest.JSONs(out[0]))
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	in := func() []workflow.Item {
		return nodetest.Items(
			m{"country": "DE", "city": "Berlin", "cost": 10.0, "tag": "x"},
			m{"country": "FR", "city": "Paris", "cost": 5.0, "tag": ""},
			m{"country": "DE", "city": "Bonn", "cost": "n/a", "tag": "x"},
			m{"country": 1.0, "cost": 1.0})
	}
	values := func(entries ...m) m {
		list := l{}
		for _, e := range entries {
			list = append(list, e)
		}
		return m{"values": list}
	}
	runCases(t, []testCase{
		{name: "count", params: m{"operation": "summarize", "fieldsToSummarize": values(m{"field": "tag"})}, input: in(),
			want: []m{{"count_tag": 2.0}}},
		{name: "numbers only", params: m{"operation": "summarize", "fieldsToSummarize": values(
			m{"aggregation": "sum", "field": "cost"}, m{"aggregation": "average", "field": "cost"},
			m{"aggregation": "min", "field": "cost"}, m{"aggregation": "max", "field": "cost"})}, input: in(),
			want: []m{{"sum_cost": 16.0, "average_cost": 16.0 / 3, "min_cost": 1.0, "max_cost": 10.0}}},
		{name: "append, concatenate, count unique", params: m{"operation": "summarize", "fieldsToSummarize": values(
			m{"aggregation": "append", "field": "tag"}, m{"aggregation": "concatenate", "field": "city", "separateBy": "other", "customSeparator": "|"},
			m{"aggregation": "countUnique", "field": "country"})}, input: in(),
			want: []m{{"appended_tag": l{"x", "x"}, "concatenated_city": "Berlin|Paris|Bonn", "unique_count_country": 3.0}}},
		{name: "append with empty values", params: m{"operation": "summarize", "fieldsToSummarize": values(
			m{"aggregation": "append", "field": "tag", "includeEmpty": true})}, input: in(),
			want: []m{{"appended_tag": l{"x", "", "x", nil}}}},
		{name: "split by, number keys first", params: m{"operation": "summarize", "fieldsToSplitBy": "country",
			"fieldsToSummarize": values(m{"aggregation": "sum", "field": "cost"})}, input: in(),
			want: []m{{"country": "1", "sum_cost": 1.0}, {"country": "DE", "sum_cost": 10.0}, {"country": "FR", "sum_cost": 5.0}}},
		{name: "split by two fields, missing as undefined", params: m{"operation": "summarize", "fieldsToSplitBy": "country, city",
			"fieldsToSummarize": values(m{"field": "cost"})}, input: in(),
			want: []m{{"country": "1", "city": "undefined", "count_cost": 1.0}, {"country": "DE", "city": "Berlin", "count_cost": 1.0},
				{"country": "DE", "city": "Bonn", "count_cost": 1.0}, {"country": "FR", "city": "Paris", "count_cost": 1.0}}},
		{name: "skip empty split values", params: m{"operation": "summarize", "fieldsToSplitBy": "city",
			"fieldsToSummarize": values(m{"field": "cost"}), "options": m{"skipEmptySplitFields": true}}, input: in(),
			want: []m{{"city": "Berlin", "count_cost": 1.0}, {"city": "Paris", "count_cost": 1.0}, {"city": "Bonn", "count_cost": 1.0}}},
		{name: "single item output", params: m{"operation": "summarize", "fieldsToSplitBy": "country",
			"fieldsToSummarize": values(m{"field": "cost"}), "options": m{"outputFormat": "singleItem"}}, input: in(),
			want: []m{{"1": m{"count_cost": 1.0}, "DE": m{"count_cost": 2.0}, "FR": m{"count_cost": 1.0}}}},
		{name: "v1 keeps dots in names", params: m{"operation": "summarize", "fieldsToSummarize": values(m{"field": "a.b"})},
			input: nodetest.Items(m{"a": m{"b": 1.0}}), want: []m{{"count_a.b": 1.0}}},
		{name: "v2 turns dots into underscores", version: 2, params: m{"operation": "summarize", "fieldsToSummarize": values(m{"field": "a.b"})},
			input: nodetest.Items(m{"a": m{"b": 1.0}}), want: []m{{"count_a_b": 1.0}}},
		{name: "v1 missing field", params: m{"operation": "summarize", "fieldsToSummarize": values(m{"field": "nope"})}, input: in(),
			err: "The field 'nope' does not exist in any items"},
		{name: "v2.1 missing field counts zero", version: 2.1, params: m{"operation": "summarize", "fieldsToSummarize": values(m{"field": "nope"})},
			input: in(), want: []m{{"count_nope": 0.0}}},
		{name: "average of nothing is null", version: 2.1, params: m{"operation": "summarize", "fieldsToSummarize": values(
			m{"aggregation": "average", "field": "nope"})}, input: in(), want: []m{{"average_nope": nil}}},
		{name: "no field", params: m{"operation": "summarize"}, input: in(), err: "at least one aggregation"},
	})
}
