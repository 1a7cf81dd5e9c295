package engine_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/core"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	evalOnce sync.Once
	eval     *expr.Evaluator
)

func evaluator(t testing.TB) *expr.Evaluator {
	evalOnce.Do(func() {
		var err error
		eval, err = expr.New(expr.Options{})
		if err != nil {
			panic(err)
		}
	})
	return eval
}

// flaky fails until it has been called failTimes times (per node name) for the test registry.
type flaky struct {
	mu    sync.Mutex
	calls map[string]int
}

func (f *flaky) Execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	times, _ := ex.ParamFloat("failTimes", 0)
	f.mu.Lock()
	f.calls[ex.Node().Name]++
	n := f.calls[ex.Node().Name]
	f.mu.Unlock()
	if n <= int(times) {
		return nil, nodes.Errorf(0, "failure %d", n)
	}
	out := make([]workflow.Item, 0)
	for _, it := range ex.InputData(0) {
		j := it.JSON.Clone()
		j.Set("attempt", float64(n))
		out = append(out, workflow.Item{JSON: j})
	}
	return [][]workflow.Item{out}, nil
}

// blocker waits until its context ends.
func blocker(ctx context.Context, _ *nodes.Execution) ([][]workflow.Item, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// counter keeps a count in the node's static data.
func counter(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	sd := ex.StaticData()
	n, _ := sd["count"].(float64)
	sd["count"] = n + 1
	return [][]workflow.Item{ex.InputData(0)}, nil
}

func testType(name string, node nodes.Node) nodes.Type {
	d := nodes.MustParseDescription([]byte(`{"displayName": "` + name + `", "name": "test.` + name + `", "group": ["transform"],
	  "version": 1, "defaults": {"name": "` + name + `"}, "inputs": ["main"], "outputs": ["main"],
	  "properties": [{"displayName": "Fail Times", "name": "failTimes", "type": "number", "default": 0}]}`))
	return nodes.Type{Description: d, Kind: nodes.KindAction, Node: node}
}

func registry() (*nodes.Registry, *flaky) {
	r := core.Registry()
	f := &flaky{calls: map[string]int{}}
	r.MustRegister(testType("flaky", f))
	r.MustRegister(testType("blocker", nodes.NodeFunc(blocker)))
	r.MustRegister(testType("counter", nodes.NodeFunc(counter)))
	return r, f
}

type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newEngine(t testing.TB, hooks ...engine.Hook) *engine.Engine {
	t.Helper()
	r, _ := registry()
	e, err := engine.New(engine.Options{Registry: r, Evaluator: evaluator(t), Hooks: hooks,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	require.NoError(t, err)
	return e
}

// wf builds a workflow from nodes and (source, output, destination, input) connections.
type conn struct {
	from string
	out  int
	to   string
	in   int
}

func wf(t testing.TB, nodesJSON string, conns ...conn) *workflow.Workflow {
	t.Helper()
	var ns []json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(nodesJSON), &ns))
	c := map[string]map[string][][]map[string]any{}
	var order []string
	for _, x := range conns {
		if c[x.from] == nil {
			c[x.from] = map[string][][]map[string]any{"main": {}}
			order = append(order, x.from)
		}
		main := c[x.from]["main"]
		for len(main) <= x.out {
			main = append(main, []map[string]any{})
		}
		main[x.out] = append(main[x.out], map[string]any{"node": x.to, "type": "main", "index": x.in})
		c[x.from]["main"] = main
	}
	// Keep the order connections were given in, as a stored workflow would.
	connJSON := "{"
	for i, src := range order {
		if i > 0 {
			connJSON += ","
		}
		k, _ := json.Marshal(src)
		v, _ := json.Marshal(c[src])
		connJSON += string(k) + ":" + string(v)
	}
	connJSON += "}"
	doc := `{"name": "test", "nodes": ` + nodesJSON + `, "connections": ` + connJSON + `}`
	w, err := workflow.Parse([]byte(doc))
	require.NoError(t, err)
	return w
}

func run(t testing.TB, e *engine.Engine, req engine.Request) *engine.Result {
	t.Helper()
	res, err := e.Run(context.Background(), req)
	require.NoError(t, err)
	return res
}

func outputs(t testing.TB, res *engine.Result, node string) [][]map[string]any {
	t.Helper()
	var out [][]map[string]any
	for _, r := range res.State.ResultData.RunData[node] {
		out = append(out, output0(r))
	}
	return out
}
