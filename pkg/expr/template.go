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
	for i := from; i < len(src); i++ {
		switch c := src[i]; c {
		case '\'', '"':
			i = skipQuoted(src, i, c)
			if i < 0 {
				return -1
			}
		case '`':
			j, opened := skipTemplateLiteral(src, i+1)
			if j < 0 {
				return -1
			}
			i = j
			if opened {
				templates = append(templates, depth)
				depth++
			}
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				nl := strings.IndexByte(src[i:], '\n')
				if nl < 0 {
					// A line comment runs to the end; "}}" inside it still closes the segment.
					if k := strings.Index(src[i:], "}}"); k >= 0 && depth == 0 {
						return i + k
					}
					return -1
				}
				i += nl
			} else if i+1 < len(src) && src[i+1] == '*' {
				k := strings.Index(src[i+2:], "*/")
				if k < 0 {
					return -1
				}
				i += k + 3
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				if i+1 < len(src) && src[i+1] == '}' {
					return i
				}
				continue
			}
			depth--
			if n := len(templates); n > 0 && templates[n-1] == depth {
				// End of a ${ } substitution: continue the template literal.
				templates = templates[:n-1]
				j, opened := skipTemplateLiteral(src, i+1)
				if j < 0 {
					return -1
				}
				i = j
				if opened {
					templates = append(templates, depth)
					depth++
				}
			}
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
