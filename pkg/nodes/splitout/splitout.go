// Package splitout is the Split Out node (Split Out), one of n8n's Transform nodes: it turns a list (or the values of an object) inside an item into separate items.
// It runs the splitOutItems operation of Item Lists 3 on its own parameters (see package itemlists).
package splitout

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed splitOut.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, itemlists.Operation("splitOutItems"))
	t.EffectFree = true
	t.IconSVG = iconSVG
	return t
}
