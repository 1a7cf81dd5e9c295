package renamekeys_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/renamekeys"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func keys(pairs ...string) m {
	list := []any{}
	for i := 0; i+1 < len(pairs); i += 2 {
		list = append(list, m{"currentKey": pairs[i], "newKey": pairs[i+1]})
	}
	return m{"key": list}
}

func regex(search, replace string, options m) m {
	return m{"regexReplacement": m{"replacements": []any{m{"searchRegex": search, "replaceRegex": replace, "options": options}}}}
}

func TestRenameKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		params  m
		input   m
		want    m
		wantErr string
	}{
		{"renames a key", m{"keys": keys("a", "b")}, m{"a": 1.0, "c": 2.0}, m{"b": 1.0, "c": 2.0}, ""},
		{"current key as an expression", m{"keys": keys("=propertyName", "test")}, m{"propertyName": 0.0}, m{"test": 0.0}, ""},
		{"dot notation on both sides", m{"keys": keys("propertyName.newPropertyName", "test.dot")},
			m{"propertyName": m{"newPropertyName": 21.0}}, m{"propertyName": m{}, "test": m{"dot": 21.0}}, ""},
		{"missing new key is skipped", m{"keys": m{"key": []any{m{"currentKey": "a"}}}}, m{"a": 1.0}, m{"a": 1.0}, ""},
		{"same key is skipped", m{"keys": keys("a", "a")}, m{"a": 1.0}, m{"a": 1.0}, ""},
		{"missing current key is skipped", m{"keys": keys("x", "y")}, m{"a": 1.0}, m{"a": 1.0}, ""},
		{"null values are renamed", m{"keys": keys("a", "b")}, m{"a": nil}, m{"b": nil}, ""},
		{"renames read the input, not earlier renames", m{"keys": keys("a", "b", "b", "c")}, m{"a": 1.0},
			m{"b": 1.0}, ""},
		{"swap", m{"keys": keys("a", "b", "b", "a")}, m{"a": 1.0, "b": 2.0}, m{"a": 2.0}, ""},
		{"array index paths", m{"keys": keys("list[0]", "first")}, m{"list": []any{"x", "y"}},
			m{"list": []any{nil, "y"}, "first": "x"}, ""},
		{"no keys copies the item", m{}, m{"a": m{"b": 1.0}}, m{"a": m{"b": 1.0}}, ""},
		{"regex renames at every depth", m{"additionalOptions": regex("reg", "test", m{})},
			m{"propertyName": m{"newPropertyName": 0.0}, "regex": 0.0, "nested": m{"regular": []any{m{"region": 1.0}}}},
			m{"propertyName": m{"newPropertyName": 0.0}, "testex": 0.0, "nested": m{"testular": []any{m{"testion": 1.0}}}}, ""},
		{"regex replaces the first match with captures", m{"additionalOptions": regex("(a)(b)", "$2$1", m{})},
			m{"abab": 1.0}, m{"baab": 1.0}, ""},
		{"regex is case sensitive by default", m{"additionalOptions": regex("name", "n", m{})},
			m{"Name": 1.0, "name": 2.0}, m{"Name": 1.0, "n": 2.0}, ""},
		{"case insensitive", m{"additionalOptions": regex("^name$", "n", m{"caseInsensitive": true})},
			m{"NAME": 1.0}, m{"n": 1.0}, ""},
		{"depth 0 is the top level only", m{"additionalOptions": regex("a", "b", m{"depth": 0.0})},
			m{"a": m{"a": 1.0}}, m{"b": m{"a": 1.0}}, ""},
		{"depth 1", m{"additionalOptions": regex("a", "b", m{"depth": 1.0})},
			m{"a": m{"a": m{"a": 1.0}}}, m{"b": m{"b": m{"a": 1.0}}}, ""},
		{"depth -1 is unlimited", m{"additionalOptions": regex("a", "b", m{"depth": -1.0})},
			m{"a": m{"a": m{"a": 1.0}}}, m{"b": m{"b": m{"b": 1.0}}}, ""},
		{"keys then regex", m{"keys": keys("one", "two"), "additionalOptions": regex("^t", "T", m{})},
			m{"one": 1.0}, m{"Two": 1.0}, ""},
		{"invalid regex", m{"additionalOptions": regex("(", "x", m{})}, m{"a": 1.0}, nil, "Invalid regular expression: /(/"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := nodetest.Items(tc.input)
			before := workflow.DeepCopy(tc.input)
			out, err := nodetest.Run(t, renamekeys.Type(), nodetest.Node{Parameters: tc.params}, in)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			got := nodetest.JSONs(out[0])
			require.Len(t, got, 1)
			require.True(t, workflow.DeepEqual(tc.want, got[0]), "want %v got %v", tc.want, got[0])
			require.True(t, workflow.DeepEqual(before, in[0].JSON), "the input is not changed")
		})
	}
}

func TestRenameKeysItems(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{
		{JSON: workflow.ObjectFromMap(m{"a": 1.0}), Binary: map[string]workflow.BinaryData{"data": {Data: "aGk="}}},
		{JSON: workflow.ObjectFromMap(m{"a": 2.0})},
	}
	out, err := nodetest.Run(t, renamekeys.Type(), nodetest.Node{Parameters: m{"keys": keys("a", "={{ 'k' + $json.a }}")}}, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"k1": 1.0}, {"k2": 2.0}}, nodetest.JSONs(out[0]))
	require.Equal(t, "aGk=", out[0][0].Binary["data"].Data)
	require.Equal(t, workflow.PairedItems{{Item: 1}}, *out[0][1].PairedItem)

	out, err = nodetest.Run(t, renamekeys.Type(), nodetest.Node{Parameters: m{}}, []workflow.Item{})
	require.NoError(t, err)
	require.Empty(t, out[0])
}
