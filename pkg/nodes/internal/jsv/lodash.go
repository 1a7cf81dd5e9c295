package jsv

import (
	"maps"
	"slices"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Lodash's get, isEqual and Object.keys as n8n's data nodes (Item Lists, Compare Datasets, Merge)
// use them on item fields, where a missing field is undefined rather than null.

// Getter reads a field of an item's JSON.
type Getter func(obj any, field string) any

// FieldGetter returns a Getter that reads a lodash path ("a.b[0]") as lodash's get does, or,
// with dot notation disabled, the key exactly as written. A missing field, or a plain key read
// from something that is not an object, is workflow.Undefined.
func FieldGetter(disableDotNotation bool) Getter {
	if disableDotNotation {
		return func(obj any, field string) any {
			switch m := obj.(type) {
			case map[string]any:
				if v, ok := m[field]; ok {
					return v
				}
			case *workflow.Object:
				if v, ok := m.Lookup(field); ok {
					return v
				}
			}
			return workflow.Undefined{}
		}
	}
	return func(obj any, field string) any {
		if v, ok := workflow.LookupPath(obj, field); ok {
			return v
		}
		return workflow.Undefined{}
	}
}

// Equal is lodash's isEqual for field values: undefined equals only undefined, everything else
// compares as workflow.DeepEqual.
func Equal(a, b any) bool {
	ua, ub := IsUndefined(a), IsUndefined(b)
	if ua || ub {
		return ua && ub
	}
	return workflow.DeepEqual(a, b)
}

// Keys lists an object's keys in the order JavaScript enumerates them: an *workflow.Object's
// own order; Go maps keep no insertion order, so there the keys that are not array indexes
// come sorted. Anything else has no keys.
func Keys(obj any) []string {
	switch m := obj.(type) {
	case *workflow.Object:
		return m.Keys()
	case map[string]any:
		return workflow.JSKeyOrder(slices.Sorted(maps.Keys(m)))
	}
	return nil
}
