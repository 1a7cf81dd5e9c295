// Package limit is n8n's Limit node: it keeps only the first (or last) items up to a maximum
// number.
// One of n8n's Transform nodes, it runs the limit operation of Item Lists 3 on its own
// parameters (see package itemlists).
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
	return itemlists.TransformType(descriptionJSON, iconSVG, "limit")
}
