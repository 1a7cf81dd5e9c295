// Package stickynote is the Sticky Note: a canvas annotation with no inputs or outputs. If it is
// ever run it passes its input on, as n8n's does.
package stickynote

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
