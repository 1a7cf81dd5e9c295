package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// BenchmarkLinear100 measures per-node overhead: Start and 99 No Operation nodes in a line, one
// item. ns/op divided by 100 is the cost of one node run.
func BenchmarkLinear100(b *testing.B) { benchmarkLinear100(b, "") }

// BenchmarkLinear100V1 is BenchmarkLinear100 in the v1 execution order.
func BenchmarkLinear100V1(b *testing.B) { benchmarkLinear100(b, workflow.ExecutionOrderV1) }

// withOrder sets a workflow's executionOrder ("" leaves it unset: v0).
func withOrder(w *workflow.Workflow, order string) *workflow.Workflow {
	if order != "" {
		w.Settings = workflow.Settings{"executionOrder": order}
	}
	return w
}

func benchmarkLinear100(b *testing.B, order string) {
	var nodes []string
	conns := []conn{}
	nodes = append(nodes, `{"name": "N0", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}}`)
	for i := 1; i < 100; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"name": "N%d", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}`, i))
		conns = append(conns, conn{fmt.Sprintf("N%d", i-1), 0, fmt.Sprintf("N%d", i), 0})
	}
	w := withOrder(wf(b, "["+strings.Join(nodes, ",")+"]", conns...), order)
	e := newEngine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.Run(context.Background(), engine.Request{Workflow: w})
		if err != nil || !res.Finished {
			b.Fatalf("run failed: %v", err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/100, "µs/node")
}

// BenchmarkSetIfChain10k runs Set → IF → Code over 10,000 items, with an expression in each of
// Set and IF and the Code node running once for each item (its most expensive mode).
func BenchmarkSetIfChain10k(b *testing.B) {
	benchmarkChain(b, "", "runOnceForEachItem", "return {...$json, triple: $json.i * 3}")
}

// BenchmarkSetIfChain10kV1 is BenchmarkSetIfChain10k in the v1 execution order.
func BenchmarkSetIfChain10kV1(b *testing.B) {
	benchmarkChain(b, workflow.ExecutionOrderV1, "runOnceForEachItem", "return {...$json, triple: $json.i * 3}")
}

// BenchmarkSetIfChain10kAllItems is the same chain with the Code node running once for all items.
func BenchmarkSetIfChain10kAllItems(b *testing.B) {
	benchmarkChain(b, "", "runOnceForAllItems", "return $input.all().map(it => ({...it.json, triple: it.json.i * 3}))")
}

func benchmarkChain(b *testing.B, order, mode, js string) {
	code, err := json.Marshal(map[string]any{"mode": mode, "jsCode": js})
	if err != nil {
		b.Fatal(err)
	}
	nodes := `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 2, "parameters": {"values": {"number": [{"name": "double", "value": "={{ $json.i * 2 }}"}]}}},
	 {"name": "IF", "type": "n8n-nodes-base.if", "typeVersion": 1, "parameters": {"conditions": {"number": [{"value1": "={{ $json.double }}", "operation": "larger", "value2": 10000}]}}},
	 {"name": "Next", "type": "n8n-nodes-base.code", "typeVersion": 1, "parameters": ` + string(code) + `}]`
	w := withOrder(wf(b, nodes, conn{"Start", 0, "Set", 0}, conn{"Set", 0, "IF", 0}, conn{"IF", 0, "Next", 0}), order)
	input := make([]workflow.Item, 10000)
	for i := range input {
		input[i] = workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"i": float64(i)})}
	}
	e := newEngine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.Run(context.Background(), engine.Request{Workflow: w, Input: input})
		if err != nil || !res.Finished {
			b.Fatalf("run failed: %v %+v", err, res.State.ResultData.Error)
		}
		out := res.State.ResultData.RunData["Next"][0].Data.Main[0]
		if len(out) != 4999 || out[0].JSON.Get("triple") != int64(15003) {
			b.Fatalf("Next got %d items, first %v", len(out), out[0].JSON)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkChain10k runs Start and 9,999 No Operation nodes in a line: the cost of a long
// workflow must grow with its length, not with its square.
func BenchmarkChain10k(b *testing.B) {
	const n = 10000
	var nodes []string
	conns := []conn{}
	nodes = append(nodes, `{"name": "N0", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}}`)
	for i := 1; i < n; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"name": "N%d", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}`, i))
		conns = append(conns, conn{fmt.Sprintf("N%d", i-1), 0, fmt.Sprintf("N%d", i), 0})
	}
	w := wf(b, "["+strings.Join(nodes, ",")+"]", conns...)
	e := newEngine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := e.Run(context.Background(), engine.Request{Workflow: w})
		if err != nil || !res.Finished || len(res.State.NodeExecutionOrder) != n {
			b.Fatalf("run failed: %v", err)
		}
	}
}

// BenchmarkShortRun is the webhook benchmark's shape (Start → Set → IF → Set, one item): a
// short run, where setting a run up weighs most. BenchmarkShortRunParamCache runs it with the
// node parameters resolved once (ParamCache), as a worker's cached snapshots are.
func BenchmarkShortRun(b *testing.B)           { benchmarkShortRun(b, false) }
func BenchmarkShortRunParamCache(b *testing.B) { benchmarkShortRun(b, true) }

func benchmarkShortRun(b *testing.B, cached bool) {
	w := wf(b, `[
	 {"name": "Start", "type": "n8n-nodes-base.start", "typeVersion": 1, "parameters": {}},
	 {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"number": [{"name": "n", "value": "={{ 7 }}"}]}}},
	 {"name": "IF", "type": "n8n-nodes-base.if", "typeVersion": 1, "parameters": {"conditions": {"number": [{"value1": "={{ $json.n }}", "operation": "larger", "value2": 0}]}}},
	 {"name": "Set1", "type": "n8n-nodes-base.set", "typeVersion": 1, "parameters": {"values": {"string": [{"name": "s", "value": "={{ JSON.stringify({n: $json.n}) }}"}]}}}]`,
		conn{"Start", 0, "Set", 0}, conn{"Set", 0, "IF", 0}, conn{"IF", 0, "Set1", 0})
	r, _ := registry()
	opts := engine.Options{Registry: r, Evaluator: evaluator(b)}
	if cached {
		opts.Params = engine.NewParamCache(w)
	}
	e, err := engine.New(opts)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := e.Run(context.Background(), engine.Request{Workflow: w})
		if err != nil || !res.Finished {
			b.Fatalf("run failed: %v", err)
		}
	}
}
