package workflow

import (
	"iter"
	"maps"
	"slices"
)

// Object is a JSON object that keeps its key order, as a JavaScript object does: keys that are
// array indices ("0", "7") come first in ascending order, every other key in the order it was
// first set. Item data (Item.JSON and every object nested in it) is held as *Object, so a
// field added by a node lands at the end and CSV columns, HTTP bodies and the editor's table
// show fields in the order they were written. Node parameters stay map[string]any.
//
// A nil *Object reads as an empty object; writing needs a non-nil one (NewObject). An Object is
// not safe for concurrent writes.
type Object struct {
	members []Member
	// index maps a key to its position in members; it is built only for objects larger than
	// indexFrom, where a linear scan would cost more than the map.
	index map[string]int
}

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

// indexFrom is the member count from which lookups use a map instead of a scan.
const indexFrom = 12

// NewObject returns an empty object with room for size members.
func NewObject(size int) *Object {
	// A small object and its first members are one allocation: items are mostly small, and
	// an engine run creates one object per item per node.
	switch {
	case size <= 2:
		b := new(struct {
			o Object
			m [2]Member
		})
		b.o.members = b.m[:0]
		return &b.o
	case size <= 4:
		b := new(struct {
			o Object
			m [4]Member
		})
		b.o.members = b.m[:0]
		return &b.o
	case size <= 8:
		b := new(struct {
			o Object
			m [8]Member
		})
		b.o.members = b.m[:0]
		return &b.o
	}
	return &Object{members: make([]Member, 0, size)}
}

// ObjectOf builds an object from alternating keys and values, in that order:
// ObjectOf("id", 1, "name", "Ann"). It panics when a key is not a string, as that is a bug in
// the calling code, not bad data.
func ObjectOf(kv ...any) *Object {
	if len(kv)%2 != 0 {
		panic("workflow.ObjectOf: odd number of arguments")
	}
	o := NewObject(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		k, ok := kv[i].(string)
		if !ok {
			panic("workflow.ObjectOf: key is not a string")
		}
		o.Set(k, kv[i+1])
	}
	return o
}

// ObjectFromMap converts a Go map to an object, nested maps included; a map has no order, so
// keys are taken sorted. Values that are already ordered are kept as they are (not copied).
// A nil map gives nil.
func ObjectFromMap(m map[string]any) *Object {
	if m == nil {
		return nil
	}
	o := NewObject(len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		o.Set(k, FromMaps(m[k]))
	}
	return o
}

// FromMaps returns v with every map[string]any in it (nested in slices too) turned into an
// *Object with sorted keys; other values are returned as they are.
func FromMaps(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return nil
		}
		return ObjectFromMap(x)
	case []any:
		var out []any // a copy, made when an element holds a map
		for i, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				if out == nil {
					out = slices.Clone(x)
				}
				out[i] = FromMaps(e)
			}
		}
		if out == nil {
			return x
		}
		return out
	}
	return v
}

// AsObject returns v as an ordered object when it is one or a Go map (converted with sorted
// keys); ok is false for anything else. It is the helper for code that takes a value that may
// come from item data (*Object) or from node parameters (map[string]any).
func AsObject(v any) (*Object, bool) {
	switch x := v.(type) {
	case *Object:
		return x, x != nil
	case map[string]any:
		return ObjectFromMap(x), x != nil
	}
	return nil, false
}

// ToMap returns a deep copy of the object as Go maps, for code that works on plain maps
// (node parameters, credentials). Order is lost. A nil object gives nil.
func (o *Object) ToMap() map[string]any {
	if o == nil {
		return nil
	}
	m := make(map[string]any, len(o.members))
	for _, e := range o.members {
		m[e.Key] = ToMaps(e.Value)
	}
	return m
}

// ToMaps returns v with every *Object in it turned into a map[string]any.
func ToMaps(v any) any {
	switch x := v.(type) {
	case *Object:
		if x == nil {
			return nil
		}
		return x.ToMap()
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = ToMaps(e)
		}
		return s
	}
	return v
}

