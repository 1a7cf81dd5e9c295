package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// MarshalJSON writes the members in order. A nil object is written as {}.
func (o *Object) MarshalJSON() ([]byte, error) {
	return appendObject(make([]byte, 0, 64+32*o.Len()), o)
}

// UnmarshalJSON reads an object in document order; nested objects become *Object, arrays
// []any, numbers float64. A repeated key keeps its first position and its last value, as
// JSON.parse does.
func (o *Object) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want a JSON object, got %s", describeToken(tok))
	}
	o.members, o.index = o.members[:0], nil
	return decodeMembers(dec, o)
}

// DecodeJSONValue decodes one JSON document with objects as *Object (see Object.UnmarshalJSON).
// Errors are encoding/json's ("unexpected end of JSON input", "invalid character …").
func DecodeJSONValue(b []byte) (any, error) {
	v, err := decodeJSONValue(b)
	if err != nil {
		// The decoder words some errors differently (a truncated document is "EOF"): the
		// message people see is encoding/json's, as before.
		if serr := json.Unmarshal(b, new(any)); serr != nil {
			return nil, serr
		}
		return nil, err
	}
	return v, nil
}

func decodeJSONValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("invalid character after top-level value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return decodeFrom(dec, tok)
}

func decodeFrom(dec *json.Decoder, tok json.Token) (any, error) {
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := NewObject(4)
			return o, decodeMembers(dec, o)
		case '[':
			s := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				s = append(s, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return s, nil
		}
		return nil, fmt.Errorf("unexpected %q", rune(t))
	}
	return tok, nil
}

// decodeMembers reads members up to and including the closing brace.
func decodeMembers(dec *json.Decoder, o *Object) error {
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := kt.(string)
		if !ok {
			return fmt.Errorf("want an object key, got %s", describeToken(kt))
		}
		v, err := decodeValue(dec)
		if err != nil {
			return err
		}
		o.Set(key, v)
	}
	_, err := dec.Token()
	return err
}

// AppendJSON appends the JSON text of a JSON-like value (objects, Go maps with sorted keys,
// slices, strings, numbers, booleans, nil); other values go through encoding/json.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case float64:
		return appendFloat(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case json.Number:
		if x == "" {
			return append(b, '0'), nil
		}
		return append(b, x...), nil
	case *Object:
		return appendObject(b, x)
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = AppendJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var err error
			if b, err = AppendJSON(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

func appendObject(b []byte, o *Object) ([]byte, error) {
	b = append(b, '{')
	for i, e := range o.Members() {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, e.Key)
		b = append(b, ':')
		var err error
		if b, err = AppendJSON(b, e.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendFloat formats a number as encoding/json does (and as JavaScript prints it).
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 is written 1e-7, as JavaScript does.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// appendString writes a JSON string escaped as encoding/json does (HTML characters, U+2028,
// U+2029 and invalid UTF-8 included).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
