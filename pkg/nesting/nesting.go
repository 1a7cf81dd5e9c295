// Package nesting bounds how deeply nested the data a caller feeds in may be. Parsers and
// encoders of JSON, XML and run data recurse once per level, so a body of a million nested
// arrays would overflow the stack (or Postgres' stack depth); every place that turns a
// caller's data into items checks it against Max first.
package nesting

import (
	"errors"
	"fmt"
	"strconv"
)

// Max is the deepest nesting of objects, arrays or XML elements accepted anywhere.
const Max = 1000

// ErrTooDeep is the error every check returns for data nested deeper than Max.
var ErrTooDeep = fmt.Errorf("the nesting is deeper than %s levels", thousands(Max))

// thousands writes n with comma separators (1,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// IsTooDeep reports whether err is, or wraps, ErrTooDeep.
func IsTooDeep(err error) bool { return errors.Is(err, ErrTooDeep) }

// JSON checks the nesting of a JSON text with one pass over its bytes, without decoding it;
// text that is not valid JSON is left for the decoder to reject.
func JSON(raw []byte) error {
	depth := 0
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > Max {
				return ErrTooDeep
			}
		case ']', '}':
			depth--
		}
	}
	return nil
}

// Value checks the nesting of decoded data (maps and slices of any element type, as JSON
// decoding and script results give them) without recursion, so any depth is safe to check.
func Value(v any) error {
	if !container(v) {
		return nil
	}
	type level struct {
		v     any
		depth int
	}
	stack := []level{{v, 0}}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := top.v.(type) {
		case map[string]any:
			if top.depth+1 > Max {
				return ErrTooDeep
			}
			for _, e := range x {
				if container(e) {
					stack = append(stack, level{e, top.depth + 1})
				}
			}
		case []any:
			if top.depth+1 > Max {
				return ErrTooDeep
			}
			for _, e := range x {
				if container(e) {
					stack = append(stack, level{e, top.depth + 1})
				}
			}
		case Object:
			if top.depth+1 > Max {
				return ErrTooDeep
			}
			for i := range x.Len() {
				if e := x.ValueAt(i); container(e) {
					stack = append(stack, level{e, top.depth + 1})
				}
			}
		case []map[string]any:
			if top.depth+1 > Max {
				return ErrTooDeep
			}
			for _, e := range x {
				stack = append(stack, level{e, top.depth + 1})
			}
		}
	}
	return nil
}

func container(v any) bool {
	switch v.(type) {
	case map[string]any, []any, []map[string]any, Object:
		return true
	}
	return false
}

// Object is a decoded object that is not a Go map, such as workflow.Object, which keeps its
// key order; Value walks its member values by position.
type Object interface {
	Len() int
	ValueAt(i int) any
}
