package engine

import "github.com/flowmill/flowmill/pkg/workflow"

// usesPartialRun reports whether a request is a partial run. As n8n's WorkflowRunner, start
// nodes without any earlier run data make a full run (up to the destination node, if any): a
// start node whose parents never ran would get no input and nothing would happen.
func usesPartialRun(req Request) bool {
	return len(req.StartNodes) > 0 && len(req.RunData) > 0
}

// partialStarts returns the start nodes a partial run really needs. A requested start node
// stays when every enabled direct parent has run data to feed it; otherwise the nearest
// ancestors without run data start in its place (spec 001 §4 start-node rules), so the parents
// that lack data run first. Unknown names are kept for the caller to reject.
func (g *graph) partialStarts(starts []string, runData workflow.RunData) []string {
	var out []string
	added := map[string]bool{}
	visited := map[string]bool{}
	var lift func(name string)
	lift = func(name string) {
		if visited[name] {
			return
		}
		visited[name] = true
		var missing []string
		if main, ok := g.inputs(name); ok && g.nodes[name] != nil {
			for _, conns := range main {
				for _, c := range conns {
					if p := g.nodes[c.Node]; p == nil || p.Disabled || len(runData[c.Node]) > 0 {
						continue
					}
					missing = append(missing, c.Node)
				}
			}
		}
		if len(missing) == 0 {
			if !added[name] {
				added[name] = true
				out = append(out, name)
			}
			return
		}
		for _, p := range missing {
			lift(p)
		}
	}
	for _, s := range starts {
		lift(s)
	}
	return out
}
