// Package limit is the Limit node (Limit), one of n8n's Transform nodes: it keeps only the first (or last) items up to a maximum number.
// It runs the limit operation of Item Lists 3 on its own parameters (see package itemlists).
package limit

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed limit.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, itemlists.Operation("limit"))
	t.EffectFree = true
	t.IconSVG = iconSVG
	return t
}
