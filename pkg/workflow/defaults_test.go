package workflow_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func props(t *testing.T, doc string) []workflow.Property {
	t.Helper()
	var p []workflow.Property
	require.NoError(t, json.Unmarshal([]byte(doc), &p))
	return p
}

// A description exercising show/hide, root ("/") rules, @version, duplicate names, collections
// and fixedCollections, modelled on n8n's Merge, IF and HTTP Request descriptions.
const testProps = `[
 {"name": "mode", "type": "options", "default": "append"},
 {"name": "joinMode", "type": "options", "default": "keepMatches", "displayOptions": {"show": {"mode": ["combine"]}}},
 {"name": "output", "type": "string", "default": "both", "displayOptions": {"show": {"mode": ["combine"], "joinMode": ["keepMatches"]}}},
 {"name": "output", "type": "string", "default": "other", "displayOptions": {"show": {"mode": ["combine"], "joinMode": ["keepNonMatches"]}}},
 {"name": "legacy", "type": "boolean", "default": true, "displayOptions": {"show": {"@version": [1]}}},
 {"name": "modern", "type": "number", "default": 5, "displayOptions": {"hide": {"@version": [1]}}},
 {"name": "count", "type": "number", "default": 0},
 {"name": "text", "type": "string", "default": "t"},
 {"name": "list", "type": "collection", "typeOptions": {"multipleValues": true}, "default": [{"x": 1}]},
 {"name": "options", "type": "collection", "default": {}, "options": [
   {"name": "a", "type": "string", "default": "A"},
   {"name": "onlyCombine", "type": "boolean", "default": false, "displayOptions": {"show": {"/mode": ["combine"]}}}
 ]},
 {"name": "rules", "type": "fixedCollection", "typeOptions": {"multipleValues": true}, "default": {}, "options": [
   {"name": "rule", "values": [
     {"name": "op", "type": "options", "default": "equal"},
     {"name": "value", "type": "string", "default": "", "displayOptions": {"hide": {"op": ["isEmpty"]}}},
     {"name": "regex", "type": "string", "default": "/x/", "displayOptions": {"show": {"op": ["regex"]}}}
   ]}
 ]},
 {"name": "single", "type": "fixedCollection", "default": {"values": {"k": "v"}}, "options": [
   {"name": "values", "values": [{"name": "k", "type": "string", "default": "d"}, {"name": "n", "type": "number", "default": 1}]}
 ]}
]`

func TestResolveParameters(t *testing.T) {
	t.Parallel()
	p := props(t, testProps)
	base := m{"legacy": true, "count": 0.0, "text": "t", "list": []any{m{"x": 1.0}}, "options": m{}, "rules": m{}, "single": m{"values": m{"k": "v", "n": 1.0}}}
	with := func(v float64, extra m) m {
		out := m{}
		for k, x := range base {
			out[k] = x
		}
		if v != 1 {
			delete(out, "legacy")
			out["modern"] = 5.0
		}
		for k, x := range extra {
			out[k] = x
		}
		return out
	}
	tests := []struct {
		name    string
		version float64
		in      m
		want    m
	}{
		{"all defaults", 1, m{}, with(1, m{"mode": "append"})},
		{"version hides and shows", 2, m{}, with(2, m{"mode": "append"})},
		{"shown by option", 1, m{"mode": "combine"}, with(1, m{"mode": "combine", "joinMode": "keepMatches", "output": "both"})},
		{"duplicate name picks the displayed one", 1, m{"mode": "combine", "joinMode": "keepNonMatches"},
			with(1, m{"mode": "combine", "joinMode": "keepNonMatches", "output": "other"})},
		{"hidden values are dropped", 1, m{"mode": "append", "joinMode": "keepNonMatches"}, with(1, m{"mode": "append"})},
		// Both "output" parameters show for an expression; as in n8n the last one wins.
		{"expression keeps dependants shown", 1, m{"mode": "={{ 'combine' }}"},
			with(1, m{"mode": "={{ 'combine' }}", "joinMode": "keepMatches", "output": "other"})},
		{"zero and false are kept", 1, m{"count": 0.0, "legacy": false}, with(1, m{"mode": "append", "legacy": false})},
		{"empty string becomes default only for null", 1, m{"text": ""}, with(1, m{"mode": "append", "text": ""})},
		{"collection keeps only set options", 1, m{"options": m{"a": "x"}}, with(1, m{"mode": "append", "options": m{"a": "x"}})},
		{"collection option hidden by root rule", 1, m{"options": m{"onlyCombine": true}}, with(1, m{"mode": "append", "options": m{}})},
		{"collection option shown by root rule", 1, m{"mode": "combine", "options": m{"onlyCombine": true}},
			with(1, m{"mode": "combine", "joinMode": "keepMatches", "output": "both", "options": m{"onlyCombine": true}})},
		{"fixedCollection entries get defaults", 1, m{"rules": m{"rule": []any{m{}, m{"op": "isEmpty"}, m{"op": "regex"}}}},
			with(1, m{"mode": "append", "rules": m{"rule": []any{
				m{"op": "equal", "value": ""}, m{"op": "isEmpty"}, m{"op": "regex", "value": "", "regex": "/x/"}}}})},
		{"single fixedCollection", 1, m{"single": m{"values": m{"n": 3.0}}}, with(1, m{"mode": "append", "single": m{"values": m{"k": "d", "n": 3.0}}})},
		{"multiple-value collection kept as is", 1, m{"list": []any{}}, with(1, m{"mode": "append", "list": []any{}})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := workflow.ResolveParameters(p, tc.in, tc.version)
			require.NoError(t, err)
			require.True(t, workflow.DeepEqual(tc.want, got), "want %v\n got %v", tc.want, got)
		})
	}
}

