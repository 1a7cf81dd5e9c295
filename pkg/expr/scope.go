package expr

import (
	"slices"
	"strconv"

	"github.com/dop251/goja"
	"github.com/jmespath/go-jmespath"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// scope is what the data globals read: a Context seen from one item. $item(i) makes a new
// scope for item i; the globals of the evaluation in progress read vm.scope.
type scope struct {
	c         *Context
	itemIndex int
	// runIndex is the run of other nodes that $node[name] reads; -1 is the last run.
	// $item(i, run) sets it.
	runIndex int
	// copyData makes the data globals hand out copies of the input and run data, as n8n does
	// for its scripting nodes, so a script's changes never reach the execution's data.
	copyData bool
	// lists holds the item lists built so far, shared with the scopes $item() derives, so
	// $input.all() is the same array every time and a script's changes to it last.
	lists *itemLists
}

type itemLists struct {
	input   *itemList
	outputs map[outputKey]*itemList
}

// outputKey names one output of one run of a node.
type outputKey struct {
	node        string
	output, run int
}

func newScope(c *Context, itemIndex int, copyData bool) *scope {
	return &scope{c: c, itemIndex: itemIndex, runIndex: -1, copyData: copyData, lists: &itemLists{}}
}

// derive returns the scope of another item (and run) sharing s's lists.
func (s *scope) derive(itemIndex, runIndex int) *scope {
	d := *s
	d.itemIndex, d.runIndex = itemIndex, runIndex
	return &d
}

// input returns the current node's input items as one array; in script mode each element is
// a copy of its item, made when first read.
func (s *scope) input(v *vm) *itemList {
	if s.lists.input == nil {
		if s.copyData {
			s.lists.input = v.newCopyingItemList(s.c.Items)
		} else {
			s.lists.input = v.newItemList(s.c.Items)
		}
	}
	return s.lists.input
}

// output returns the items of one output of one run of a node as one array (see
// nodeOutput for output and run), copied element by element in script mode.
func (s *scope) output(v *vm, node string, output, run int) *itemList {
	items, output, run, err := s.nodeOutput(node, output, run)
	if err != nil {
		v.throw(err)
	}
	key := outputKey{node, output, run}
	if l, ok := s.lists.outputs[key]; ok {
		return l
	}
	l := v.newItemList(items)
	l.copy = s.copyData
	if s.lists.outputs == nil {
		s.lists.outputs = make(map[outputKey]*itemList)
	}
	s.lists.outputs[key] = l
	return l
}

// globalNames are the data globals installed on every runtime; each reads the current scope
// when it is accessed, so an evaluation only pays for the globals it uses.
var globalNames = []string{
	"$json", "$data", "$binary", "$node", "$items", "$item", "$input", "$", "$parameter",
	"$position", "$itemIndex", "$thisItem", "$thisItemIndex", "$runIndex", "$thisRunIndex",
	"$mode", "$workflow", "$execution", "$executionId", "$resumeWebhookUrl", "$env", "$now",
	"$today", "$jmespath", "$jmesPath", "$evaluateExpression", "$prevNode",
}

// installGlobals defines the data globals as accessors on the global object.
func (v *vm) installGlobals() {
	g := v.rt.GlobalObject()
	for _, name := range slices.Concat(globalNames, AdditionalNames) {
		getter := v.rt.ToValue(func(goja.FunctionCall) goja.Value {
			if v.scope == nil {
				return goja.Undefined()
			}
			return v.scope.get(v, name)
		})
		if err := g.DefineAccessorProperty(name, getter, nil, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			panic(err)
		}
	}
	v.objectProto = v.rt.Get("Object").ToObject(v.rt).Get("prototype").ToObject(v.rt)
}

// throw raises err inside JavaScript, where code can catch it; at the top it becomes *Error.
func (v *vm) throw(err error) {
	panic(v.rt.NewGoError(err))
}

// throwFatal is throw for errors that fail the evaluation even with Options.LenientErrors.
func (v *vm) throwFatal(err error) {
	if de, ok := err.(*dataError); ok {
		de.fatal = true
	}
	v.throw(err)
}

// get returns the value of one data global.
func (s *scope) get(v *vm, name string) goja.Value {
	switch name {
	case "$now":
		return v.call(v.luxonNow)
	case "$today":
		return v.call(v.luxonToday)
	case "$jmespath", "$jmesPath":
		return v.rt.ToValue(v.jmespath)
	}
	c := s.c
	if c == nil {
		return goja.Undefined()
	}
	switch name {
	case "$json", "$data":
		s.checkItem(v, len(c.Items))
		if !s.copyData {
			// The common case, kept cheap: the item's map itself.
			return v.toJS(nonNil(c.Items[s.itemIndex].JSON))
		}
		return s.input(v).field(s.itemIndex, "json")
	case "$binary":
		s.checkItem(v, len(c.Items))
		return v.toJS(binaryToMap(c.Items[s.itemIndex].Binary, false))
	case "$thisItem":
		s.checkItem(v, len(c.Items))
		return s.input(v).Get(s.itemIndex)
	case "$node":
		return v.rt.NewDynamicObject(&nodeMap{v: v, s: s})
	case "$items":
		return v.rt.ToValue(s.itemsFunc(v))
	case "$item":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			sub := s.derive(int(call.Argument(0).ToInteger()), intArg(call, 1, -1))
			return v.rt.NewDynamicObject(&proxyObject{v: v, s: sub})
		})
	case "$input":
		return v.rt.NewDynamicObject(&inputObject{v: v, s: s})
	case "$":
		return v.rt.ToValue(s.selectFunc(v))
	case "$parameter":
		return v.rt.NewDynamicObject(&paramObject{v: v, s: s, params: c.NodeParameters})
	case "$position", "$itemIndex", "$thisItemIndex":
		return v.rt.ToValue(s.itemIndex)
	case "$runIndex", "$thisRunIndex":
		return v.rt.ToValue(c.RunIndex)
	case "$mode":
		return v.rt.ToValue(string(c.Execution.Mode))
	case "$executionId":
		return v.rt.ToValue(c.Execution.ID)
	case "$resumeWebhookUrl":
		return v.rt.ToValue(c.Execution.ResumeURL)
	case "$workflow":
		return v.toJS(map[string]any{"id": c.Workflow.ID, "name": c.Workflow.Name, "active": c.Workflow.Active})
	case "$execution":
		mode := "production"
		if c.Execution.Mode == workflow.ModeManual {
			mode = "test"
		}
		return v.toJS(map[string]any{"id": c.Execution.ID, "mode": mode, "resumeUrl": c.Execution.ResumeURL})
	case "$env":
		return v.rt.NewDynamicObject(&envObject{v: v, c: c})
	case "$evaluateExpression":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			sub := s.derive(intArg(call, 1, s.itemIndex), s.runIndex)
			return v.evalNested("="+call.Argument(0).String(), sub)
		})
	case "$prevNode":
		m := map[string]any{}
		if len(c.Source) > 0 && c.Source[0] != nil {
			m["name"] = c.Source[0].PreviousNode
			m["outputIndex"] = int64(c.Source[0].PreviousNodeOutput)
			m["runIndex"] = int64(c.Source[0].PreviousNodeRun)
		}
		return v.toJS(m)
	}
	if x, ok := c.Additional[name]; ok {
		return v.toJS(x)
	}
	return goja.Undefined()
}

