// Package sort is n8n's Sort node: it orders items by one or more fields, at random, or with
// comparison code.
// One of n8n's Transform nodes, it runs the sort operation of Item Lists 3 on its own
// parameters (see package itemlists).
package sort

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed sort.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	return itemlists.TransformType(descriptionJSON, iconSVG, "sort")
}
