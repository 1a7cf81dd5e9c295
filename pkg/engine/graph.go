package engine

import (
	"slices"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// graph answers n8n's Workflow questions (parents, children, highest nodes) for one run. The
// traversal orders follow n8n's Workflow.getConnectedNodes exactly, as execution order depends
// on them.
type graph struct {
	nodes    map[string]*workflow.Node
	names    []string
	bySource map[string]workflow.NodeConnections
	byDest   map[string]workflow.NodeConnections
	parents  map[string][]string
	highest  map[highestKey][]string
	fed      map[highestKey]bool
}

type highestKey struct {
	node  string
	input int
}

func newGraph(wf *workflow.Workflow) *graph {
	g := &graph{
		nodes:    make(map[string]*workflow.Node, len(wf.Nodes)),
		names:    wf.NodeNames(),
		bySource: map[string]workflow.NodeConnections{},
		byDest:   wf.Connections.ByDestination(),
		parents:  map[string][]string{},
		highest:  map[highestKey][]string{},
		fed:      map[highestKey]bool{},
	}
	for i := range wf.Nodes {
		g.nodes[wf.Nodes[i].Name] = &wf.Nodes[i]
	}
	for _, src := range wf.Connections.Sources() {
		g.bySource[src] = wf.Connections.Get(src)
	}
	return g
}

// inputs returns the incoming main connections of a node by input index, and whether the node
// has any incoming connection record at all.
func (g *graph) inputs(node string) ([][]workflow.Connection, bool) {
	nc, ok := g.byDest[node]
	if !ok {
		return nil, false
	}
	main, ok := nc["main"]
	return main, ok
}

// parentNodes returns every ancestor of a node (n8n's getParentNodes with depth -1).
func (g *graph) parentNodes(node string) []string {
	if p, ok := g.parents[node]; ok {
		return p
	}
	p := workflow.ConnectedNodes(g.byDest, node, -1)
	g.parents[node] = p
	return p
}

// descendants returns every node reachable from a node, in no particular order.
func (g *graph) descendants(node string) []string {
	seen := map[string]bool{node: true}
	queue := []string{node}
	var out []string
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, conns := range g.bySource[n]["main"] {
			for _, c := range conns {
				if !seen[c.Node] {
					seen[c.Node] = true
					out = append(out, c.Node)
					queue = append(queue, c.Node)
				}
			}
		}
	}
	return out
}

// inputFed reports whether an enabled node feeds the given input of a node, directly or through
// disabled nodes. It is the same test as n8n's "getHighestNode(node, input) is not empty", in
// linear time.
func (g *graph) inputFed(node string, input int) bool {
	key := highestKey{node, input}
	if v, ok := g.fed[key]; ok {
		return v
	}
	main, _ := g.inputs(node)
	seen := map[string]bool{node: true}
	var stack []string
	if input < len(main) {
		for _, c := range main[input] {
			stack = append(stack, c.Node)
		}
	}
	fed := false
	for len(stack) > 0 && !fed {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		if p := g.nodes[n]; p != nil && !p.Disabled {
			fed = true
			break
		}
		up, _ := g.inputs(n)
		for _, conns := range up {
			for _, c := range conns {
				stack = append(stack, c.Node)
			}
		}
	}
	g.fed[key] = fed
	return fed
}

// highestNodes returns the top-most enabled ancestors feeding one input of a node (n8n's
// getHighestNode); empty means every node feeding that input is disabled.
func (g *graph) highestNodes(node string, input int) []string {
	key := highestKey{node, input}
	if h, ok := g.highest[key]; ok {
		return h
	}
	var checked []string
	h := g.highestFrom(node, input, &checked)
	g.highest[key] = h
	return h
}

func (g *graph) highestFrom(node string, input int, checked *[]string) []string {
	var current []string
	if n := g.nodes[node]; n != nil && !n.Disabled {
		current = append(current, node)
	}
	main, ok := g.inputs(node)
	if !ok {
		return current
	}
	if slices.Contains(*checked, node) {
		return current
	}
	*checked = append(*checked, node)
	var ret []string
	for ci, conns := range main {
		if input >= 0 && input != ci {
			continue
		}
		for _, c := range conns {
			if slices.Contains(*checked, c.Node) {
				continue
			}
			add := g.highestFrom(c.Node, -1, checked)
			if len(add) == 0 {
				if n := g.nodes[c.Node]; n != nil && !n.Disabled {
					add = []string{c.Node}
				}
			}
			for _, a := range add {
				if !slices.Contains(ret, a) {
					ret = append(ret, a)
				}
			}
		}
	}
	return ret
}

// incomingConnectionIsEmpty reports whether none of the connections delivered items in the run
// with the given index.
func incomingConnectionIsEmpty(runData workflow.RunData, conns []workflow.Connection, runIndex int) bool {
	for _, c := range conns {
		runs := runData[c.Node]
		if runIndex >= len(runs) || runs[runIndex].Data == nil {
			continue
		}
		main := runs[runIndex].Data.Main
		if c.Index < len(main) && len(main[c.Index]) != 0 {
			return false
		}
	}
	return true
}

// parentOutputLookup answers, for the ancestors of a node, the output through which the node
// is reached (n8n's getNodeConnectionIndexes), for expressions such as $node[name].json. Each
// name is looked up once per node run, by the depth-first walk in input order that records the
// first connection seen from each ancestor, stopped as soon as the name is seen: a node run
// whose expressions name its parent costs one step, not a walk of all its ancestors (which made
// a long chain quadratic).
func (g *graph) parentOutputLookup(node string) func(string) (int, bool) {
	memo := map[string]int{}
	return func(name string) (int, bool) {
		if o, ok := memo[name]; ok {
			return o, o >= 0
		}
		o, ok := g.parentOutput(node, name)
		if !ok {
			o = -1
		}
		memo[name] = o
		return o, ok
	}
}

func (g *graph) parentOutput(node, ancestor string) (int, bool) {
	if node == ancestor || g.nodes[ancestor] == nil {
		return 0, false
	}
	checked := map[string]bool{}
	// An explicit stack in the order the recursive walk visits: a node's connections are
	// checked in order, and the walk descends into each before checking the next.
	type frame struct {
		node  string
		input int
		conn  int
	}
	var frames []frame
	enter := func(n string) bool {
		main, ok := g.inputs(n)
		if !ok || checked[n] || len(main) == 0 {
			checked[n] = checked[n] || ok
			return false
		}
		checked[n] = true
		frames = append(frames, frame{node: n})
		return true
	}
	enter(node)
	for len(frames) > 0 {
		f := &frames[len(frames)-1]
		main, _ := g.inputs(f.node)
		if f.input >= len(main) {
			frames = frames[:len(frames)-1]
			continue
		}
		if f.conn >= len(main[f.input]) {
			f.input++
			f.conn = 0
			continue
		}
		c := main[f.input][f.conn]
		f.conn++
		if c.Node == ancestor {
			return c.Index, true
		}
		if !checked[c.Node] {
			enter(c.Node)
		}
	}
	return 0, false
}
