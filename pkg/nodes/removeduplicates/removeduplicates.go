// Package removeduplicates is n8n's Remove Duplicates node: it drops items whose compared
// fields equal those of an earlier item.
// One of n8n's Transform nodes, it runs the removeDuplicates operation of Item Lists 3 on its own
// parameters (see package itemlists).
package removeduplicates

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed removeDuplicates.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	return itemlists.TransformType(descriptionJSON, iconSVG, "removeDuplicates")
}
