package expr

import (
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func errNoNode(name string) error {
	return newDataError("The node ‘"+name+"’ doesn't exist, but it's used in an expression here.",
		"Referenced node doesn't exist")
}

func errUnexecuted(name string) error {
	return newDataError("An expression references the node ‘"+name+"’, but it hasn’t been executed yet. "+
		"Either change the expression, or re-wire your workflow to make sure that node executes first.",
		"Referenced node is unexecuted")
}

// nodeExists reports whether the workflow has a node called name; without Context.Nodes
// every name may exist.
func (s *scope) nodeExists(name string) bool {
	if s.c.Nodes == nil {
		return true
	}
	_, ok := s.c.Nodes[name]
	return ok || name == s.c.NodeName
}

// nodeOutput returns the items of one output of one run of a node, and the output and run
// it resolved. output -1 means the output through which the current node is connected to
// the node; run -1 means the last run.
func (s *scope) nodeOutput(name string, output, run int) ([]workflow.Item, int, int, error) {
	c := s.c
	runs, ok := c.RunData[name]
	if !ok {
		if !s.nodeExists(name) {
			return nil, 0, 0, errNoNode(name)
		}
		return nil, 0, 0, errUnexecuted(name)
	}
	if run < 0 {
		run = len(runs) - 1
	}
	if run >= len(runs) {
		return nil, 0, 0, newDataError("", "Run %d of node %q not found", run, name)
	}
	td := runs[run]
	if td.Data == nil || len(td.Data.Main) == 0 {
		return nil, 0, 0, newDataError("", `No data found from "main" input.`)
	}
	if output < 0 {
		output = 0
		if c.ParentOutput != nil {
			o, ok := c.ParentOutput(name)
			if !ok {
				return nil, 0, 0, newDataError("", "The node %q is not connected with node %q so no data can get returned from it.", c.NodeName, name)
			}
			output = o
		}
	}
	if output >= len(td.Data.Main) {
		return nil, 0, 0, newDataError("", "Node %q has no branch with index %d.", name, output)
	}
	return td.Data.Main[output], output, run, nil
}

// nodeParameters returns a node's parameters for $node[name].parameter and $(name).params.
func (s *scope) nodeParameters(name string) map[string]any {
	if name == s.c.NodeName && s.c.NodeParameters != nil {
		return s.c.NodeParameters
	}
	return s.c.Nodes[name].Parameters
}

// nodeMap is $node: $node["Name"] (or $node.Name) gives that node's data.
type nodeMap struct {
	v *vm
	s *scope
}

// probeKeys are property names that JavaScript itself and conversions look up on any
// object; they are not node names and must not raise "doesn't exist".
var probeKeys = []string{"toJSON", "toString", "valueOf", "constructor", "then"}

func (n *nodeMap) Get(name string) goja.Value {
	if !n.s.nodeExists(name) {
		if slices.Contains(probeKeys, name) {
			return nil
		}
		n.v.throw(errNoNode(name))
	}
	return n.v.rt.NewDynamicObject(&nodeProxy{v: n.v, s: n.s, name: name})
}
func (n *nodeMap) Set(string, goja.Value) bool { return false }
func (n *nodeMap) Has(name string) bool        { return n.s.nodeExists(name) }
func (n *nodeMap) Delete(string) bool          { return false }
func (n *nodeMap) Keys() []string {
	keys := make([]string, 0, len(n.s.c.RunData))
	for k := range n.s.c.RunData {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// nodeProxy is $node["Name"]: json, binary, data, context, parameter and runIndex.
type nodeProxy struct {
	v    *vm
	s    *scope
	name string
}

var nodeProxyKeys = []string{"binary", "context", "data", "json", "parameter", "runIndex"}

// items returns the output of the node that the current node reads, checking that the
// scope's item is in it.
func (n *nodeProxy) items() *itemList {
	l := n.s.output(n.v, n.name, -1, n.s.runIndex)
	n.s.checkItem(n.v, len(l.base))
	return l
}

func (n *nodeProxy) Get(key string) goja.Value {
	v, s := n.v, n.s
	switch key {
	case "json", "data":
		return n.items().field(s.itemIndex, "json")
	case "binary":
		return v.toJS(binaryToMap(n.items().base[s.itemIndex].Binary, false))
	case "context":
		return v.toJS(s.nodeContext(n.name))
	case "parameter":
		return v.rt.NewDynamicObject(&paramObject{v: v, s: s, params: s.nodeParameters(n.name)})
	case "runIndex":
		return v.rt.ToValue(len(s.c.RunData[n.name]) - 1)
	}
	return nil
}
func (n *nodeProxy) Set(string, goja.Value) bool { return false }
func (n *nodeProxy) Has(key string) bool         { return slices.Contains(nodeProxyKeys, key) }
func (n *nodeProxy) Delete(string) bool          { return false }
func (n *nodeProxy) Keys() []string              { return nodeProxyKeys }

func orUndefined(x goja.Value) goja.Value {
	if x == nil {
		return goja.Undefined()
	}
	return x
}

// nodeContext is a node's context data; a copy, so expressions cannot change it.
func (s *scope) nodeContext(name string) map[string]any {
	m := workflow.CopyJSON(s.c.NodeContext[name])
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// inputObject is $input: all(), first(), last(), item, params and context of the input.
type inputObject struct {
	v *vm
	s *scope
}

var inputKeys = []string{"all", "context", "first", "item", "last", "params"}

func (in *inputObject) Get(key string) goja.Value {
	v, s := in.v, in.s
	noArgs := func(name string, call goja.FunctionCall) {
		if len(call.Arguments) > 0 {
			v.throwFatal(newDataError("", "$input.%s() should have no arguments", name))
		}
	}
	switch key {
	case "all":
		return v.rt.ToValue(func(goja.FunctionCall) goja.Value { return s.input(v).obj })
	case "first":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			noArgs("first", call)
			return orUndefined(s.input(v).Get(0))
		})
	case "last":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			noArgs("last", call)
			l := s.input(v)
			return orUndefined(l.Get(l.Len() - 1))
		})
	case "item":
		return orUndefined(s.input(v).Get(s.itemIndex))
	case "params", "context":
		if len(s.c.Source) == 0 || s.c.Source[0] == nil {
			v.throwFatal(newDataError("Apologies, this is an internal error. See details for more information", "Can’t get data for expression"))
		}
		prev := s.c.Source[0].PreviousNode
		if key == "context" {
			return v.toJS(s.nodeContext(prev))
		}
		return v.rt.NewDynamicObject(&paramObject{v: v, s: s, params: s.nodeParameters(prev), raw: true})
	}
	return nil
}
func (in *inputObject) Set(string, goja.Value) bool { return false }
func (in *inputObject) Has(key string) bool         { return slices.Contains(inputKeys, key) }
func (in *inputObject) Delete(string) bool          { return false }
func (in *inputObject) Keys() []string              { return inputKeys }