// call runs a JavaScript function from a Go callback, rethrowing its exception.
func (v *vm) call(f goja.Callable, args ...goja.Value) goja.Value {
	r, err := f(goja.Undefined(), args...)
	if err != nil {
		panic(err)
	}
	return r
}

// checkItem throws as n8n does when the scope's item is not among n items.
func (s *scope) checkItem(v *vm, n int) {
	if n == 0 {
		v.throw(newDataError("The node has no input data at this point.", "No execution data available"))
	}
	if s.itemIndex < 0 || s.itemIndex >= n {
		v.throw(newDataError("", "No data found for item-index: %q", strconv.Itoa(s.itemIndex)))
	}
}

func nonNil(o *workflow.Object) *workflow.Object {
	if o == nil {
		return workflow.NewObject(0)
	}
	return o
}

// itemsFunc is $items(nodeName?, outputIndex = 0, runIndex = last): a node's output items,
// or the current node's input items when no node is named.
func (s *scope) itemsFunc(v *vm) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		name := call.Argument(0)
		if goja.IsUndefined(name) {
			return s.input(v).obj
		}
		return s.output(v, name.String(), intArg(call, 1, 0), intArg(call, 2, -1)).obj
	}
}

// intArg reads an optional integer argument; undefined and null give def.
func intArg(call goja.FunctionCall, i, def int) int {
	a := call.Argument(i)
	if goja.IsUndefined(a) || goja.IsNull(a) {
		return def
	}
	return int(a.ToInteger())
}

// proxyObject is what $item(i) returns: the data globals seen from another item.
type proxyObject struct {
	v *vm
	s *scope
}

func (p *proxyObject) Get(key string) goja.Value {
	if !slices.Contains(globalNames, key) {
		return nil
	}
	return p.s.get(p.v, key)
}
func (p *proxyObject) Set(string, goja.Value) bool { return false }
func (p *proxyObject) Has(key string) bool         { return slices.Contains(globalNames, key) }
func (p *proxyObject) Delete(string) bool          { return false }
func (p *proxyObject) Keys() []string              { return nil }

// envObject is $env; reading it fails when the Context blocks environment access.
type envObject struct {
	v *vm
	c *Context
}

func (e *envObject) check() {
	if e.c.EnvBlocked {
		e.v.throwFatal(newDataError("If you need access please contact the administrator to allow environment variables in expressions.", "Environment variable access got disabled"))
	}
}

func (e *envObject) Get(key string) goja.Value {
	e.check()
	if s, ok := e.c.Env[key]; ok {
		return e.v.rt.ToValue(s)
	}
	return nil
}
func (e *envObject) Set(string, goja.Value) bool { return false }
func (e *envObject) Has(key string) bool {
	e.check()
	_, ok := e.c.Env[key]
	return ok
}
func (e *envObject) Delete(string) bool { return false }
func (e *envObject) Keys() []string {
	e.check()
	keys := make([]string, 0, len(e.c.Env))
	for k := range e.c.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// jmespath is $jmespath(object, query).
func (v *vm) jmespath(call goja.FunctionCall) goja.Value {
	data, err := v.export(call.Argument(0))
	if err != nil {
		v.throw(err)
	}
	res, err := jmespath.Search(call.Argument(1).String(), jsonNumbers(data))
	if err != nil {
		v.throw(newDataError("", "%s", err.Error()))
	}
	return v.toJS(res)
}

// jsonNumbers makes every number a float64, the only number type go-jmespath compares.
func jsonNumbers(x any) any {
	switch x := x.(type) {
	case *workflow.Object:
		return jsonNumbers(x.ToMap())
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonNumbers(e)
		}
		return out
	case int64:
		return float64(x)
	case int:
		return float64(x)
	}
	return x
}
