package merge_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/merge"
	"github.com/flowmill/flowmill/pkg/nodes/nodetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type m = map[string]any

type mergeCase struct {
	name    string
	version float64
	params  m
	in1     []workflow.Item
	in2     []workflow.Item
	want    []m
	wantErr string
}

func run(t *testing.T, typ nodes.Type, tests []mergeCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := nodetest.Run(t, typ, nodetest.Node{Version: tc.version, Parameters: tc.params}, tc.in1, tc.in2)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Len(t, out, 1)
			nodetest.RequireJSONs(t, tc.want, out[0])
		})
	}
}

func TestMergeV1(t *testing.T) {
	t.Parallel()
	a := nodetest.Items(m{"id": 1.0, "a": "x"}, m{"id": 2.0, "a": "y"})
	b := nodetest.Items(m{"key": 2.0, "b": "q"}, m{"key": 3.0, "b": "r"})
	run(t, merge.TypeV1(), []mergeCase{
		{name: "append (default)", version: 1, in1: a, in2: b, want: []m{a[0].JSON.ToMap(), a[1].JSON.ToMap(), b[0].JSON.ToMap(), b[1].JSON.ToMap()}},
		{name: "append with one input", version: 1, in1: a, want: []m{a[0].JSON.ToMap(), a[1].JSON.ToMap()}},
		{name: "pass through input 1", version: 1, params: m{"mode": "passThrough"}, in1: a, in2: b, want: []m{a[0].JSON.ToMap(), a[1].JSON.ToMap()}},
		{name: "pass through input 2", version: 1, params: m{"mode": "passThrough", "output": "input2"}, in1: a, in2: b, want: []m{b[0].JSON.ToMap(), b[1].JSON.ToMap()}},
		{name: "wait", version: 1, params: m{"mode": "wait"}, in1: a, in2: b, want: []m{{}}},
		{name: "multiplex", version: 1, params: m{"mode": "multiplex"}, in1: a, in2: b[:1], want: []m{
			{"id": 1.0, "a": "x", "key": 2.0, "b": "q"}, {"id": 2.0, "a": "y", "key": 2.0, "b": "q"}}},
		{name: "merge by index left", version: 1, params: m{"mode": "mergeByIndex"}, in1: a, in2: b[:1], want: []m{
			{"id": 1.0, "a": "x", "key": 2.0, "b": "q"}, {"id": 2.0, "a": "y"}}},
		{name: "merge by index inner", version: 1, params: m{"mode": "mergeByIndex", "join": "inner"}, in1: a, in2: b[:1], want: []m{
			{"id": 1.0, "a": "x", "key": 2.0, "b": "q"}}},
		{name: "merge by index outer", version: 1, params: m{"mode": "mergeByIndex", "join": "outer"}, in1: a[:1], in2: b, want: []m{
			{"id": 1.0, "a": "x", "key": 2.0, "b": "q"}, {"key": 3.0, "b": "r"}}},
		{name: "merge by index empty input 1 outer", version: 1, params: m{"mode": "mergeByIndex", "join": "outer"}, in1: []workflow.Item{}, in2: b, want: []m{b[0].JSON.ToMap(), b[1].JSON.ToMap()}},
		{name: "merge by key", version: 1, params: m{"mode": "mergeByKey", "propertyName1": "id", "propertyName2": "key"}, in1: a, in2: b, want: []m{
			{"id": 1.0, "a": "x"}, {"id": 2.0, "a": "y", "b": "q"}}},
		{name: "merge by key if missing", version: 1, params: m{"mode": "mergeByKey", "propertyName1": "id", "propertyName2": "key", "overwrite": "undefined"},
			in1: nodetest.Items(m{"id": "2", "b": "keep"}), in2: b, want: []m{{"id": "2", "b": "keep"}}},
		{name: "keep key matches", version: 1, params: m{"mode": "keepKeyMatches", "propertyName1": "id", "propertyName2": "key"}, in1: a, in2: b, want: []m{a[1].JSON.ToMap()}},
		{name: "remove key matches", version: 1, params: m{"mode": "removeKeyMatches", "propertyName1": "id", "propertyName2": "key"}, in1: a, in2: b, want: []m{a[0].JSON.ToMap()}},
		{name: "key matches without second input", version: 1, params: m{"mode": "keepKeyMatches", "propertyName1": "id", "propertyName2": "key"}, in1: a, want: []m{}},
	})
}