// selectFunc is $("Name"): all(), first(), last(), item, itemMatching(i), pairedItem(i?),
// params, context and isExecuted of another node.
func (s *scope) selectFunc(v *vm) func(goja.FunctionCall) goja.Value {
	return func(call goja.FunctionCall) goja.Value {
		name := call.Argument(0)
		if goja.IsUndefined(name) || goja.IsNull(name) || name.String() == "" {
			v.throwFatal(newDataError("", "When calling $(), please specify a node"))
		}
		n := name.String()
		if !s.nodeExists(n) {
			v.throwFatal(errNoNode(n))
		}
		return v.rt.NewDynamicObject(&nodeSelector{v: v, s: s, name: n})
	}
}

type nodeSelector struct {
	v    *vm
	s    *scope
	name string
}

var selectorKeys = []string{"all", "context", "first", "isExecuted", "item", "itemMatching", "last", "pairedItem", "params"}

func (n *nodeSelector) output(call goja.FunctionCall) *itemList {
	return n.s.output(n.v, n.name, intArg(call, 0, 0), intArg(call, 1, -1))
}

func (n *nodeSelector) paired(index int) goja.Value {
	at, err := n.s.pairedItem(n.name, index)
	if err != nil {
		n.v.throwFatal(err)
	}
	return n.s.output(n.v, n.name, at.src.PreviousNodeOutput, at.src.PreviousNodeRun).Get(at.index)
}

func (n *nodeSelector) Get(key string) goja.Value {
	v, s := n.v, n.s
	switch key {
	case "all":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value { return n.output(call).obj })
	case "first":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			return orUndefined(n.output(call).Get(0))
		})
	case "last":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			l := n.output(call)
			return orUndefined(l.Get(l.Len() - 1))
		})
	case "item":
		return n.paired(s.itemIndex)
	case "itemMatching", "pairedItem":
		return v.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			i := call.Argument(0)
			if goja.IsUndefined(i) {
				if key == "itemMatching" {
					v.throwFatal(newDataError("", "Missing item index for .itemMatching()"))
				}
				return n.paired(s.itemIndex)
			}
			return n.paired(int(i.ToInteger()))
		})
	case "params":
		return v.rt.NewDynamicObject(&paramObject{v: v, s: s, params: s.nodeParameters(n.name), raw: true})
	case "context":
		return v.toJS(s.nodeContext(n.name))
	case "isExecuted":
		_, ok := s.c.RunData[n.name]
		return v.rt.ToValue(ok)
	}
	return nil
}
func (n *nodeSelector) Set(string, goja.Value) bool { return false }
func (n *nodeSelector) Has(key string) bool         { return slices.Contains(selectorKeys, key) }
func (n *nodeSelector) Delete(string) bool          { return false }
func (n *nodeSelector) Keys() []string              { return selectorKeys }

// paramObject shows node parameters. For $parameter and $node[name].parameter a value that is
// itself an expression is evaluated (for the same item), and a resource locator gives its
// value, as in n8n; params of $(name) and $input are shown raw.
type paramObject struct {
	v      *vm
	s      *scope
	params map[string]any
	raw    bool
}

func (p *paramObject) Get(key string) goja.Value {
	val, ok := p.params[key]
	if !ok {
		return nil
	}
	if p.raw {
		return p.v.toJS(workflow.DeepCopy(val))
	}
	if rl, ok := val.(map[string]any); ok {
		if _, isRL := rl["__rl"]; isRL {
			val = rl["value"]
		}
	}
	if str, ok := val.(string); ok && strings.HasPrefix(str, "=") {
		return p.v.evalNested(str, p.s)
	}
	return p.v.toJS(workflow.DeepCopy(val))
}
func (p *paramObject) Set(string, goja.Value) bool { return false }
func (p *paramObject) Has(key string) bool {
	_, ok := p.params[key]
	return ok
}
func (p *paramObject) Delete(string) bool { return false }
func (p *paramObject) Keys() []string {
	keys := make([]string, 0, len(p.params))
	for k := range p.params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
