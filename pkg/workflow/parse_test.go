package workflow_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/workflow"
)

const sample = `{
  "name": "Sample", "id": 183, "active": false, "versionId": "v1", "meta": {"instanceId": "x"},
  "tags": [], "settings": {"timezone": "Europe/Berlin", "executionTimeout": 30},
  "staticData": "{\"global\":{\"n\":1}}",
  "pinData": {"B": [{"json": {"p": 1}}]},
  "nodes": [
    {"id": "1", "name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "position": [240, 300], "parameters": {}},
    {"name": "B", "type": "n8n-nodes-base.set", "typeVersion": 2, "position": [460, 300],
     "parameters": {"values": {"string": [{"name": "a", "value": "x"}]}},
     "retryOnFail": true, "maxTries": "4", "waitBetweenTries": 100, "continueOnFail": true,
     "notesInFlow": true, "notes": "hi", "onError": "continueRegularOutput", "credentials": {"x": {"id": "1", "name": "c"}}},
    {"name": "A", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [0, 0], "parameters": {}, "disabled": true}
  ],
  "connections": {
    "Start": {"main": [[{"node": "B", "type": "main", "index": 0}, {"node": "A", "type": "main", "index": 0}]]},
    "B": {"main": [[{"node": "A", "type": "main", "index": 0}]]}
  }
}`

func TestParse(t *testing.T) {
	t.Parallel()
	w, err := workflow.Parse([]byte(sample))
	require.NoError(t, err)
	require.Equal(t, "183", w.ID)
	require.Equal(t, "Europe/Berlin", w.Settings.Timezone())
	require.Equal(t, "v0", w.Settings.ExecutionOrder(), "no executionOrder setting is the v0 order")
	require.Equal(t, 30.0, w.Settings.ExecutionTimeout())
	require.Equal(t, map[string]any{"global": map[string]any{"n": 1.0}}, w.StaticData)
	require.Len(t, w.PinData["B"], 1)
	require.Equal(t, []string{"Start", "B"}, w.Connections.Sources())
	b, ok := w.Node("B")
	require.True(t, ok)
	require.Equal(t, 2.0, b.TypeVersion)
	require.True(t, b.RetryOnFail)
	require.Equal(t, 4, b.MaxTries)
	require.Equal(t, 100, b.WaitBetweenTries)
	require.JSONEq(t, `"continueRegularOutput"`, string(b.Extra["onError"]))
	a, _ := w.Node("A")
	require.True(t, a.Disabled)

	dest := w.Connections.ByDestination()
	require.Equal(t, []workflow.Connection{{Node: "Start", Type: "main"}, {Node: "B", Type: "main"}}, dest["A"]["main"][0])
}

func TestRoundTripKeepsUnknownFields(t *testing.T) {
	t.Parallel()
	w, err := workflow.Parse([]byte(sample))
	require.NoError(t, err)
	out, err := json.Marshal(w)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(out, &got))
	require.Equal(t, "v1", got["versionId"])
	require.Equal(t, map[string]any{"instanceId": "x"}, got["meta"])
	require.Equal(t, []any{}, got["tags"])
	nodes := got["nodes"].([]any)
	require.Equal(t, "continueRegularOutput", nodes[1].(map[string]any)["onError"])
	require.NotContains(t, nodes[0].(map[string]any), "disabled", "settings that are off are left out")

	again, err := workflow.Parse(out)
	require.NoError(t, err)
	require.Equal(t, w.Connections.Sources(), again.Connections.Sources())
	out2, err := json.Marshal(again)
	require.NoError(t, err)
	require.JSONEq(t, string(out), string(out2))
}

