// Package itemlists is the Item Lists node: split out items, concatenate (aggregate) items,
// remove duplicates, sort, limit and summarize. Version 1 and versions 2, 2.1 and 2.2 share the
// parameters; they differ where n8n's do:
//   - split out: version 1 needs a list; 2 also splits an object's values; 2.1 outputs nothing
//     for a missing field instead of failing; 2.2 splits a single value as a one-element list.
//     Version 2 splits several comma-separated fields side by side.
//   - concatenate: before 2.1 a field missing from every item is an error.
//   - summarize: before 2.1 a field missing from every item is an error; version 2 turns dots,
//     spaces and brackets in output field names into underscores.
package itemlists

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	//go:embed v1.json
	v1JSON []byte
	//go:embed v2.json
	v2JSON []byte
	//go:embed itemLists.svg
	iconSVG []byte
)

// TypeV1 returns version 1 for registration.
func TypeV1() nodes.Type {
	t := nodes.Define(v1JSON, nodes.KindAction, execute)
	t.EffectFree = true
	t.IconSVG = iconSVG
	return t
}

// TypeV2 returns versions 2, 2.1 and 2.2 for registration.
func TypeV2() nodes.Type {
	t := nodes.Define(v2JSON, nodes.KindAction, execute)
	t.EffectFree = true
	t.IconSVG = iconSVG
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	resource, err := ex.ParamString("resource", 0)
	if err != nil {
		return nil, err
	}
	if resource != "itemList" {
		return nil, nodes.Errorf(-1, "Resource '%s' is not recognized", resource)
	}
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	var out []workflow.Item
	switch operation {
	case "splitOutItems":
		out, err = splitOut(ex, items)
	case "aggregateItems":
		out, err = aggregate(ex, items)
	case "removeDuplicates":
		out, err = removeDuplicates(ex, items)
	case "sort":
		out, err = sortItems(ctx, ex, items)
	case "limit":
		out, err = limit(ex, items)
	case "summarize":
		out, err = summarize(ex, items)
	default:
		return nil, nodes.Errorf(-1, "Operation '%s' is not recognized", operation)
	}
	if err != nil {
		return nil, err
	}
	return [][]workflow.Item{out}, nil
}

// options reads the "options" collection.
func options(ex *nodes.Execution) (map[string]any, error) {
	return ex.ParamMap("options", 0)
}

// fieldNames reads the fieldName entries of a fixedCollection such as fieldsToInclude.fields.
func fieldNames(ex *nodes.Execution, path string, itemIndex int) ([]string, error) {
	list, err := ex.ParamList(path, itemIndex)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(list))
	for _, e := range list {
		names = append(names, fmt.Sprint(cmp.Or(e["fieldName"], any(""))))
	}
	return names, nil
}

// nestedHint is n8n's description for a missing dotted field while dot notation is disabled.
const nestedHint = "If you're trying to use a nested field, make sure you turn off 'disable dot notation' in the node options"

func pairedAll(n int) *workflow.PairedItems {
	p := make(workflow.PairedItems, n)
	for i := range p {
		p[i] = workflow.PairedItem{Item: i}
	}
	return &p
}
