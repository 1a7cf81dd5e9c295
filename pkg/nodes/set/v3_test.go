package set_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/nodes/set"
	"github.com/flowmill/flowmill/pkg/workflow"
)

func fields(entries ...m) m {
	list := make([]any, len(entries))
	for i, e := range entries {
		list[i] = e
	}
	return m{"values": list}
}

func assignments(entries ...m) m {
	list := make([]any, len(entries))
	for i, e := range entries {
		list[i] = e
	}
	return m{"assignments": list}
}

func runV3(t *testing.T, version float64, params m, in []workflow.Item) ([]map[string]any, error) {
	t.Helper()
	out, err := nodetest.Run(t, set.TypeV3(), nodetest.Node{Version: version, Parameters: params}, in)
	if err != nil {
		return nil, err
	}
	require.Len(t, out, 1)
	return nodetest.JSONs(out[0]), nil
}

var person = m{"name": "John", "age": 32.0, "object": m{"nested": true, "deep": m{"x": 1.0}}}

func TestSetV3Include(t *testing.T) {
	t.Parallel()
	test := fields(m{"name": "test", "stringValue": "foo"})
	tests := []struct {
		name   string
		params m
		want   map[string]any
	}{
		{"all by default", m{"fields": test},
			m{"name": "John", "age": 32.0, "object": m{"nested": true, "deep": m{"x": 1.0}}, "test": "foo"}},
		{"none", m{"fields": test, "include": "none"}, m{"test": "foo"}},
		{"selected", m{"fields": test, "include": "selected", "includeFields": "name, object.deep,"},
			m{"name": "John", "deep": m{"x": 1.0}, "test": "foo"}},
		{"except", m{"fields": test, "include": "except", "excludeFields": "age,object.deep"},
			m{"name": "John", "object": m{"nested": true}, "test": "foo"}},
		{"without dot notation", m{"fields": fields(m{"name": "a.b", "stringValue": "x"}), "include": "none",
			"options": m{"dotNotation": false}}, m{"a.b": "x"}},
		{"with dot notation", m{"fields": fields(m{"name": "a.b", "stringValue": "x"}), "include": "none"},
			m{"a": m{"b": "x"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := runV3(t, 3, tc.params, nodetest.Items(person))
			require.NoError(t, err)
			require.Equal(t, []map[string]any{tc.want}, got)
		})
	}
}

func TestSetV3Types(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"s": "3.14", "b": "TRUE", "n": 0.0, "arr": "['a', 'b']", "obj": `{"a": 1}`, "list": []any{1.0, 2.0}, "o": m{"k": 1.0}})
	params := m{"include": "none", "fields": fields(
		m{"name": "num", "type": "numberValue", "numberValue": "={{ $json.s }}"},
		m{"name": "bool", "type": "booleanValue", "booleanValue": "={{ $json.b }}"},
		m{"name": "boolFromNumber", "type": "booleanValue", "booleanValue": "={{ $json.n }}"},
		m{"name": "arr", "type": "arrayValue", "arrayValue": "={{ $json.arr }}"},
		m{"name": "obj", "type": "objectValue", "objectValue": "={{ $json.obj }}"},
		m{"name": "listString", "stringValue": "={{ $json.list }}"},
		m{"name": "objString", "stringValue": "={{ $json.o }}"},
		m{"name": "objFromJSON", "type": "objectValue", "objectValue": `={ "copy": {{ $json.o }}, "n": {{ $json.n }} }`},
	)}
	got, err := runV3(t, 3, params, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{
		"num": 3.14, "bool": true, "boolFromNumber": false, "arr": []any{"a", "b"}, "obj": m{"a": 1.0},
		"listString": "[1,2]", "objString": `{"k":1}`, "objFromJSON": m{"copy": m{"k": 1.0}, "n": 0.0},
	}}, got)
}

func TestSetV3ConversionErrors(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"s": "hello"})
	params := m{"include": "none", "fields": fields(m{"name": "num", "type": "numberValue", "numberValue": "={{ $json.s }}"})}
	_, err := runV3(t, 3, params, in)
	nerr := nodetest.NodeError(t, err)
	require.Equal(t, "'num' expects a number but we got 'hello' [item 0]", nerr.Message)
	require.Contains(t, nerr.Description, "Ignore Type Conversion Errors")

	params["options"] = m{"ignoreConversionErrors": true}
	got, err := runV3(t, 3, params, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"num": "hello"}}, got)

	out, err := nodetest.Run(t, set.TypeV3(), nodetest.Node{Version: 3, ContinueOnFail: true,
		Parameters: m{"include": "none", "fields": fields(m{"name": "b", "type": "booleanValue", "booleanValue": "={{ 'maybe' }}"})}}, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"error": "'b' expects a boolean but we got 'maybe' [item 0]"}}, nodetest.JSONs(out[0]))
}

