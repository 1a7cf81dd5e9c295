// Package aggregate is n8n's Aggregate node: it combines a field of many items into a list in
// one item, or all item data into one list.
// One of n8n's Transform nodes, it runs the concatenateItems operation of Item Lists 3 on its own
// parameters (see package itemlists).
package aggregate

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed aggregate.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	return itemlists.TransformType(descriptionJSON, iconSVG, "concatenateItems")
}
