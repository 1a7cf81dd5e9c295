// Package summarize is n8n's Summarize node: it sums, counts, averages, concatenates or
// collects fields across items, optionally split by other fields (a pivot table).
// One of n8n's Transform nodes, it runs the summarize operation of Item Lists 3 on its own
// parameters (see package itemlists).
package summarize

import (
	_ "embed"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
)

var (
	//go:embed description.json
	descriptionJSON []byte
	//go:embed summarize.svg
	iconSVG []byte
)

// Type returns the node type for registration.
func Type() nodes.Type {
	return itemlists.TransformType(descriptionJSON, iconSVG, "summarize")
}