// TestSetV3NullPerVersion pins how a null string field differs between 3.0, 3.1 and 3.2.
func TestSetV3NullPerVersion(t *testing.T) {
	t.Parallel()
	params := func() m {
		return m{"include": "none", "fields": fields(m{"name": "s", "stringValue": "={{ null }}"},
			m{"name": "n", "type": "numberValue", "numberValue": "={{ undefined }}"})}
	}
	got, err := runV3(t, 3, params(), nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"s": "null", "n": nil}}, got)

	_, err = runV3(t, 3.1, params(), nodetest.Items(m{}))
	require.Equal(t, "'s' expects a string but we got 'null' [item 0]", nodetest.NodeError(t, err).Message)

	got, err = runV3(t, 3.2, params(), nodetest.Items(m{}))
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"s": nil, "n": nil}}, got)
}

func TestSetV3Assignments(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"name": "John", "age": "32"})
	params := m{"assignments": assignments(
		m{"id": "1", "name": "user.age", "type": "number", "value": "={{ $json.age }}"},
		m{"id": "2", "name": "greeting", "type": "string", "value": "=Hi {{ $json.name }}"},
	)}
	got, err := runV3(t, 3.3, params, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"user": m{"age": 32.0}, "greeting": "Hi John"}}, got, "other fields are off by default from 3.3")

	params["includeOtherFields"] = true
	got, err = runV3(t, 3.3, params, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"name": "John", "age": "32", "user": m{"age": 32.0}, "greeting": "Hi John"}}, got)

	params["include"] = "except"
	params["excludeFields"] = "age"
	got, err = runV3(t, 3.4, params, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"name": "John", "user": m{"age": 32.0}, "greeting": "Hi John"}}, got)
}

func TestSetV3Binary(t *testing.T) {
	t.Parallel()
	in := []workflow.Item{{JSON: workflow.ObjectFromMap(m{"a": 1.0}), Binary: map[string]workflow.BinaryData{"data": {MimeType: "text/plain", Data: "aGk="}}}}
	run := func(version float64, params m) *workflow.Item {
		out, err := nodetest.Run(t, set.TypeV3(), nodetest.Node{Version: version, Parameters: params}, in)
		require.NoError(t, err)
		return &out[0][0]
	}
	require.Nil(t, run(3.3, m{"includeOtherFields": true}).Binary, "before 3.4 binary needs Include Binary File")
	require.NotNil(t, run(3.3, m{"includeOtherFields": true, "options": m{"includeBinary": true}}).Binary)
	require.NotNil(t, run(3.4, m{"includeOtherFields": true}).Binary, "3.4 keeps binary unless stripped")
	require.Nil(t, run(3.4, m{"includeOtherFields": true, "options": m{"stripBinary": true}}).Binary)
	require.Nil(t, run(3.4, m{}).Binary, "3.4 without other fields drops binary")
}

func TestSetV3JSONMode(t *testing.T) {
	t.Parallel()
	in := nodetest.Items(m{"name": "John", "tags": []any{"a"}})
	got, err := runV3(t, 3.4, m{"mode": "raw", "jsonOutput": `={ "who": "{{ $json.name }}", "tags": {{ $json.tags }}, }`}, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"who": "John", "tags": []any{"a"}}}, got, "a trailing comma is repaired")

	got, err = runV3(t, 3.4, m{"mode": "raw", "jsonOutput": "{'a': 1}", "includeOtherFields": true}, in)
	require.NoError(t, err)
	require.Equal(t, []map[string]any{{"name": "John", "tags": []any{"a"}, "a": 1.0}}, got)

	_, err = runV3(t, 3.4, m{"mode": "raw", "jsonOutput": "[1, 2]"}, in)
	require.Equal(t, "The 'JSON Output' in item 0 does not contain a valid JSON object", nodetest.NodeError(t, err).Message)
	_, err = runV3(t, 3.4, m{"mode": "raw", "jsonOutput": "{ nope"}, in)
	require.Equal(t, "The 'JSON Output' in item 0 contains invalid JSON", nodetest.NodeError(t, err).Message)
}

func TestSetV3Duplicate(t *testing.T) {
	t.Parallel()
	params := m{"duplicateItem": true, "duplicateCount": 2.0, "fields": fields(m{"name": "x", "stringValue": "y"})}
	got, err := runV3(t, 3.2, params, nodetest.Items(m{"a": 1.0}))
	require.NoError(t, err)
	require.Len(t, got, 3, "manual runs duplicate the item")
	out, err := nodetest.Run(t, set.TypeV3(), nodetest.Node{Version: 3.2, Parameters: params, Mode: workflow.ModeTrigger}, nodetest.Items(m{"a": 1.0}))
	require.NoError(t, err)
	require.Len(t, out[0], 1, "other runs ignore duplication")
}
