package filter_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/filter"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
)

type m = map[string]any

var people = nodetest.Items(
	m{"id": 1.0, "name": "Adam", "subscribed": false, "notes": nil, "updatedAt": "2011-10-05T14:48:00.000Z"},
	m{"id": 2.0, "name": "Victor", "subscribed": true, "notes": "some notes", "updatedAt": "2020-10-05T14:48:00.000Z"},
	m{"id": 3.0, "name": "Sam", "subscribed": true, "notes": "other notes", "updatedAt": "2021-10-05T14:48:00.000Z"},
)

func names(t *testing.T, out [][]map[string]any) []string {
	t.Helper()
	require.Len(t, out, 1, "Filter has one output")
	got := []string{}
	for _, j := range out[0] {
		got = append(got, j["name"].(string))
	}
	return got
}

func TestFilterV1(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params m
		want   []string
	}{
		{"AND of boolean conditions", m{"conditions": m{"boolean": []any{
			m{"value1": "={{ $json.subscribed }}", "value2": true},
			m{"value1": "={{ !$json.notes }}", "operation": "notEqual", "value2": true},
		}}}, []string{"Victor", "Sam"}},
		{"OR keeps an item meeting one condition", m{"combineConditions": "OR", "conditions": m{"number": []any{
			m{"value1": "={{ $json.id }}", "operation": "equal", "value2": 1.0},
			m{"value1": "={{ $json.id }}", "operation": "larger", "value2": 2.0},
		}}}, []string{"Adam", "Sam"}},
		{"dateTime between", m{"conditions": m{"dateTime": []any{
			m{"value1": "={{ $json.updatedAt }}", "value2": "2018-12-31T22:00:00.000Z"},
			m{"value1": "={{ $json.updatedAt }}", "operation": "before", "value2": "2021-08-03T03:30:08.000Z"},
		}}}, []string{"Victor"}},
		{"string regex", m{"conditions": m{"string": []any{
			m{"value1": "={{ $json.name }}", "operation": "regex", "value2": "/^[A-Z][a-z]{2}$/"},
		}}}, []string{"Sam"}},
		{"no conditions keeps everything", m{}, []string{"Adam", "Victor", "Sam"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, filter.TypeV1(), nodetest.Node{Parameters: tc.params}, people)
			require.NoError(t, err)
			require.Equal(t, tc.want, names(t, nodetest.Outputs(out)))
		})
	}
}

func TestFilterV2(t *testing.T) {
	t.Parallel()
	cond := func(left any, typ, op string, right any) m {
		operator := m{"type": typ, "operation": op}
		if right == "" {
			// The editor marks operators without a right value.
			operator["singleValue"] = true
		}
		return m{"leftValue": left, "rightValue": right, "operator": operator}
	}
	params := func(combinator string, conds ...any) m {
		return m{"conditions": m{"options": m{"caseSensitive": true, "typeValidation": "strict"},
			"combinator": combinator, "conditions": conds}}
	}
	tests := []struct {
		name   string
		params m
		want   []string
	}{
		{"boolean true and string not empty", params("and",
			cond("={{ $json.subscribed }}", "boolean", "true", ""),
			cond("={{ $json.notes }}", "string", "notEmpty", "")), []string{"Victor", "Sam"}},
		{"date after or number equals", params("or",
			cond("={{ $json.updatedAt }}", "dateTime", "after", "2021-01-01T00:00:00Z"),
			cond("={{ $json.id }}", "number", "equals", 1.0)), []string{"Adam", "Sam"}},
		{"null notes do not exist", params("and",
			cond("={{ $json.notes }}", "any", "notExists", "")), []string{"Adam"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, filter.TypeV2(), nodetest.Node{Version: 2, Parameters: tc.params}, people)
			require.NoError(t, err)
			require.Equal(t, tc.want, names(t, nodetest.Outputs(out)))
		})
	}
}

func TestFilterV2TypeError(t *testing.T) {
	t.Parallel()
	p := m{"conditions": m{"options": m{"caseSensitive": true, "typeValidation": "strict"}, "combinator": "and",
		"conditions": []any{m{"leftValue": "={{ $json.name }}", "rightValue": 1.0, "operator": m{"type": "number", "operation": "equals"}}}}}
	_, err := nodetest.Run(t, filter.TypeV2(), nodetest.Node{Version: 2, Parameters: p}, people)
	require.Equal(t, "Wrong type: 'Adam' is a string but was expecting a number [condition 0, item 0]", nodetest.NodeError(t, err).Message)
}

func TestFilterV2Versions(t *testing.T) {
	t.Parallel()
	items := nodetest.Items(m{"n": "5"}, m{"n": 5.0})
	params := func(extra m) m {
		p := m{"conditions": m{"options": m{"caseSensitive": true, "typeValidation": "strict"}, "combinator": "and",
			"conditions": []any{m{"leftValue": "={{ $json.n }}", "rightValue": 5.0, "operator": m{"type": "number", "operation": "equals"}}}}}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	tests := []struct {
		version float64
		params  m
		want    []map[string]any
		wantErr string
	}{
		{2, params(m{"options": m{"looseTypeValidation": true}}), nodetest.JSONs(items), ""},
		{2.1, params(m{"options": m{"looseTypeValidation": true}}), nil, "Wrong type: '5' is a string but was expecting a number [condition 0, item 0]"},
		{2.2, params(m{"looseTypeValidation": true}), nodetest.JSONs(items), ""},
		{2.3, params(m{"looseTypeValidation": true}), nodetest.JSONs(items), ""},
	}
	for _, tc := range tests {
		out, err := nodetest.Run(t, filter.TypeV2(), nodetest.Node{Version: tc.version, Parameters: tc.params}, items)
		if tc.wantErr != "" {
			require.Equal(t, tc.wantErr, nodetest.NodeError(t, err).Message, "version %g", tc.version)
			continue
		}
		require.NoError(t, err, "version %g", tc.version)
		require.Len(t, out, 1, "Filter has one output")
		require.Equal(t, tc.want, nodetest.JSONs(out[0]), "version %g", tc.version)
	}
}