func TestParseKeepsConnectionOrder(t *testing.T) {
	t.Parallel()
	doc := `{"nodes": [{"name": "Z", "type": "t"}, {"name": "A", "type": "t"}, {"name": "2", "type": "t"}, {"name": "10", "type": "t"}],
	  "connections": {"Z": {"main": [[{"node": "A", "type": "main", "index": 0}]]}, "A": {"main": [[]]},
	                  "10": {"main": [[]]}, "2": {"main": [[]]}}}`
	w, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	// JavaScript enumerates integer-like keys first, ascending.
	require.Equal(t, []string{"2", "10", "Z", "A"}, w.Connections.Sources())
	require.Equal(t, []string{"2", "10", "Z", "A"}, w.NodeNames())
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	node := func(extra string) string {
		return `{"nodes": [{"name": "N", "type": "t", "typeVersion": 1` + extra + `}], "connections": {}}`
	}
	tests := []struct {
		name, doc, node, field, msg string
	}{
		{"malformed JSON", `{"nodes": [`, "", "", "malformed JSON"},
		{"not an object", `[1]`, "", "", "want a JSON object"},
		{"nodes not a list", `{"nodes": {}}`, "", "nodes", "want an array"},
		{"typeVersion a string", node(`, "typeVersion": "x"`), "N", "typeVersion", "want a number"},
		{"parameters a list", node(`, "parameters": []`), "N", "parameters", "want an object"},
		{"disabled a string", node(`, "disabled": "yes"`), "N", "disabled", "want a boolean"},
		{"position with three numbers", node(`, "position": [1, 2, 3]`), "N", "position", "want [x, y]"},
		{"missing name", `{"nodes": [{"type": "t"}]}`, "", "nodes[0].name", "needs a name"},
		{"missing type", `{"nodes": [{"name": "N"}]}`, "N", "type", "needs a type"},
		{"duplicate names", `{"nodes": [{"name": "N", "type": "a"}, {"name": "N", "type": "b"}]}`, "N", "name", "same name"},
		{"unknown target", `{"nodes": [{"name": "N", "type": "t"}], "connections": {"N": {"main": [[{"node": "X", "type": "main", "index": 0}]]}}}`,
			"N", "connections", `"X", which does not exist`},
		{"unknown source", `{"nodes": [{"name": "N", "type": "t"}], "connections": {"X": {"main": [[{"node": "N", "type": "main", "index": 0}]]}}}`,
			"X", "connections", "does not exist"},
		{"bad connection shape", `{"nodes": [], "connections": {"N": {"main": {}}}}`, "", "connections", ""},
		{"static data not an object", `{"nodes": [], "staticData": 5}`, "", "staticData", "want an object"},
		{"unknown execution order", `{"nodes": [], "settings": {"executionOrder": "v2"}}`, "", "settings.executionOrder", `want "v0" or "v1", got v2`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := workflow.Parse([]byte(tc.doc))
			require.Error(t, err)
			require.True(t, errors.Is(err, workflow.ErrInvalid))
			var ve *workflow.ValidationError
			require.ErrorAs(t, err, &ve)
			require.Equal(t, tc.node, ve.Node)
			require.Equal(t, tc.field, ve.Field)
			require.Contains(t, ve.Error(), tc.msg)
		})
	}
}

func TestParseDropsExactDuplicateNodes(t *testing.T) {
	t.Parallel()
	doc := `{"nodes": [{"name": "N", "type": "t", "parameters": {"a": 1}}, {"name": "M", "type": "t"},
	  {"parameters": {"a": 1}, "name": "N", "type": "t"}]}`
	w, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	require.Len(t, w.Nodes, 2)
}

func FuzzParseWorkflow(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte(`{"nodes": [{"name": "N", "type": "t"}], "connections": {"N": {"main": [null, [{"node": "N", "index": -1}]]}}}`))
	f.Add([]byte(`{"staticData": "{", "settings": null, "id": 1e400}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := workflow.Parse(b)
		if err != nil {
			return
		}
		out, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("marshal a parsed workflow: %v", err)
		}
		if _, err := workflow.Parse(out); err != nil {
			t.Fatalf("reparse: %v\n%s", err, out)
		}
		w.Connections.ByDestination()
	})
}
