package nodes

import (
	"maps"
	"slices"
)

// Without returns a registry holding r's types except those named (every version of each), as
// n8n's NODES_EXCLUDE removes node types such as n8n-nodes-base.executeCommand from an instance.
// Unknown names are ignored; r is not changed.
func (r *Registry) Without(names ...string) *Registry {
	out := NewRegistry()
	for _, name := range r.order {
		if slices.Contains(names, name) {
			continue
		}
		out.order = append(out.order, name)
		out.byName[name] = r.byName[name]
	}
	out.disabled = maps.Clone(r.disabled)
	return out
}
