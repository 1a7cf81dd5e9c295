// Package renamekeys is the Rename Keys node (version 1): it moves values from one key to
// another (dot notation reaches nested keys), then renames keys matching regular expressions
// at any depth, as n8n's node does.
package renamekeys

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"time"

	"github.com/dlclark/regexp2/v2"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		newItem, err := renameItem(ex, item, i)
		if err != nil {
			return nil, err
		}
		out = append(out, newItem)
	}
	return [][]workflow.Item{out}, nil
}

func renameItem(ex *nodes.Execution, item workflow.Item, i int) (workflow.Item, error) {
	keys, err := ex.ParamList("keys.key", i)
	if err != nil {
		return workflow.Item{}, err
	}
	replacements, err := ex.ParamList("additionalOptions.regexReplacement.replacements", i)
	if err != nil {
		return workflow.Item{}, err
	}
	newItem := workflow.Item{
		JSON:       item.JSON.Clone(),
		Binary:     item.Binary,
		PairedItem: &workflow.PairedItems{{Item: i}},
	}
	if newItem.JSON == nil {
		newItem.JSON = workflow.NewObject(0)
	}
	for _, k := range keys {
		current, next := jsv.ToString(or(k["currentKey"])), jsv.ToString(or(k["newKey"]))
		if current == "" || next == "" || current == next {
			continue
		}
		// The value is read from the input item, so renames do not chain.
		v, ok := workflow.LookupPath(item.JSON, current)
		if !ok {
			continue
		}
		workflow.SetPath(newItem.JSON, next, workflow.DeepCopy(v))
		unsetPath(newItem.JSON, current)
	}
	for _, r := range replacements {
		if err := replaceKeys(newItem.JSON, r); err != nil {
			return workflow.Item{}, nodes.Errorf(i, "%s", err.Error())
		}
	}
	return newItem, nil
}

func or(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// replaceKeys renames the keys matching one regular expression, in place: the first match in
// a key is replaced (JavaScript's String.replace without the g flag), deeper levels first.
func replaceKeys(obj *workflow.Object, r map[string]any) error {
	options, _ := r["options"].(map[string]any)
	flags := regexp2.ECMAScript
	if workflow.Truthy(options["caseInsensitive"]) {
		flags |= regexp2.IgnoreCase
	}
	search := jsv.ToString(or(r["searchRegex"]))
	re, err := regexp2.Compile(search, flags)
	if err != nil {
		return fmt.Errorf("Invalid regular expression: /%s/: %w", search, err)
	}
	re.MatchTimeout = time.Second
	depth := -1 // unlimited, as n8n's default -1 and a missing depth both are
	if d, ok := workflow.Number(options["depth"]); ok && d >= 0 {
		depth = int(d)
	}
	return renameObjectKeys(obj, re, jsv.ToString(or(r["replaceRegex"])), depth)
}

func renameObjectKeys(v any, re *regexp2.Regexp, replacement string, depth int) error {
	switch x := v.(type) {
	case []any:
		if depth == 0 {
			return nil
		}
		for _, e := range x {
			if err := renameObjectKeys(e, re, replacement, depth-1); err != nil {
				return err
			}
		}
	case map[string]any:
		return renameObjectKeys(workflow.ObjectFromMap(x), re, replacement, depth)
	case *workflow.Object:
		// for…in visits the keys present when it starts, skipping those deleted since.
		for _, key := range x.Keys() {
			val, ok := x.Lookup(key)
			if !ok {
				continue
			}
			if depth != 0 {
				if err := renameObjectKeys(val, re, replacement, depth-1); err != nil {
					return err
				}
			}
			matched, err := re.MatchString(key)
			if err != nil {
				return err
			}
			if !matched {
				continue
			}
			newKey, err := re.Replace(key, replacement, -1, 1)
			if err != nil {
				return err
			}
			if newKey != key {
				x.Set(newKey, val)
				x.Delete(key)
			}
		}
	}
	return nil
}

// unsetPath is lodash's unset: it removes the key at path; an array element becomes a hole
// (null in JSON).
func unsetPath(obj *workflow.Object, path string) {
	keys := workflow.SplitPath(path)
	if len(keys) == 0 {
		return
	}
	var cur any = obj
	for _, k := range keys[:len(keys)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[k]
		case *workflow.Object:
			cur = c.Get(k)
		case []any:
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= len(c) {
				return
			}
			cur = c[n]
		default:
			return
		}
	}
	last := keys[len(keys)-1]
	switch c := cur.(type) {
	case map[string]any:
		delete(c, last)
	case *workflow.Object:
		c.Delete(last)
	case []any:
		if n, err := strconv.Atoi(last); err == nil && n >= 0 && n < len(c) {
			c[n] = nil
		}
	}
}
