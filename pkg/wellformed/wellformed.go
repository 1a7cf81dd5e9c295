// Package wellformed checks that text a caller sends is stored as written: valid UTF-8 and
// free of the NUL character. Postgres refuses NUL in text (an error deep in a save), and Go's
// JSON decoder turns bytes that are not UTF-8, and lone UTF-16 surrogates in \u escapes, into
// U+FFFD, so a name would change without anyone being told. Callers check before decoding.
package wellformed

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

var (
	// ErrNotUTF8 is text with bytes that are not UTF-8 (or a \u escape of a lone surrogate).
	ErrNotUTF8 = errors.New("not valid UTF-8")
	// ErrNUL is text with the NUL character, as a byte or as the escape \u0000.
	ErrNUL = errors.New(`Text may not contain the NUL character (\u0000)`)
)

// Error is a failed check: the rule (ErrNotUTF8 or ErrNUL, for errors.Is) and where, as a
// path into a JSON document (nodes[1].parameters.url) or the name of a query parameter.
type Error struct {
	Err   error
	Where string
}

func (e *Error) Error() string {
	if e.Where == "" {
		return e.Err.Error()
	}
	return e.Err.Error() + " at " + e.Where
}

func (e *Error) Unwrap() error { return e.Err }

// String checks one piece of text; where names it in the error.
func String(s, where string) error {
	if !utf8.ValidString(s) {
		return &Error{ErrNotUTF8, where}
	}
	if strings.IndexByte(s, 0) >= 0 {
		return &Error{ErrNUL, where}
	}
	return nil
}

// frame is one open object or array of a JSON text being scanned.
type frame struct {
	object    bool
	key       string
	index     int
	expectKey bool
}

// JSON checks every string (keys included) of a JSON text in one pass over its bytes, without
// decoding it: raw bytes must be UTF-8, and neither a NUL byte nor the escapes \u0000 and
// lone surrogates may appear. The error names the path of the value. Text that is not valid
// JSON is otherwise left for the decoder to reject.
func JSON(raw []byte) error { return scan(raw, false) }

// UTF8JSON is JSON for data rather than documents (webhook bodies): the NUL character is
// allowed (the run data keeps it as the escape \u0000), only text that is not UTF-8 fails.
func UTF8JSON(raw []byte) error { return scan(raw, true) }

func scan(raw []byte, allowNUL bool) error {
	var stack []frame
	fail := func(err error) error { return &Error{err, path(stack)} }
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '{':
			stack = append(stack, frame{object: true, expectKey: true})
		case '[':
			stack = append(stack, frame{})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 {
				if stack[n-1].object {
					stack[n-1].expectKey = true
				} else {
					stack[n-1].index++
				}
			}
		case ':':
			if n := len(stack); n > 0 {
				stack[n-1].expectKey = false
			}
		case '"':
			end, err := str(raw, i+1, allowNUL)
			if err != nil {
				return fail(err)
			}
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].expectKey {
				stack[n-1].key = string(raw[i+1 : end])
			}
			i = end
		}
	}
	return nil
}

// str checks the string that starts at raw[i] (after its opening quote) and returns the
// index of its closing quote (or len(raw) when the text ends first).
func str(raw []byte, i int, allowNUL bool) (int, error) {
	for i < len(raw) {
		c := raw[i]
		switch {
		case c == '"':
			return i, nil
		case c == 0 && !allowNUL:
			return 0, ErrNUL
		case c == '\\':
			if i+1 < len(raw) && raw[i+1] == 'u' {
				r, ok := hex4(raw, i+2)
				switch {
				case !ok:
				case r == 0 && !allowNUL:
					return 0, ErrNUL
				case r >= 0xD800 && r <= 0xDBFF:
					low, ok := uint32(0), false
					if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
						low, ok = hex4(raw, i+8)
					}
					if !ok || low < 0xDC00 || low > 0xDFFF {
						return 0, ErrNotUTF8
					}
					i += 6
				case r >= 0xDC00 && r <= 0xDFFF:
					return 0, ErrNotUTF8
				}
			}
			i += 2
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, ErrNotUTF8
			}
			i += size
			continue
		}
		i++
	}
	return i, nil
}

// hex4 reads the four hex digits of a \u escape at raw[i:].
func hex4(raw []byte, i int) (uint32, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32)
	return uint32(v), err == nil
}

// path writes the place of the scan as field.list[2].name; the body itself is "".
func path(stack []frame) string {
	var b strings.Builder
	for _, f := range stack {
		if f.object {
			if f.expectKey { // in a key, or before one: the object is the place
				break
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
			continue
		}
		fmt.Fprintf(&b, "[%d]", f.index)
	}
	return b.String()
}