func TestStripDefaults(t *testing.T) {
	t.Parallel()
	p := props(t, testProps)
	tests := []struct {
		name string
		in   m
		want m
	}{
		// n8n keeps a present collection, even empty ("options": {} in exports).
		{"defaults are removed", m{"mode": "append", "count": 0.0, "text": "t", "options": m{}, "rules": m{}}, m{"options": m{}}},
		{"changed values stay", m{"mode": "combine", "joinMode": "keepMatches", "count": 2.0}, m{"mode": "combine", "count": 2.0}},
		{"hidden values go", m{"mode": "append", "joinMode": "keepNonMatches"}, m{}},
		{"collection values stay even when default", m{"options": m{"a": "A"}}, m{"options": m{"a": "A"}}},
		{"fixedCollection entries are stripped", m{"rules": m{"rule": []any{m{"op": "equal", "value": "x"}}}},
			m{"rules": m{"rule": []any{m{"value": "x"}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := workflow.StripDefaults(p, tc.in, 2)
			require.NoError(t, err)
			require.True(t, workflow.DeepEqual(tc.want, got), "want %v\n got %v", tc.want, got)
			back, err := workflow.ResolveParameters(p, got, 2)
			require.NoError(t, err)
			full, err := workflow.ResolveParameters(p, tc.in, 2)
			require.NoError(t, err)
			require.True(t, workflow.DeepEqual(full, back), "strip then resolve must give the same parameters")
		})
	}
}

func TestDisplayParameter(t *testing.T) {
	t.Parallel()
	p := props(t, `[{"name": "x", "type": "string", "displayOptions": {"show": {"a": ["on", 1], "/root.b": [true]}, "hide": {"c": [null]}}}]`)[0]
	root := m{"root": m{"b": true}}
	require.True(t, workflow.DisplayParameter(m{"a": "on"}, &p, 1, root))
	require.True(t, workflow.DisplayParameter(m{"a": 1.0}, &p, 1, root))
	require.True(t, workflow.DisplayParameter(m{"a": []any{"off", "on"}}, &p, 1, root), "any listed value")
	require.False(t, workflow.DisplayParameter(m{"a": "off"}, &p, 1, root))
	require.False(t, workflow.DisplayParameter(m{}, &p, 1, root), "missing value")
	require.False(t, workflow.DisplayParameter(m{"a": "on"}, &p, 1, m{}))
	require.False(t, workflow.DisplayParameter(m{"a": "on", "c": nil}, &p, 1, root), "hidden by null")
	require.True(t, workflow.DisplayParameter(m{"a": m{"__rl": true, "value": "on"}}, &p, 1, root), "resource locator value")
}
