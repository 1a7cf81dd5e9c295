package summarize_test

import (
	"encoding/json"

	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/summarize"
)

type m = map[string]any
type l = []any

func run(t *testing.T, version float64, params m, input ...m) ([]m, error) {
	t.Helper()
	return nodetest.RunOne(t, summarize.Type(), version, params, input...)
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	in := []m{{"c": "x", "v": 1.0}, {"c": "y", "v": 2.0}, {"c": "x", "v": 4.0}}

	_, err := run(t, 1, m{}, in...)
	require.ErrorContains(t, err, "You need to add at least one aggregation to 'Fields to Summarize' with non empty 'Field'")

	got, err := run(t, 1, m{"fieldsToSummarize": m{"values": l{m{"aggregation": "sum", "field": "v"}, m{"aggregation": "max", "field": "v"}}},
		"fieldsToSplitBy": "c"}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"c": "x", "sum_v": 5.0, "max_v": 4.0}, {"c": "y", "sum_v": 2.0, "max_v": 2.0}}, got)

	got, err = run(t, 1, m{"fieldsToSummarize": m{"values": l{m{"aggregation": "average", "field": "v"}}},
		"fieldsToSplitBy": "c", "options": m{"outputFormat": "singleItem"}}, in...)
	require.NoError(t, err)
	require.Equal(t, []m{{"x": m{"average_v": 2.5}, "y": m{"average_v": 2.0}}}, got)
}

func TestSummarizeV11KeepsSplitTypes(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(
		m{"n": 2.0, "s": "b", "v": 1.0}, m{"n": "2", "s": "b", "v": 2.0}, m{"n": 2.0, "s": "a", "v": 4.0},
		m{"n": 10.0, "s": "a", "v": 8.0}, m{"s": "a", "v": 16.0},
	)
	sum := m{"fieldsToSummarize": m{"values": l{m{"aggregation": "sum", "field": "v"}}}}
	with := func(extra m) m {
		p := m{}
		for k, v := range sum {
			p[k] = v
		}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	tests := []struct {
		name    string
		version float64
		params  m
		want    []string // each output item as ordered JSON
	}{
		{"1: split values as text, in object key order, split field first", 1, with(m{"fieldsToSplitBy": "n"}), []string{
			`{"n":"2","sum_v":7}`, `{"n":"10","sum_v":8}`, `{"n":"undefined","sum_v":16}`}},
		{"1.1: split values keep their type, in first-seen order, after the aggregations", 1.1, with(m{"fieldsToSplitBy": "n"}), []string{
			`{"sum_v":5,"n":2}`, `{"sum_v":2,"n":"2"}`, `{"sum_v":8,"n":10}`, `{"sum_v":16}`}},
		{"1.1: nested splits add the innermost field first", 1.1, with(m{"fieldsToSplitBy": "s, n"}), []string{
			`{"sum_v":1,"n":2,"s":"b"}`, `{"sum_v":2,"n":"2","s":"b"}`, `{"sum_v":4,"n":2,"s":"a"}`,
			`{"sum_v":8,"n":10,"s":"a"}`, `{"sum_v":16,"s":"a"}`}},
		{"1.1: skip empty split fields", 1.1, with(m{"fieldsToSplitBy": "n", "options": m{"skipEmptySplitFields": true}}), []string{
			`{"sum_v":5,"n":2}`, `{"sum_v":2,"n":"2"}`, `{"sum_v":8,"n":10}`}},
		{"1.1: a single item keyed by the values as text", 1.1, with(m{"fieldsToSplitBy": "s", "options": m{"outputFormat": "singleItem"}}), []string{
			`{"b":{"sum_v":3},"a":{"sum_v":28}}`}},
		{"1.1: a field missing everywhere is no error", 1.1, m{"fieldsToSummarize": m{"values": l{m{"aggregation": "count", "field": "nope"}}}}, []string{
			`{"count_nope":0}`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, summarize.Type(), nodetest.Node{Version: tc.version, Parameters: tc.params}, in)
			require.NoError(t, err)
			var got []string
			for _, it := range out[0] {
				b, err := json.Marshal(it.JSON)
				require.NoError(t, err)
				got = append(got, string(b))
			}
			require.Equal(t, tc.want, got)
		})
	}
}

func TestSummarizeMissingField(t *testing.T) {
	t.Parallel()
	params := func(options m) m {
		return m{"fieldsToSummarize": m{"values": l{m{"aggregation": "sum", "field": "nope"}}}, "options": options}
	}
	_, err := run(t, 1, params(m{}), m{"v": 1.0})
	require.ErrorContains(t, err, "The field 'nope' does not exist in any items")
	got, err := run(t, 1, params(m{"continueIfFieldNotFound": true}), m{"v": 1.0})
	require.NoError(t, err)
	require.Equal(t, []m{{"sum_nope": 0.0}}, got)
	got, err = run(t, 1.1, params(m{"continueIfFieldNotFound": false}), m{"v": 1.0})
	require.NoError(t, err, "1.1 hides the option and always goes on")
	require.Equal(t, []m{{"sum_nope": 0.0}}, got)
}
