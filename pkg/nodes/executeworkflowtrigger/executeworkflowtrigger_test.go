package executeworkflowtrigger_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes/executeworkflowtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

func TestExecuteWorkflowTrigger(t *testing.T) {
	t.Parallel()
	in := func() []workflow.Item {
		return []workflow.Item{
			{JSON: workflow.ObjectOf("extra", true, "price", 4.0, "sku", "pad")},
			{JSON: workflow.ObjectOf("sku", "pen")},
		}
	}
	fields := m{"values": []any{m{"name": "sku"}, m{"name": "price", "type": "number"}}}
	tests := []struct {
		name    string
		version float64
		params  m
		want    []m
		keys    []string
		err     string
	}{
		{"version 1 passes everything", 1, m{}, []m{{"extra": true, "price": 4.0, "sku": "pad"}, {"sku": "pen"}}, []string{"extra", "price", "sku"}, ""},
		{"accept all data", 1.1, m{"inputSource": "passthrough"}, []m{{"extra": true, "price": 4.0, "sku": "pad"}, {"sku": "pen"}}, []string{"extra", "price", "sku"}, ""},
		{"fields in the schema's order, null when missing", 1.1, m{"workflowInputs": fields},
			[]m{{"sku": "pad", "price": 4.0}, {"sku": "pen", "price": nil}}, []string{"sku", "price"}, ""},
		{"fields from a JSON example", 1.1, m{"inputSource": "jsonExample", "jsonExample": `{"price": 1, "sku": "x", "note": null}`},
			[]m{{"price": 4.0, "sku": "pad", "note": nil}, {"price": nil, "sku": "pen", "note": nil}}, []string{"price", "sku", "note"}, ""},
		{"no fields", 1.1, m{}, []m{{}, {}}, []string{}, ""},
		{"invalid JSON example", 1.1, m{"inputSource": "jsonExample", "jsonExample": `{"price": `}, nil, nil, "Invalid JSON example"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, executeworkflowtrigger.Type(), nodetest.Node{Version: tc.version, Parameters: tc.params}, in())
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, nodetest.JSONs(out[0]))
			require.Equal(t, tc.keys, out[0][0].JSON.Keys())
		})
	}
	// Run by hand without a caller: one empty item.
	out, err := nodetest.Run(t, executeworkflowtrigger.Type(), nodetest.Node{Version: 1.1, Parameters: m{"inputSource": "passthrough"}})
	require.NoError(t, err)
	require.Equal(t, []m{{}}, nodetest.JSONs(out[0]))
}