func TestMergeV2(t *testing.T) {
	t.Parallel()
	in1 := nodetest.Items(m{"id": 1.0, "data": "a", "input": 1.0, "text": "foo"}, m{"id": 2.0, "data": "b", "input": 1.0, "text": "foo"})
	in2 := nodetest.Items(m{"id": 1.0, "data": "c", "input": 2.0, "tag": "second"}, m{"id": 2.0, "data": "d", "input": 2.0, "tag": "second"},
		m{"id": 3.0, "data": "e", "input": 2.0, "tag": "second"})
	byID := m{"values": []any{m{"field1": "id", "field2": "id"}}}
	fields := func(extra m) m {
		p := m{"mode": "combine", "mergeByFields": byID}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	suffix := m{"clashHandling": m{"values": m{"resolveClash": "addSuffix"}}}
	merged1 := m{"id": 1.0, "data": "c", "input": 2.0, "text": "foo", "tag": "second"}
	merged2 := m{"id": 2.0, "data": "d", "input": 2.0, "text": "foo", "tag": "second"}
	run(t, merge.TypeV2(), []mergeCase{
		{name: "append", version: 2, in1: in1, in2: in2[:1], want: []m{in1[0].JSON.ToMap(), in1[1].JSON.ToMap(), in2[0].JSON.ToMap()}},
		{name: "keep matches", version: 2, params: fields(nil), in1: in1, in2: in2, want: []m{merged1, merged2}},
		{name: "keep non-matches", version: 2, params: fields(m{"joinMode": "keepNonMatches"}), in1: in1, in2: in2,
			want: []m{{"id": 3.0, "data": "e", "input": 2.0, "tag": "second", "_source": "input2"}}},
		{name: "keep everything", version: 2, params: fields(m{"joinMode": "keepEverything"}), in1: in1, in2: in2, want: []m{merged1, merged2, in2[2].JSON.ToMap()}},
		{name: "enrich input 1", version: 2, params: fields(m{"joinMode": "enrichInput1"}), in1: in1, in2: in2, want: []m{merged1, merged2}},
		{name: "enrich input 2", version: 2, params: fields(m{"joinMode": "enrichInput2"}), in1: in1, in2: in2, want: []m{merged1, merged2, in2[2].JSON.ToMap()}},
		{name: "output input 1", version: 2, params: fields(m{"outputDataFrom": "input1"}), in1: in1, in2: in2, want: []m{in1[0].JSON.ToMap(), in1[1].JSON.ToMap()}},
		{name: "output input 2", version: 2, params: fields(m{"outputDataFrom": "input2"}), in1: in1, in2: in2, want: []m{in2[0].JSON.ToMap(), in2[1].JSON.ToMap()}},
		{name: "add suffix", version: 2, params: fields(m{"options": suffix}), in1: in1[:1], in2: in2, want: []m{
			{"id_1": 1.0, "data_1": "a", "input_1": 1.0, "text_1": "foo", "id_2": 1.0, "data_2": "c", "input_2": 2.0, "tag_2": "second"}}},
		{name: "fuzzy compare", version: 2, params: fields(m{"options": m{"fuzzyCompare": true}}), in1: nodetest.Items(m{"id": "1"}), in2: in2[:1],
			want: []m{{"id": 1.0, "data": "c", "input": 2.0, "tag": "second"}}},
		{name: "strict compare", version: 2.1, params: fields(nil), in1: nodetest.Items(m{"id": "1"}), in2: in2[:1], want: []m{}},
		{name: "dot notation fields", version: 2, params: m{"mode": "combine", "mergeByFields": m{"values": []any{m{"field1": "a.b", "field2": "k"}}}},
			in1: nodetest.Items(m{"a": m{"b": 1.0}}), in2: nodetest.Items(m{"k": 1.0, "x": true}), want: []m{{"a": m{"b": 1.0}, "k": 1.0, "x": true}}},
		{name: "missing field fails in 2.0", version: 2, params: fields(nil), in1: nodetest.Items(m{"x": 1.0}), in2: in2, wantErr: "Field 'id' is not present"},
		{name: "empty input 2 keeps nothing in 2.1", version: 2.1, params: fields(nil), in1: in1, in2: []workflow.Item{}, want: []m{}},
		{name: "empty input 2 enrich input 1 in 2.1", version: 2.1, params: fields(m{"joinMode": "enrichInput1"}), in1: in1, in2: []workflow.Item{}, want: []m{in1[0].JSON.ToMap(), in1[1].JSON.ToMap()}},
		{name: "no match fields", version: 2, params: m{"mode": "combine"}, in1: in1, in2: in2, wantErr: "You need to define at least one pair"},
		{name: "by position", version: 2, params: m{"mode": "combine", "combinationMode": "mergeByPosition", "options": suffix}, in1: in1, in2: in2, want: []m{
			{"id_1": 1.0, "data_1": "a", "input_1": 1.0, "text_1": "foo", "id_2": 1.0, "data_2": "c", "input_2": 2.0, "tag_2": "second"},
			{"id_1": 2.0, "data_1": "b", "input_1": 1.0, "text_1": "foo", "id_2": 2.0, "data_2": "d", "input_2": 2.0, "tag_2": "second"}}},
		{name: "by position prefer input 1", version: 2, params: m{"mode": "combine", "combinationMode": "mergeByPosition",
			"options": m{"clashHandling": m{"values": m{"resolveClash": "preferInput1"}}}}, in1: in1[:1], in2: in2[:1],
			want: []m{{"id": 1.0, "data": "a", "input": 1.0, "text": "foo", "tag": "second"}}},
		{name: "by position unpaired", version: 2, params: m{"mode": "combine", "combinationMode": "mergeByPosition",
			"options": m{"clashHandling": m{"values": m{"resolveClash": "preferInput2"}}, "includeUnpaired": true}}, in1: in1, in2: in2,
			want: []m{{"id": 1.0, "data": "c", "input": 2.0, "text": "foo", "tag": "second"}, {"id": 2.0, "data": "d", "input": 2.0, "text": "foo", "tag": "second"}, in2[2].JSON.ToMap()}},
		{name: "all combinations", version: 2, params: m{"mode": "combine", "combinationMode": "multiplex"},
			in1: nodetest.Items(m{"a": 1.0}, m{"a": 2.0}), in2: nodetest.Items(m{"b": 1.0}, m{"b": 2.0}),
			want: []m{{"a": 1.0, "b": 1.0}, {"a": 1.0, "b": 2.0}, {"a": 2.0, "b": 1.0}, {"a": 2.0, "b": 2.0}}},
		{name: "deep merge", version: 2, params: m{"mode": "combine", "combinationMode": "multiplex"},
			in1: nodetest.Items(m{"o": m{"x": 1.0, "l": []any{1.0, 2.0}}}), in2: nodetest.Items(m{"o": m{"y": 2.0, "l": []any{9.0}}}),
			want: []m{{"o": m{"x": 1.0, "y": 2.0, "l": []any{9.0, 2.0}}}}},
		{name: "shallow merge", version: 2, params: m{"mode": "combine", "combinationMode": "multiplex",
			"options": m{"clashHandling": m{"values": m{"resolveClash": "preferInput2", "mergeMode": "shallowMerge"}}}},
			in1: nodetest.Items(m{"o": m{"x": 1.0}}), in2: nodetest.Items(m{"o": m{"y": 2.0}}), want: []m{{"o": m{"y": 2.0}}}},
		{name: "choose branch input 1", version: 2, params: m{"mode": "chooseBranch"}, in1: in1, in2: in2, want: []m{in1[0].JSON.ToMap(), in1[1].JSON.ToMap()}},
		{name: "choose branch input 2", version: 2, params: m{"mode": "chooseBranch", "output": "input2"}, in1: in1, in2: in2[:1], want: []m{in2[0].JSON.ToMap()}},
		{name: "choose branch empty", version: 2, params: m{"mode": "chooseBranch", "output": "empty"}, in1: in1, in2: in2, want: []m{{}}},
	})
}

func TestMergeV2PairsItems(t *testing.T) {
	t.Parallel()
	out, err := nodetest.Run(t, merge.TypeV2(), nodetest.Node{Version: 2, Parameters: m{"mode": "combine", "combinationMode": "multiplex"}},
		nodetest.Items(m{"a": 1.0}), nodetest.Items(m{"b": 1.0}))
	require.NoError(t, err)
	require.Equal(t, workflow.PairedItems{{Item: 0}, {Item: 0, Input: 1}}, *out[0][0].PairedItem)
}
