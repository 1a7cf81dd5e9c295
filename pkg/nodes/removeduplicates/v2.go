package removeduplicates

import (
	"cmp"
	"context"
	"crypto/md5"
	_ "embed"
	"encoding/base64"
	"slices"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/internal/fieldtype"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed v2.json
var descriptionV2 []byte

// TypeV2 returns version 2 for registration: besides removing duplicates within its input, it
// removes items whose value was seen in earlier executions and clears that history. The history
// lives in the node's static data (scope "node") or the workflow's global static data (scope
// "workflow"), so it is saved with the workflow after each run.
func TypeV2() nodes.Type {
	t := nodes.Define(descriptionV2, nodes.KindAction, executeV2)
	t.IconSVG = iconSVG
	return t
}

// MaxHistory is the most values the history of "Value Is New" keeps, whatever History Size
// says: the history is saved with the workflow.
const MaxHistory = 100000

// historyKey holds the history in the static data.
const historyKey = "deduplication"

// The history's modes, as n8n stores them: the values seen, or the highest number or latest date.
const (
	modeEntries = "entries"
	modeNumber  = "latestIncrementalKey"
	modeDate    = "latestDate"
)

func executeV2(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	switch operation {
	case "removeDuplicateInputItems":
		return itemlists.Run(ctx, ex, "removeDuplicates")
	case "removeItemsSeenInPreviousExecutions":
		kept, err := removeSeen(ex, items)
		if err != nil {
			if ex.ContinueOnFail() && len(items) > 0 {
				e := ex.ErrorItem(err, 0)
				e.JSON = items[0].JSON
				return [][]workflow.Item{{e}}, nil
			}
			return nil, err
		}
		return [][]workflow.Item{kept}, nil
	case "clearDeduplicationHistory":
		mode, err := ex.ParamString("mode", 0)
		if err != nil {
			return nil, err
		}
		if mode == "cleanDatabase" {
			store, err := storeOf(ex)
			if err != nil {
				return nil, err
			}
			delete(store, historyKey)
		}
	}
	return [][]workflow.Item{items}, nil
}

// storeOf is the static data the scope option names.
func storeOf(ex *nodes.Execution) (map[string]any, error) {
	scope, err := ex.ParamOr("options.scope", 0, "node")
	if err != nil {
		return nil, err
	}
	switch scope {
	case "node":
		return ex.StaticData(), nil
	case "workflow":
		return ex.GlobalStaticData(), nil
	}
	return nil, nodes.Errorf(-1, "The scope '%s' is not supported. Please select either \"node\" or \"workflow\".", jsv.ToString(scope))
}

// keyed groups the items by their value to dedupe on, the keys in JavaScript object order.
type keyed struct {
	keys  []string
	items map[string][]workflow.Item
}

func (k *keyed) add(key string, it workflow.Item) {
	if k.items == nil {
		k.items = map[string][]workflow.Item{}
	}
	if _, ok := k.items[key]; !ok {
		k.keys = append(k.keys, key)
	}
	k.items[key] = append(k.items[key], it)
}

func (k *keyed) of(keys []string) []workflow.Item {
	out := []workflow.Item{}
	for _, key := range keys {
		out = append(out, k.items[key]...)
	}
	return out
}

func removeSeen(ex *nodes.Execution, items []workflow.Item) ([]workflow.Item, error) {
	logic, err := ex.ParamString("logic", 0)
	if err != nil {
		return nil, err
	}
	store, err := storeOf(ex)
	if err != nil {
		return nil, err
	}
	var groups keyed
	switch logic {
	case "removeItemsWithAlreadySeenKeyValues":
		for i, it := range items {
			v, err := ex.ParamOr("dedupeValue", i, "")
			if err != nil {
				return nil, err
			}
			groups.add(keyString(v), it)
		}
		size, err := ex.ParamOr("options.historySize", 0, 10000.0)
		if err != nil {
			return nil, err
		}
		max, _ := workflow.Number(size)
		if max > MaxHistory {
			return nil, nodes.Errorf(-1, "The history size %s is above the limit of %d values", jsv.ToString(size), MaxHistory)
		}
		newKeys, err := checkEntries(store, groups.keys, len(items), int(max))
		if err != nil {
			return nil, err
		}
		return groups.of(newKeys), nil
	case "removeItemsUpToStoredIncrementalKey":
		for i, it := range items {
			v, err := ex.ParamOr("incrementalDedupeValue", i, "")
			if err != nil {
				return nil, err
			}
			if keyString(v) == "" {
				return nil, nodes.Errorf(-1, "The `Value to Dedupe` On is empty. Please provide a value.")
			}
			n := jsv.ToNumber(v)
			if n != n {
				return nil, nodes.Errorf(-1, "The value '%s' is not a number. Please provide a number.", keyString(v))
			}
			groups.add(jsv.ToString(n), it)
		}
		groups.keys = workflow.JSKeyOrder(groups.keys)
		newKeys, err := checkLatest(store, modeNumber, groups.keys, func(s string) float64 { return jsv.ToNumber(s) })
		if err != nil {
			return nil, err
		}
		return groups.of(newKeys), nil
	case "removeItemsUpToStoredDate":
		for i, it := range items {
			v, err := ex.ParamOr("dateDedupeValue", i, "")
			if err != nil {
				return nil, err
			}
			key := keyString(v)
			if key == "" {
				return nil, nodes.Errorf(-1, "The `Value to Dedupe` On is empty. Please provide a value.")
			}
			if _, ok := fieldtype.ParseDateTime(key); !ok {
				return nil, nodes.Errorf(-1, "The value '%s' is not a valid date. Please provide a valid date.", key)
			}
			groups.add(key, it)
		}
		groups.keys = workflow.JSKeyOrder(groups.keys)
		newKeys, err := checkLatest(store, modeDate, groups.keys, func(s string) float64 {
			t, _ := fieldtype.ParseDateTime(s)
			return float64(t.UnixNano()) / float64(time.Millisecond)
		})
		if err != nil {
			return nil, err
		}
		return groups.of(newKeys), nil
	}
	return items, nil
}

// keyString is a value to dedupe on as text (a date as n8n prints it).
func keyString(v any) string {
	if t, ok := v.(time.Time); ok {
		return t.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	if v == nil || jsv.IsUndefined(v) {
		return ""
	}
	return jsv.ToString(v)
}

// history reads the stored history for mode; none is nil. A history kept in another mode is
// the error n8n gives.
func history(store map[string]any, mode string) (map[string]any, error) {
	h, ok := store[historyKey].(map[string]any)
	if !ok {
		return nil, nil
	}
	if h["mode"] != mode {
		return nil, nodes.Errorf(-1, "Deduplication data was originally saved with an incompatible setting of the ‘Keep Items Where’ parameter. Try ’Clean Database’ operation to reset.")
	}
	return h, nil
}

// checkEntries keeps the keys not in the history and adds them to it, which keeps its last max
// values. More items than the history has room for is an error, as in n8n.
func checkEntries(store map[string]any, keys []string, count, max int) ([]string, error) {
	h, err := history(store, modeEntries)
	if err != nil {
		return nil, err
	}
	var seen []any
	if h != nil {
		seen, _ = h["data"].([]any)
	}
	if len(seen)+count > max {
		return nil, nodes.Errorf(-1, "The number of items to be processed exceeds the maximum history size. Please increase the history size or reduce the number of items to be processed.")
	}
	known := make(map[string]bool, len(seen))
	for _, s := range seen {
		if str, ok := s.(string); ok {
			known[str] = true
		}
	}
	var fresh []string
	for _, k := range keys {
		hash := valueHash(k)
		if h != nil && known[hash] {
			continue
		}
		fresh = append(fresh, k)
		seen = append(seen, hash)
	}
	if max > 0 && len(seen) > max {
		seen = seen[len(seen)-max:]
	}
	if seen == nil {
		seen = []any{}
	}
	store[historyKey] = map[string]any{"mode": modeEntries, "data": seen}
	return fresh, nil
}

// checkLatest keeps the keys above the stored value (all of them the first time) and stores the
// highest. Later runs list the kept items from the lowest value up.
func checkLatest(store map[string]any, mode string, keys []string, value func(string) float64) ([]string, error) {
	h, err := history(store, mode)
	if err != nil {
		return nil, err
	}
	sorted := slices.Clone(keys)
	slices.SortStableFunc(sorted, func(a, b string) int { return cmp.Compare(value(a), value(b)) })
	if h == nil {
		if len(sorted) > 0 {
			store[historyKey] = map[string]any{"mode": mode, "data": sorted[len(sorted)-1]}
		}
		return keys, nil
	}
	last := jsv.ToString(h["data"])
	largest := last
	var fresh []string
	for _, k := range sorted {
		if value(k) > value(last) {
			fresh = append(fresh, k)
			if value(k) > value(largest) {
				largest = k
			}
		}
	}
	store[historyKey] = map[string]any{"mode": mode, "data": largest}
	return fresh, nil
}

// valueHash is how n8n stores a seen value: the base64 MD5 of its text.
func valueHash(s string) string {
	sum := md5.Sum([]byte(s))
	return base64.StdEncoding.EncodeToString(sum[:])
}
