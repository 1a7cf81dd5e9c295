package workflow

import "slices"

// ConnectedNodes walks main connections from node, n8n's Workflow.getConnectedNodes: given the
// connections by destination (Connections.ByDestination) it returns the ancestors, given them by
// source the descendants. depth -1 walks the whole graph, depth 1 only direct neighbours, 0
// nothing. The order is n8n's, which execution order depends on.
func ConnectedNodes(conns map[string]NodeConnections, node string, depth int) []string {
	return connectedNodes(conns, node, depth, nil)
}

// IsAncestor reports whether node feeds into destination through any path of main connections.
func (w *Workflow) IsAncestor(node, destination string) bool {
	return slices.Contains(ConnectedNodes(w.Connections.ByDestination(), destination, -1), node)
}

func connectedNodes(conns map[string]NodeConnections, node string, depth int, checkedIncoming []string) []string {
	if depth == 0 {
		return nil
	}
	newDepth := depth
	if depth != -1 {
		newDepth = depth - 1
	}
	nc, ok := conns[node]
	if !ok {
		return nil
	}
	main, ok := nc["main"]
	if !ok {
		return nil
	}
	checked := slices.Clone(checkedIncoming)
	if slices.Contains(checked, node) {
		return nil
	}
	checked = append(checked, node)
	var ret []string
	for _, byIndex := range main {
		for _, c := range byIndex {
			if slices.Contains(checked, c.Node) {
				continue
			}
			ret = slices.Insert(ret, 0, c.Node)
			add := connectedNodes(conns, c.Node, newDepth, checked)
			for i := len(add) - 1; i >= 0; i-- {
				if idx := slices.Index(ret, add[i]); idx != -1 {
					ret = slices.Delete(ret, idx, idx+1)
				}
				ret = slices.Insert(ret, 0, add[i])
			}
		}
	}
	return ret
}
