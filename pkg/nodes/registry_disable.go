package nodes

import (
	"fmt"
	"maps"
	"slices"
)

// Disable returns a registry without the types named in remedies (as Without) that remembers
// them: Disabled then answers a *DisabledError for each, so runs and activation say what an
// admin does to turn the type on instead of calling it unknown. remedies maps a type name to
// that remedy, such as "with FLOWMILL_NODES_ENABLE". r is not changed.
func (r *Registry) Disable(remedies map[string]string) *Registry {
	out := r.Without(slices.Collect(maps.Keys(remedies))...)
	if out.disabled == nil {
		out.disabled = map[string]string{}
	}
	maps.Copy(out.disabled, remedies)
	return out
}

// Disabled returns a *DisabledError when this instance left the node type out on purpose, nil
// otherwise (a registered type, or one that is simply unknown).
func (r *Registry) Disabled(name string) error {
	if remedy, ok := r.disabled[name]; ok {
		return &DisabledError{Type: name, Remedy: remedy}
	}
	return nil
}

// DisabledError refuses a node type the instance's settings leave out.
type DisabledError struct {
	// Type is the node type name.
	Type string
	// Remedy says how an admin turns it on, completing "an admin can turn it on …".
	Remedy string
}

func (e *DisabledError) Error() string {
	return fmt.Sprintf("The node type %q is disabled on this instance; an admin can turn it on %s.", e.Type, e.Remedy)
}