// Len returns the number of members.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.members)
}

func (o *Object) find(key string) int {
	if o == nil {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range o.members {
		if o.members[i].Key == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key; nil when the key is missing (use Lookup to tell the two apart).
func (o *Object) Get(key string) any {
	if i := o.find(key); i >= 0 {
		return o.members[i].Value
	}
	return nil
}

// Lookup returns the value of key and whether the key is present.
func (o *Object) Lookup(key string) (any, bool) {
	if i := o.find(key); i >= 0 {
		return o.members[i].Value, true
	}
	return nil, false
}

// Has reports whether key is present.
func (o *Object) Has(key string) bool { return o.find(key) >= 0 }

// Set sets the value of key. An existing key keeps its position; a new one goes last, or
// among the leading array-index keys in ascending order when it is one, as in JavaScript.
func (o *Object) Set(key string, value any) {
	if i := o.find(key); i >= 0 {
		o.members[i].Value = value
		return
	}
	pos := len(o.members)
	if isArrayIndex(key) {
		pos = o.indexKeyPosition(key)
	}
	if pos == len(o.members) {
		o.members = append(o.members, Member{key, value})
		if o.index != nil {
			o.index[key] = pos
		} else if len(o.members) > indexFrom {
			o.buildIndex()
		}
		return
	}
	o.members = slices.Insert(o.members, pos, Member{key, value})
	o.index = nil
	if len(o.members) > indexFrom {
		o.buildIndex()
	}
}

// indexKeyPosition returns where an array-index key goes: after the leading index keys that
// are smaller than it.
func (o *Object) indexKeyPosition(key string) int {
	for i, e := range o.members {
		if !isArrayIndex(e.Key) || arrayIndexLess(key, e.Key) {
			return i
		}
	}
	return len(o.members)
}

// arrayIndexLess compares two array-index keys numerically (they have no leading zeros, so a
// shorter one is smaller).
func arrayIndexLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

func (o *Object) buildIndex() {
	o.index = make(map[string]int, len(o.members))
	for i, e := range o.members {
		o.index[e.Key] = i
	}
}

// Delete removes key; the other members keep their order.
func (o *Object) Delete(key string) {
	i := o.find(key)
	if i < 0 {
		return
	}
	o.members = slices.Delete(o.members, i, i+1)
	if o.index != nil {
		if len(o.members) > indexFrom {
			o.buildIndex()
		} else {
			o.index = nil
		}
	}
}

// Keys returns the keys in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	keys := make([]string, len(o.members))
	for i, e := range o.members {
		keys[i] = e.Key
	}
	return keys
}

// All iterates over keys and values in order: for k, v := range o.All().
func (o *Object) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if o == nil {
			return
		}
		for _, e := range o.members {
			if !yield(e.Key, e.Value) {
				return
			}
		}
	}
}

// Range calls f for each member in order until f returns false.
func (o *Object) Range(f func(key string, value any) bool) {
	if o == nil {
		return
	}
	for _, e := range o.members {
		if !f(e.Key, e.Value) {
			return
		}
	}
}

// ValueAt returns the value of the i-th member (0 ≤ i < Len()).
func (o *Object) ValueAt(i int) any { return o.members[i].Value }

// Members returns the members in order. The slice is the object's own: do not modify it.
func (o *Object) Members() []Member {
	if o == nil {
		return nil
	}
	return o.members
}

// Clone returns a deep copy: nested objects, maps and slices are copied too. A nil object
// gives nil.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	// Room for one more member: a copy is usually made to add a field.
	c := NewObject(len(o.members) + 1)
	for _, e := range o.members {
		c.members = append(c.members, Member{e.Key, DeepCopy(e.Value)})
	}
	if o.index != nil {
		c.buildIndex()
	}
	return c
}

// ShallowClone copies the object's members but shares their values.
func (o *Object) ShallowClone() *Object {
	if o == nil {
		return nil
	}
	c := NewObject(len(o.members) + 1)
	c.members = append(c.members, o.members...)
	if o.index != nil {
		c.buildIndex()
	}
	return c
}
