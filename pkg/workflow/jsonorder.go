package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// rawMember is one member of a JSON object, in document order.
type rawMember struct {
	Key   string
	Value json.RawMessage
}

// decodeObject reads a JSON object and returns its members in document order. n8n's engine walks
// objects such as connections in JavaScript key order, which a Go map cannot keep.
func decodeObject(b []byte) ([]rawMember, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("want a JSON object, got %s", describeToken(tok))
	}
	var out []rawMember
	seen := map[string]int{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		// A repeated key keeps its first position and its last value, as JSON.parse does.
		if i, ok := seen[key]; ok {
			out[i].Value = v
			continue
		}
		seen[key] = len(out)
		out = append(out, rawMember{Key: key, Value: v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return out, nil
}

func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return string(v)
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// JSKeyOrder returns keys in the order JavaScript enumerates an object's own keys: keys that are
// array indices ascending first, then the others in insertion order.
func JSKeyOrder(keys []string) []string {
	var idx, rest []string
	for _, k := range keys {
		if isArrayIndex(k) {
			idx = append(idx, k)
		} else {
			rest = append(rest, k)
		}
	}
	if len(idx) == 0 {
		return keys
	}
	slices.SortStableFunc(idx, func(a, b string) int {
		x, _ := strconv.ParseUint(a, 10, 32)
		y, _ := strconv.ParseUint(b, 10, 32)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	return append(idx, rest...)
}

func isArrayIndex(k string) bool {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return false
	}
	// Digits only, checked by hand: ParseUint allocates an error for every other key, and
	// every key set on an item's object is checked.
	var n uint64
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + uint64(c-'0')
	}
	return n < 1<<32-1
}

// ObjectKeys returns the keys of a JSON object in document order.
func ObjectKeys(b []byte) ([]string, error) {
	members, err := decodeObject(b)
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(members))
	for i, m := range members {
		keys[i] = m.Key
	}
	return keys, nil
}
