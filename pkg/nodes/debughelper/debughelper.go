// Package debughelper is the DebugHelper node: it does nothing, fails on purpose with the chosen
// error class, or generates random test data (users, addresses, cards, ids, network addresses),
// reproducibly when given a seed. Its "Out Of Memory" category is refused: a node must not be
// able to take down the worker that other workflows share.
package debughelper

import (
	"context"
	_ "embed"
	"hash/fnv"
	"math/rand/v2"
	"strconv"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// MaxRandomItems caps "Number of Items to Generate" per input item (README, Limits).
const MaxRandomItems = 10000

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(_ context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	category, err := ex.ParamString("category", 0)
	if err != nil {
		return nil, err
	}
	out := []workflow.Item{}
	for i := range ex.InputData(0) {
		items, err := runCategory(ex, category, i)
		if err != nil {
			if ex.ContinueOnFail() {
				out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()), PairedItem: &workflow.PairedItems{{Item: i}}})
				continue
			}
			return nil, err
		}
		out = append(out, items...)
	}
	return [][]workflow.Item{out}, nil
}

func runCategory(ex *nodes.Execution, category string, i int) ([]workflow.Item, error) {
	switch category {
	case "doNothing":
		return nil, nil
	case "throwError":
		typ, err := ex.ParamString("throwErrorType", 0)
		if err != nil {
			return nil, err
		}
		msg, err := ex.ParamString("throwErrorMessage", 0)
		if err != nil {
			return nil, err
		}
		e := nodes.Errorf(i, "%s", msg)
		switch typ {
		case "NodeApiError", "NodeOperationError":
			e.Name = typ
		default:
			e.Name = "Error"
		}
		return nil, e
	case "oom":
		return nil, nodes.Errorf(i, "The Out Of Memory category is not available: it would stop the worker that runs every workflow")
	case "randomData":
		return randomItems(ex, i)
	}
	return nil, nodes.Errorf(i, "The category %q is not known", category)
}

func randomItems(ex *nodes.Execution, i int) ([]workflow.Item, error) {
	dataType, err := ex.ParamString("randomDataType", 0)
	if err != nil {
		return nil, err
	}
	count, err := ex.ParamFloat("randomDataCount", 0)
	if err != nil {
		return nil, err
	}
	if count > MaxRandomItems {
		return nil, nodes.Errorf(i, "Number of Items to Generate is %s; at most %d are allowed", strconv.FormatFloat(count, 'f', -1, 64), MaxRandomItems)
	}
	seed, err := ex.ParamString("randomDataSeed", 0)
	if err != nil {
		return nil, err
	}
	single, err := ex.ParamBool("randomDataSingleArray", 0)
	if err != nil {
		return nil, err
	}
	g := newGenerator(seed)
	gen, ok := g.byType(dataType)
	if dataType == "nanoid" {
		alphabet, err := ex.ParamString("nanoidAlphabet", 0)
		if err != nil {
			return nil, err
		}
		lengthText, err := ex.ParamString("nanoidLength", 0)
		if err != nil {
			return nil, err
		}
		length, err := strconv.Atoi(lengthText)
		if err != nil || length < 1 || length > 1024 || alphabet == "" {
			return nil, nodes.Errorf(i, "NanoId Length must be a whole number from 1 to 1024 and the alphabet must not be empty")
		}
		gen, ok = func() any { return g.nanoid(alphabet, length) }, true
	}
	if !ok {
		return nil, nodes.Errorf(i, "The data type %q is not known", dataType)
	}
	values := make([]any, 0, max(int(count), 0))
	for range max(int(count), 0) {
		values = append(values, gen())
	}
	paired := func() *workflow.PairedItems { return &workflow.PairedItems{{Item: i}} }
	if single {
		return []workflow.Item{{JSON: workflow.ObjectOf("generatedItems", values), PairedItem: paired()}}, nil
	}
	items := make([]workflow.Item, len(values))
	for k, v := range values {
		obj, isObj := workflow.AsObject(v)
		if !isObj {
			// An item's json must be an object: a plain value goes under the data type's name.
			obj = workflow.ObjectOf(dataType, v)
		}
		items[k] = workflow.Item{JSON: obj, PairedItem: paired()}
	}
	return items, nil
}

// newGenerator returns a generator seeded from seed, or randomly for an empty seed.
func newGenerator(seed string) *generator {
	var s uint64
	if seed == "" {
		s = rand.Uint64()
	} else {
		h := fnv.New64a()
		h.Write([]byte(seed))
		s = h.Sum64()
	}
	return &generator{r: rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))}
}
