// Package nodetest runs one node type outside the engine for table tests: parameters get their
// defaults resolved from the description and expressions are evaluated, as in a real run.
package nodetest

import (
	"context"
	"sync"
	"testing"

	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/filefence"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	evalOnce sync.Once
	eval     *expr.Evaluator
	evalErr  error
)

// Evaluator returns an expression evaluator shared by the tests of a package.
func Evaluator(t testing.TB) *expr.Evaluator {
	t.Helper()
	evalOnce.Do(func() { eval, evalErr = expr.New(expr.Options{}) })
	if evalErr != nil {
		t.Fatalf("expression evaluator: %v", evalErr)
	}
	return eval
}

// Node is the node under test; Parameters are as stored (defaults may be missing).
type Node struct {
	Version        float64
	Parameters     map[string]any
	ContinueOnFail bool
	// Credentials is the node's credential selection per type ({id, name}); CredentialData
	// answers the lookups (nil: none available).
	Credentials    map[string]any
	CredentialData nodes.CredentialsFunc
	// Mode defaults to manual; Context to context.Background().
	Mode    workflow.Mode
	Context context.Context
	// NodeContext is the node's context data; runs sharing the map see each other's changes.
	NodeContext map[string]any
	// StaticData and GlobalStaticData are the node's and the workflow's static data; runs
	// sharing a map see each other's changes, as runs of a saved workflow do.
	StaticData, GlobalStaticData map[string]any
	// Flow gives the node a clock, sleeping, waiting and sub-workflows.
	Flow nodes.FlowConfig
	// Host is what the node may reach: file nodes' tests pass a file fence over a temporary
	// folder (Host.Files); the zero value refuses every path and has the built-in egress
	// refusals.
	Host nodes.Host
	// ID is the node's id (n8n's node.id; empty: none).
	ID string
	// ExecutionID and RunIndex place the run in an execution (empty: none), as the engine does.
	ExecutionID string
	RunIndex    int
}

// Run executes typ once on the inputs and returns its outputs.
func Run(t testing.TB, typ nodes.Type, n Node, inputs ...[]workflow.Item) ([][]workflow.Item, error) {
	t.Helper()
	ctx, ex := execution(t, typ, n, inputs)
	return typ.Node.Execute(ctx, ex)
}

// Listen runs typ's listener (nodes.Type.Listen) until it returns, as pkg/listener does (mode
// trigger unless n.Mode says otherwise); emit receives the items of each event.
func Listen(t testing.TB, typ nodes.Type, n Node, emit func([]workflow.Item) error) error {
	t.Helper()
	if typ.Listen == nil {
		t.Fatalf("%s has no listener", typ.Description.Name)
	}
	if n.Mode == "" {
		n.Mode = workflow.ModeTrigger
	}
	ctx, ex := execution(t, typ, n, nil)
	return typ.Listen(ctx, ex, func(items []workflow.Item, _ nodes.Await) (nodes.Run, error) { return nil, emit(items) })
}

// execution builds the node's run context as the engine does.
func execution(t testing.TB, typ nodes.Type, n Node, inputs [][]workflow.Item) (context.Context, *nodes.Execution) {
	t.Helper()
	version := n.Version
	if version == 0 {
		version = typ.Description.Version.Latest()
	}
	params, err := workflow.ResolveParameters(typ.Description.Properties, n.Parameters, version)
	if err != nil {
		t.Fatalf("resolve parameters: %v", err)
	}
	node := &workflow.Node{
		ID: n.ID, Name: "Node", Type: typ.Description.Name, TypeVersion: version,
		Parameters: params, ContinueOnFail: n.ContinueOnFail, Credentials: n.Credentials,
	}
	mode := n.Mode
	if mode == "" {
		mode = workflow.ModeManual
	}
	ctx := n.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ex := nodes.NewExecution(nodes.ExecutionConfig{
		Node:             node,
		Type:             &typ,
		Inputs:           withPairedItems(inputs),
		Mode:             mode,
		Evaluator:        Evaluator(t),
		Credentials:      n.CredentialData,
		Context:          n.NodeContext,
		StaticData:       n.StaticData,
		Flow:             n.Flow,
		Host:             n.Host,
		RunIndex:         n.RunIndex,
		GlobalStaticData: n.GlobalStaticData,
		Expr:             expr.Context{Execution: expr.ExecutionInfo{ID: n.ExecutionID, Mode: mode}},
	})
	return ctx, ex
}

// withPairedItems links input items to their positions, as the engine does before a run.
func withPairedItems(inputs [][]workflow.Item) [][]workflow.Item {
	out := make([][]workflow.Item, len(inputs))
	for in, items := range inputs {
		if items == nil {
			continue
		}
		out[in] = make([]workflow.Item, len(items))
		for i, it := range items {
			it.PairedItem = &workflow.PairedItems{{Item: i, Input: in}}
			out[in][i] = it
		}
	}
	return out
}

// Items builds items from JSON objects (keys sorted, as a map has no order; use
// workflow.ObjectOf for an item whose key order matters).
func Items(jsons ...map[string]any) []workflow.Item {
	out := make([]workflow.Item, len(jsons))
	for i, j := range jsons {
		out[i] = workflow.Item{JSON: workflow.ObjectFromMap(j)}
	}
	return out
}

// JSONs returns the JSON objects of items as plain maps, order aside (nil for a nil output).
func JSONs(items []workflow.Item) []map[string]any {
	if items == nil {
		return nil
	}
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = it.JSON.ToMap()
	}
	return out
}

// Keys returns the keys of each item's JSON, in order.
func Keys(items []workflow.Item) [][]string {
	out := make([][]string, len(items))
	for i, it := range items {
		out[i] = it.JSON.Keys()
	}
	return out
}

// Outputs returns the JSON objects per output.
func Outputs(outs [][]workflow.Item) [][]map[string]any {
	res := make([][]map[string]any, len(outs))
	for i, o := range outs {
		res[i] = JSONs(o)
	}
	return res
}

// FilesHost is a Host whose file fence lets file nodes use dir and nothing outside it.
func FilesHost(t testing.TB, dir string) nodes.Host {
	t.Helper()
	f, err := filefence.New(filefence.Options{Root: dir})
	if err != nil {
		t.Fatalf("file fence: %v", err)
	}
	return nodes.Host{Files: f}
}

// RunOne runs a node of one input and one output on items made of jsons and returns the
// output's jsons: the short form for nodes that only transform items.
func RunOne(t testing.TB, typ nodes.Type, version float64, params map[string]any, jsons ...map[string]any) ([]map[string]any, error) {
	t.Helper()
	out, err := Run(t, typ, Node{Version: version, Parameters: params}, Items(jsons...))
	if err != nil {
		return nil, err
	}
	if len(out) != 1 {
		t.Fatalf("%d outputs, want 1", len(out))
	}
	return JSONs(out[0]), nil
}
