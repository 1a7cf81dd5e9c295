// Package splitout is n8n's Split Out node: it turns a list (or an object's values) inside an
// item into separate items.
// One of n8n's Transform nodes, it runs the splitOutItems operation of Item Lists 3 on its own
// parameters (see package itemlists).
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
	return itemlists.TransformType(descriptionJSON, iconSVG, "splitOutItems")
}
