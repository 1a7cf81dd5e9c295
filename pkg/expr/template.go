package expr

import "strings"

// segment is one piece of a template: literal text, or the JavaScript source between {{ and }}.
type segment struct {
	text   string
	isCode bool
}

// template is a parsed expression string (without its leading "=").
type template struct {
	segments []segment
	// lone is set when the template is a single {{ }} with only whitespace around it; its
	// value then keeps its JavaScript type instead of being turned into text.
	lone bool
}

// parseTemplate splits a template into text and code segments. A code segment ends at the
// first "}}" that is outside string literals, template literals, comments and braces opened
// inside the segment, so object literals such as {{ {a: {b: 1}} }} work. "\{{" is a literal
// "{{". An unterminated "{{" is kept as text, as n8n does.
func parseTemplate(src string) template {
	var t template
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			t.segments = append(t.segments, segment{text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(src); {
		if src[i] == '\\' && strings.HasPrefix(src[i+1:], "{{") {
			text.WriteString("{{")
			i += 3
			continue
		}
		if !strings.HasPrefix(src[i:], "{{") {
			text.WriteByte(src[i])
			i++
			continue
		}
		end := scanCode(src, i+2)
		if end < 0 {
			text.WriteString(src[i:])
			break
		}
		flush()
		t.segments = append(t.segments, segment{text: src[i+2 : end], isCode: true})
		i = end + 2
	}
	flush()

	codes := 0
	for _, s := range t.segments {
		if s.isCode {
			codes++
		} else if strings.TrimSpace(s.text) != "" {
			return t
		}
	}
	t.lone = codes == 1
	return t
}

// scanCode returns the index of the "}}" closing the code that starts at from, or -1.
func scanCode(src string, from int) int {
	depth := 0
	// templates holds the brace depth at which each open template literal's ${ started.
	var templates []int
	// prev is the last significant character before i, to tell a regular expression literal
	// from a division.
	prev := byte(0)
	// templateFrom scans template literal text from j; it returns where the scan stopped.
	templateFrom := func(j int) int {
		end, opened := skipTemplateLiteral(src, j)
		if end >= 0 && opened {
			templates = append(templates, depth)
			depth++
		}
		return end
	}
	for i := from; i < len(src); i++ {
		c := src[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '\'', '"':
			i = skipQuoted(src, i, c)
			if i < 0 {
				return -1
			}
		case '`':
			if i = templateFrom(i + 1); i < 0 {
				return -1
			}
		case '/':
			switch {
			case i+1 < len(src) && src[i+1] == '/':
				nl := strings.IndexByte(src[i:], '\n')
				if nl < 0 {
					// A line comment runs to the end; "}}" inside it still closes the segment.
					if k := strings.Index(src[i:], "}}"); k >= 0 && depth == 0 {
						return i + k
					}
					return -1
				}
				i += nl
				continue
			case i+1 < len(src) && src[i+1] == '*':
				k := strings.Index(src[i+2:], "*/")
				if k < 0 {
					return -1
				}
				i += k + 3
				continue
			case regexAllowedAfter(src, from, i, prev):
				j := skipRegex(src, i)
				if j < 0 {
					return -1
				}
				i = j
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				if i+1 < len(src) && src[i+1] == '}' {
					return i
				}
				break
			}
			depth--
			if n := len(templates); n > 0 && templates[n-1] == depth {
				// End of a ${ } substitution: continue the template literal.
				templates = templates[:n-1]
				if i = templateFrom(i + 1); i < 0 {
					return -1
				}
			}
		}
		prev = src[i]
	}
	return -1
}

// regexAllowedAfter reports whether a "/" at i, after the significant character prev,
// starts a regular expression literal rather than a division: at the start of the code,
// after an operator or opening bracket, or after a keyword such as return or typeof.
func regexAllowedAfter(src string, from, i int, prev byte) bool {
	if prev == 0 || strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0 {
		return true
	}
	j := i
	for j > from && (src[j-1] == ' ' || src[j-1] == '\t' || src[j-1] == '\n' || src[j-1] == '\r') {
		j--
	}
	k := j
	for k > from && isIdentChar(src[k-1]) {
		k--
	}
	switch src[k:j] {
	case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await":
		return true
	}
	return false
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// skipRegex returns the index of the "/" closing the regular expression literal starting at
// i, or -1 when the line ends first. A "/" inside a character class does not close it.
func skipRegex(src string, i int) int {
	inClass := false
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				return j
			}
		case '\n':
			return -1
		}
	}
	return -1
}

// skipQuoted returns the index of the quote closing the string that starts at i, or -1.
func skipQuoted(src string, i int, quote byte) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case quote:
			return j
		case '\n':
			return -1
		}
	}
	return -1
}

// skipTemplateLiteral scans a template literal body starting at i. It returns the index of
// the closing backtick (opened=false) or of the "{" of a "${" substitution (opened=true), or
// -1 when the literal is not terminated.
func skipTemplateLiteral(src string, i int) (int, bool) {
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '`':
			return j, false
		case '$':
			if j+1 < len(src) && src[j+1] == '{' {
				return j + 1, true
			}
		}
	}
	return -1, false
}
