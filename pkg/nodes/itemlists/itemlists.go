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
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	//go:embed v1.json
	v1JSON []byte
	//go:embed v2.json
	v2JSON []byte
	//go:embed v3.json
	v3JSON []byte
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

// TypeV3 returns versions 3 and 3.1 for registration.
func TypeV3() nodes.Type {
	t := nodes.Define(v3JSON, nodes.KindAction, execute)
	t.EffectFree = true
	t.IconSVG = iconSVG
	return t
}

// typeName is the Item Lists node type; the Transform nodes (Aggregate, Sort, …) run the same
// operations under their own names.
const typeName = "n8n-nodes-base.itemLists"

// level is the Item Lists version whose behaviour a node follows: its own version for Item
// Lists, and 3 (3.1 for Remove Duplicates 1.1) for the Transform nodes, which n8n built from
// Item Lists 3.
func level(ex *nodes.Execution) float64 {
	if ex.Node().Type == typeName {
		return ex.TypeVersion()
	}
	if ex.TypeVersion() >= 1.1 {
		return 3.1
	}
	return 3
}

// TransformType returns a Transform node type (Aggregate, Sort, …) for registration: its
// description and icon, running one Item Lists operation ("concatenateItems", "limit",
// "removeDuplicates", "sort", "splitOutItems" or "summarize") on its own parameters.
func TransformType(descriptionJSON, icon []byte, operation string) nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, func(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
		return run(ctx, ex, operation)
	})
	t.EffectFree = true
	t.IconSVG = icon
	return t
}

// Run runs one Item Lists operation on the node's own parameters, for Transform nodes that
// have operations of their own besides it (Remove Duplicates 2).
func Run(ctx context.Context, ex *nodes.Execution, operation string) ([][]workflow.Item, error) {
	return run(ctx, ex, operation)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
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
	return run(ctx, ex, operation)
}

func run(ctx context.Context, ex *nodes.Execution, operation string) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	var err error
	var out []workflow.Item
	switch operation {
	case "splitOutItems":
		out, err = splitOut(ex, items)
	case "aggregateItems", "concatenateItems":
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

// fieldNames reads a list of field names. Versions before 3 keep them in a fixedCollection
// (fieldsToInclude.fields[].fieldName); later ones in a string of comma-separated names, or a
// list of strings in workflows saved by some n8n 1.x releases. label names the parameter in
// the error for any other value.
func fieldNames(ex *nodes.Execution, name, label string, itemIndex int) ([]string, error) {
	v, err := ex.Param(name, itemIndex)
	if err != nil {
		return nil, err
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		var names []string
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				names = append(names, f)
			}
		}
		return names, nil
	case []any:
		names := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fieldsTypeError(label)
			}
			names = append(names, s)
		}
		return names, nil
	case map[string]any:
		list, err := ex.ParamList(name+".fields", itemIndex)
		if err != nil {
			return nil, err
		}
		names := make([]string, 0, len(list))
		for _, e := range list {
			names = append(names, fmt.Sprint(cmp.Or(e["fieldName"], any(""))))
		}
		return names, nil
	}
	return nil, fieldsTypeError(label)
}

func fieldsTypeError(label string) error {
	return nodes.Errorf(-1, "The '%s' parameter must be a string of fields separated by commas or an array of strings.", label)
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
