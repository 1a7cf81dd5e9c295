// Package start is the Start node of older workflows: the manual run begins here and its input
// (one empty item, or the items given to the run) passes on.
package start

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, nodes.PassThrough)
	t.EffectFree = true
	t.StartPriority = 3
	return t
}
