package itemlists_test

import (
	"testing"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Version 3 renames Aggregate Items to Concatenate Items and takes field lists as text
// ("a, b") instead of one entry per field; 3.1 tells values of different types apart when
// removing duplicates.
func TestItemListsV3(t *testing.T) {
	t.Parallel()
	people := func() []workflow.Item {
		return nodetest.Items(
			m{"name": "Ann", "country": "FR", "age": 30.0},
			m{"name": "Bob", "country": "DE", "age": 30.0},
			m{"name": "Ann", "country": "FR", "age": 31.0},
		)
	}
	mixed := func() []workflow.Item { return nodetest.Items(m{"v": 1.0}, m{"v": "1"}, m{"v": 1.0}) }
	runCases(t, []testCase{
		{name: "split out is the default operation", version: 3, params: m{"fieldToSplitOut": "list"},
			input: nodetest.Items(m{"list": l{"a", "b"}}), want: []m{{"list": "a"}, {"list": "b"}}},
		{name: "split out with selected fields as text", version: 3,
			params: m{"fieldToSplitOut": "list", "include": "selectedOtherFields", "fieldsToInclude": "id, other"},
			input:  nodetest.Items(m{"id": 1.0, "other": "x", "skip": true, "list": l{2.0}}),
			want:   []m{{"list": 2.0, "id": 1.0, "other": "x"}}},
		{name: "split out of a single value", version: 3, params: m{"fieldToSplitOut": "name"}, input: people()[:1],
			want: []m{{"name": "Ann"}}},
		{name: "concatenate individual fields", version: 3,
			params: m{"operation": "concatenateItems", "fieldsToAggregate": m{"fieldToAggregate": l{m{"fieldToAggregate": "name"}}}},
			input:  people(), want: []m{{"name": l{"Ann", "Bob", "Ann"}}}},
		{name: "concatenate all data with fields to include as text", version: 3,
			params: m{"operation": "concatenateItems", "aggregate": "aggregateAllItemData", "include": "specifiedFields", "fieldsToInclude": "name, age"},
			input:  people()[:2], want: []m{{"data": l{m{"name": "Ann", "age": 30.0}, m{"name": "Bob", "age": 30.0}}}}},
		{name: "concatenate all data except fields", version: 3,
			params: m{"operation": "concatenateItems", "aggregate": "aggregateAllItemData", "destinationFieldName": "all",
				"include": "allFieldsExcept", "fieldsToExclude": "age,country"},
			input: people()[:2], want: []m{{"all": l{m{"name": "Ann"}, m{"name": "Bob"}}}}},
		{name: "remove duplicates on fields given as text", version: 3,
			params: m{"operation": "removeDuplicates", "compare": "selectedFields", "fieldsToCompare": "name, country"},
			input:  people(), want: []m{{"name": "Ann", "country": "FR", "age": 30.0}, {"name": "Bob", "country": "DE", "age": 30.0}}},
		{name: "remove duplicates except a field", version: 3,
			params: m{"operation": "removeDuplicates", "compare": "allFieldsExcept", "fieldsToExclude": "name, country"},
			input:  people(), want: []m{{"name": "Ann", "country": "FR", "age": 30.0}, {"name": "Ann", "country": "FR", "age": 31.0}}},
		{name: "remove duplicates needs fields", version: 3,
			params: m{"operation": "removeDuplicates", "compare": "selectedFields", "fieldsToCompare": " , "},
			input:  people(), err: "No fields specified. Please add a field to compare on"},
		{name: "3 refuses mixed types", version: 3, params: m{"operation": "removeDuplicates"}, input: mixed(),
			err: "'v' isn't always the same type"},
		{name: "3.1 keeps values of other types", version: 3.1, params: m{"operation": "removeDuplicates"}, input: mixed(),
			want: []m{{"v": 1.0}, {"v": "1"}}},
		{name: "a list of field names as saved by some releases", version: 3,
			params: m{"operation": "removeDuplicates", "compare": "selectedFields", "fieldsToCompare": l{"age"}},
			input:  people(), want: []m{{"name": "Ann", "country": "FR", "age": 30.0}, {"name": "Ann", "country": "FR", "age": 31.0}}},
		{name: "field list of another type is refused", version: 3,
			params: m{"operation": "removeDuplicates", "compare": "selectedFields", "fieldsToCompare": l{1.0}},
			input:  people(), err: "The 'Fields To Compare' parameter must be a string of fields separated by commas or an array of strings."},
		{name: "limit keeps the last items", version: 3, params: m{"operation": "limit", "maxItems": 1.0, "keep": "lastItems"},
			input: people(), want: []m{{"name": "Ann", "country": "FR", "age": 31.0}}},
		{name: "sort", version: 3, params: m{"operation": "sort", "sortFieldsUi": m{"sortField": l{m{"fieldName": "age", "order": "descending"}}}},
			input: people()[1:], want: []m{{"name": "Ann", "country": "FR", "age": 31.0}, {"name": "Bob", "country": "DE", "age": 30.0}}},
		{name: "summarize", version: 3, params: m{"operation": "summarize", "fieldsToSummarize": m{"values": l{m{"aggregation": "sum", "field": "age"}}},
			"fieldsToSplitBy": "name"},
			input: people(), want: []m{{"name": "Ann", "sum_age": 61.0}, {"name": "Bob", "sum_age": 30.0}}},
		{name: "summarize min and max compare text", version: 3,
			params: m{"operation": "summarize", "fieldsToSummarize": m{"values": l{m{"aggregation": "max", "field": "d"}, m{"aggregation": "min", "field": "d"}}}},
			input:  nodetest.Items(m{"d": "1979-10-12"}, m{"d": nil}, m{"d": "1925-04-10"}, m{"d": ""}),
			want:   []m{{"max_d": "1979-10-12", "min_d": "1925-04-10"}}},
		{name: "2.2 min and max count only numbers", version: 2.2,
			params: m{"operation": "summarize", "fieldsToSummarize": m{"values": l{m{"aggregation": "max", "field": "d"}}}},
			input:  nodetest.Items(m{"d": "1979-10-12"}, m{"d": 3.0}), want: []m{{"max_d": 3.0}}},
		{name: "sort puts null after the values, as n8n's comparison does in V8", version: 3,
			params: m{"operation": "sort", "sortFieldsUi": m{"sortField": l{m{"fieldName": "c"}}}},
			input:  nodetest.Items(m{"c": "US"}, m{"c": "CO"}, m{"c": "US"}, m{"c": nil}, m{"c": "UK"}),
			want:   []m{{"c": "CO"}, {"c": "UK"}, {"c": "US"}, {"c": "US"}, {"c": nil}}},
	})
}
