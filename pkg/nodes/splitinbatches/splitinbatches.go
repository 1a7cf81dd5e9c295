// Package splitinbatches is the Split In Batches node (versions 1 to 3). The first run keeps its
// input in the node's context and returns the first batch; every later run in the same execution
// (the loop back into the node) returns the next batch. Version 1 ends the branch when no items
// are left; version 2 has a "loop" output for the batches and a "done" output that gets the items
// fed back into the node once all batches went out. Version 3 ("Loop Over Items") is version 2
// with the outputs swapped: "done" first, then "loop". The context also holds currentRunIndex,
// maxRunIndex and noItemsLeft, which expressions read as $node["Split In Batches"].context.
package splitinbatches

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"

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
)

// TypeV1 returns version 1 (one output) for registration.
func TypeV1() nodes.Type {
	return nodes.Define(v1JSON, nodes.KindAction, execute)
}

// TypeV2 returns version 2 (outputs "loop" and "done") for registration.
func TypeV2() nodes.Type {
	return nodes.Define(v2JSON, nodes.KindAction, execute)
}

// TypeV3 returns version 3, Loop Over Items (outputs "done" and "loop"), for registration.
func TypeV3() nodes.Type {
	return nodes.Define(v3JSON, nodes.KindAction, execute)
}

// outputs places a batch and the items done on version 2's outputs (loop, done) or version
// 3's (done, loop).
func outputs(version float64, loop, done []workflow.Item) [][]workflow.Item {
	if version >= 3 {
		return [][]workflow.Item{done, loop}
	}
	return [][]workflow.Item{loop, done}
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	v2 := ex.TypeVersion() >= 2
	items := ex.InputData(0)
	state := ex.Context()
	size, err := ex.ParamFloat("batchSize", 0)
	if err != nil {
		return nil, err
	}
	batch := 0
	if size > 0 {
		batch = int(size)
	}
	options, err := ex.ParamMap("options", 0)
	if err != nil {
		return nil, err
	}
	var out, left []workflow.Item
	if _, started := state["items"]; !started || options["reset"] == true {
		state["currentRunIndex"] = 0.0
		state["maxRunIndex"] = math.Ceil(float64(len(items)) / size)
		out, left = splice(items, batch)
		if v2 {
			state["processedItems"] = []any{}
		}
	} else {
		n, _ := state["currentRunIndex"].(float64)
		state["currentRunIndex"] = n + 1
		kept, err := fromContext(state["items"])
		if err != nil {
			return nil, err
		}
		out, left = splice(kept, batch)
		if v2 {
			processed, err := fromContext(state["processedItems"])
			if err != nil {
				return nil, err
			}
			for i, it := range items {
				it.PairedItem = &workflow.PairedItems{{Item: i}}
				processed = append(processed, it)
			}
			if state["processedItems"], err = toContext(processed); err != nil {
				return nil, err
			}
		}
	}
	if state["items"], err = toContext(left); err != nil {
		return nil, err
	}
	state["noItemsLeft"] = len(left) == 0

	if !v2 {
		if len(out) == 0 {
			// No batch left: the branch ends here, without a run record.
			return nil, nil
		}
		return [][]workflow.Item{out}, nil
	}
	if len(out) == 0 {
		state["done"] = true
		processed, err := fromContext(state["processedItems"])
		if err != nil {
			return nil, err
		}
		return outputs(ex.TypeVersion(), []workflow.Item{}, nonNil(processed)), nil
	}
	state["done"] = false
	return outputs(ex.TypeVersion(), out, []workflow.Item{}), nil
}

func nonNil(items []workflow.Item) []workflow.Item {
	if items == nil {
		return []workflow.Item{}
	}
	return items
}

// splice is JavaScript's items.splice(0, n): the first n items and the rest.
func splice(items []workflow.Item, n int) (head, rest []workflow.Item) {
	n = min(n, len(items))
	head = append([]workflow.Item{}, items[:n]...)
	rest = append([]workflow.Item{}, items[n:]...)
	return head, rest
}

// toContext stores items as plain JSON values, so the context survives the saved state.
func toContext(items []workflow.Item) ([]any, error) {
	b, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("split in batches: keep items: %w", err)
	}
	var out []any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("split in batches: keep items: %w", err)
	}
	if out == nil {
		out = []any{}
	}
	return out, nil
}

func fromContext(v any) ([]workflow.Item, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("split in batches: read kept items: %w", err)
	}
	var items []workflow.Item
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, fmt.Errorf("split in batches: read kept items: %w", err)
	}
	return items, nil
}
