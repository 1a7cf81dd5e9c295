// Package merge is the Merge node. Version 1 modes: append, keepKeyMatches, mergeByIndex,
// mergeByKey, multiplex, passThrough, removeKeyMatches, wait. Versions 2 and 2.1 modes: append,
// combine (by fields, by position, all combinations) and chooseBranch.
package merge

import (
	"context"
	_ "embed"
	"math"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v1.json
var v1JSON []byte

//go:embed v2.json
var v2JSON []byte

// TypeV1 returns Merge version 1 for registration.
func TypeV1() nodes.Type {
	t := nodes.Define(v1JSON, nodes.KindAction, executeV1)
	t.EffectFree = true
	return t
}

// TypeV2 returns Merge versions 2 and 2.1 for registration.
func TypeV2() nodes.Type {
	t := nodes.Define(v2JSON, nodes.KindAction, executeV2)
	t.EffectFree = true
	t.RequiredInputs = requiredInputs
	return t
}

// requiredInputs is n8n's requiredInputs of Merge 2 and 3: choosing a branch needs both inputs,
// every other mode runs with whichever inputs got data (v1 execution order).
func requiredInputs(params map[string]any) nodes.InputRequirement {
	if mode, _ := params["mode"].(string); mode == "chooseBranch" {
		return nodes.InputRequirement{Inputs: []int{0, 1}}
	}
	return nodes.InputRequirement{Count: 1}
}

func executeV1(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	mode, err := ex.ParamString("mode", 0)
	if err != nil {
		return nil, err
	}
	in1, in2 := ex.InputData(0), ex.InputData(1)
	out := []workflow.Item{}
	switch mode {
	case "append":
		out = append(append(out, in1...), in2...)
	case "mergeByIndex":
		join, err := ex.ParamString("join", 0)
		if err != nil {
			return nil, err
		}
		return [][]workflow.Item{mergeByIndex(in1, in2, join)}, nil
	case "multiplex":
		for _, a := range in1 {
			for _, b := range in2 {
				j := workflow.NewObject(a.JSON.Len() + b.JSON.Len())
				for k, v := range a.JSON.All() {
					j.Set(k, v)
				}
				for k, v := range b.JSON.All() {
					j.Set(k, v)
				}
				out = append(out, workflow.Item{JSON: j, PairedItem: pairOf(a, b)})
			}
		}
	case "keepKeyMatches", "mergeByKey", "removeKeyMatches":
		return byKey(ex, mode, in1, in2)
	case "passThrough":
		which, err := ex.ParamString("output", 0)
		if err != nil {
			return nil, err
		}
		if which == "input1" {
			out = append(out, in1...)
		} else {
			out = append(out, in2...)
		}
	case "wait":
		p := make(workflow.PairedItems, len(in1))
		for i := range in1 {
			p[i] = workflow.PairedItem{Item: i}
		}
		item := workflow.Item{JSON: workflow.NewObject(0)}
		if len(p) > 0 {
			item.PairedItem = &p
		}
		out = append(out, item)
	}
	return [][]workflow.Item{out}, nil
}

func mergeByIndex(in1, in2 []workflow.Item, join string) []workflow.Item {
	if len(in1) == 0 {
		if join == "inner" || join == "left" {
			return []workflow.Item{}
		}
		return nonNil(in2)
	}
	if len(in2) == 0 {
		if join == "left" || join == "outer" {
			return in1
		}
		return []workflow.Item{}
	}
	n := len(in1)
	switch join {
	case "inner":
		n = min(len(in1), len(in2))
	case "outer":
		n = max(len(in1), len(in2))
	}
	out := make([]workflow.Item, 0, n)
	for i := 0; i < n; i++ {
		if i >= len(in1) {
			out = append(out, in2[i])
			continue
		}
		if i >= len(in2) {
			out = append(out, in1[i])
			continue
		}
		item := workflow.Item{JSON: workflow.NewObject(0), PairedItem: pairOf(in1[i], in2[i])}
		for k, v := range in1[i].JSON.All() {
			item.JSON.Set(k, v)
		}
		for k, v := range in2[i].JSON.All() {
			item.JSON.Set(k, v)
		}
		item.Binary = mergeBinary(in1[i].Binary, in2[i].Binary)
		out = append(out, item)
	}
	return out
}

func byKey(ex *nodes.Execution, mode string, in1, in2 []workflow.Item) ([][]workflow.Item, error) {
	if in1 == nil {
		return [][]workflow.Item{{}}, nil
	}
	p1, err := ex.ParamString("propertyName1", 0)
	if err != nil {
		return nil, err
	}
	p2, err := ex.ParamString("propertyName2", 0)
	if err != nil {
		return nil, err
	}
	overwrite := "always"
	if v, err := ex.ParamOr("overwrite", 0, "always"); err != nil {
		return nil, err
	} else if s, ok := v.(string); ok {
		overwrite = s
	}
	if in2 == nil || p1 == "" || p2 == "" {
		if mode == "keepKeyMatches" {
			return [][]workflow.Item{{}}, nil
		}
		return [][]workflow.Item{in1}, nil
	}
	copyData := map[string]workflow.Item{}
	for _, e := range in2 {
		key, ok := workflow.LookupPath(e.JSON, p2)
		if !ok || !workflow.Truthy(key) {
			continue
		}
		copyData[jsv.ToString(key)] = e
	}
	out := []workflow.Item{}
	for _, e := range in1 {
		ref, ok := workflow.LookupPath(e.JSON, p1)
		if !ok {
			if mode == "removeKeyMatches" {
				out = append(out, e)
			}
			continue
		}
		var key string
		switch x := ref.(type) {
		case string:
			key = x
		case nil:
			key = "null"
		default:
			f, isNum := workflow.Number(x)
			if !isNum || math.IsNaN(f) {
				if mode == "removeKeyMatches" {
					out = append(out, e)
				}
				continue
			}
			key = jsv.FormatNumber(f)
		}
		match, found := copyData[key]
		if !found {
			if mode == "removeKeyMatches" {
				out = append(out, e)
				continue
			}
			if mode == "mergeByKey" {
				out = append(out, e)
			}
			continue
		}
		switch mode {
		case "removeKeyMatches":
			continue
		case "keepKeyMatches":
			out = append(out, e)
			continue
		}
		merged := workflow.Item{JSON: e.JSON.Clone(), Binary: e.Binary, PairedItem: e.PairedItem}
		if merged.JSON == nil {
			merged.JSON = workflow.NewObject(0)
		}
		for k, v := range match.JSON.All() {
			if k == p2 {
				continue
			}
			cur, has := merged.JSON.Lookup(k)
			if overwrite == "always" || (overwrite == "undefined" && !has) ||
				(overwrite == "blank" && (!has || cur == nil || cur == "")) {
				merged.JSON.Set(k, workflow.DeepCopy(v))
			}
		}
		out = append(out, merged)
	}
	return [][]workflow.Item{out}, nil
}

func pairOf(a, b workflow.Item) *workflow.PairedItems {
	var p workflow.PairedItems
	if a.PairedItem != nil {
		p = append(p, *a.PairedItem...)
	}
	if b.PairedItem != nil {
		p = append(p, *b.PairedItem...)
	}
	if p == nil {
		return nil
	}
	return &p
}

func mergeBinary(a, b map[string]workflow.BinaryData) map[string]workflow.BinaryData {
	if a == nil && b == nil {
		return nil
	}
	out := make(map[string]workflow.BinaryData, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func nonNil(items []workflow.Item) []workflow.Item {
	if items == nil {
		return []workflow.Item{}
	}
	return items
}
