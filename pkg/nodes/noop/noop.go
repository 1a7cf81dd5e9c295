// Package noop is the No Operation node: it passes its input on unchanged.
package noop

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
	return t
}
