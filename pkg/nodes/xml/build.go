package xml

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// buildOptions are xml2js's Builder options the node offers, with their defaults.
type buildOptions struct {
	attrKey, charKey    string
	rootName            string
	headless            bool
	cdata               bool
	allowSurrogateChars bool
}

// node is one XML node of the document being built: an element or text.
type node struct {
	name     string
	attrs    [][2]string
	children []*node
	text     *string // text nodes only
	raw      bool    // text written as is (CDATA)
}

// build converts item data to an XML document as xml2js's Builder does and renders it as
// xmlbuilder does with pretty printing (two spaces, "\n").
func build(data *workflow.Object, o buildOptions) (string, error) {
	rootName := o.rootName
	var rootValue any = data
	if data.Len() == 1 && o.rootName == "root" {
		for k, v := range data.All() {
			rootName, rootValue = k, v
		}
	}
	b := &builder{o: o}
	root, err := b.element(rootName)
	if err != nil {
		return "", err
	}
	if err := b.render(root, rootValue); err != nil {
		return "", err
	}
	var sb strings.Builder
	if !o.headless {
		sb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n")
	}
	write(&sb, root, 0)
	return strings.TrimSuffix(sb.String(), "\n"), nil
}

type builder struct {
	o buildOptions
}

func (b *builder) element(name string) (*node, error) {
	if !legalName(name) {
		return nil, fmt.Errorf("Invalid character in name: %s", name)
	}
	return &node{name: name}, nil
}

func (b *builder) child(parent *node, name string) (*node, error) {
	e, err := b.element(name)
	if err != nil {
		return nil, err
	}
	parent.children = append(parent.children, e)
	return e, nil
}

func (b *builder) addText(e *node, s string) error {
	if err := b.legalChars(s); err != nil {
		return err
	}
	if b.o.cdata && requiresCDATA(s) {
		wrapped := "<![CDATA[" + strings.ReplaceAll(s, "]]>", "]]]]><![CDATA[>") + "]]>"
		e.children = append(e.children, &node{text: &wrapped, raw: true})
		return nil
	}
	e.children = append(e.children, &node{text: &s})
	return nil
}

func requiresCDATA(s string) bool { return strings.ContainsAny(s, "&<>") }

// render adds what obj holds to the element e.
func (b *builder) render(e *node, obj any) error {
	switch v := obj.(type) {
	case *workflow.Object:
		for key, child := range v.All() {
			if err := b.renderKey(e, key, child); err != nil {
				return err
			}
		}
	case map[string]any:
		return b.render(e, workflow.ObjectFromMap(v))
	case []any:
		// A list directly inside a list: each entry's keys become elements.
		for _, entry := range v {
			entryObj, ok := workflow.AsObject(entry)
			if !ok {
				continue
			}
			for key, value := range entryObj.All() {
				c, err := b.child(e, key)
				if err != nil {
					return err
				}
				if err := b.render(c, value); err != nil {
					return err
				}
			}
		}
	case nil:
	default:
		return b.addText(e, jsv.ToString(v))
	}
	return nil
}

func (b *builder) renderKey(e *node, key string, child any) error {
	switch {
	case key == b.o.attrKey:
		attrs, ok := workflow.AsObject(child)
		if !ok {
			return nil
		}
		for name, value := range attrs.All() {
			if value == nil {
				continue
			}
			if !legalName(name) {
				return fmt.Errorf("Invalid character in name: %s", name)
			}
			s := stringOf(value)
			if err := b.legalChars(s); err != nil {
				return err
			}
			e.attrs = append(e.attrs, [2]string{name, s})
		}
		return nil
	case key == b.o.charKey:
		if _, isObj := workflow.AsObject(child); isObj || child == nil {
			return nil
		}
		return b.addText(e, stringOf(child))
	}
	switch v := child.(type) {
	case []any:
		for _, entry := range v {
			c, err := b.child(e, key)
			if err != nil {
				return err
			}
			if s, ok := entry.(string); ok {
				if err := b.addText(c, s); err != nil {
					return err
				}
				continue
			}
			if err := b.render(c, entry); err != nil {
				return err
			}
		}
		return nil
	case *workflow.Object, map[string]any, nil:
		c, err := b.child(e, key)
		if err != nil {
			return err
		}
		return b.render(c, v)
	default:
		c, err := b.child(e, key)
		if err != nil {
			return err
		}
		return b.addText(c, stringOf(v))
	}
}

func stringOf(v any) string {
	if _, ok := workflow.AsObject(v); ok {
		return "[object Object]"
	}
	return jsv.ToString(v)
}

// write renders e at the given depth as xmlbuilder's pretty writer does.
func write(sb *strings.Builder, e *node, depth int) {
	indent := strings.Repeat("  ", depth)
	if e.text != nil {
		sb.WriteString(indent)
		writeText(sb, e)
		sb.WriteString("\n")
		return
	}
	sb.WriteString(indent + "<" + e.name)
	for _, a := range e.attrs {
		sb.WriteString(" " + a[0] + `="` + escapeAttr(a[1]) + `"`)
	}
	empty := true
	for _, c := range e.children {
		if c.text == nil || *c.text != "" {
			empty = false
			break
		}
	}
	switch {
	case empty:
		sb.WriteString("/>\n")
	case len(e.children) == 1 && e.children[0].text != nil:
		sb.WriteString(">")
		writeText(sb, e.children[0])
		sb.WriteString("</" + e.name + ">\n")
	default:
		sb.WriteString(">\n")
		for _, c := range e.children {
			write(sb, c, depth+1)
		}
		sb.WriteString(indent + "</" + e.name + ">\n")
	}
}

func writeText(sb *strings.Builder, t *node) {
	if t.raw {
		sb.WriteString(*t.text)
		return
	}
	sb.WriteString(escapeText(*t.text))
}

var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")

func escapeText(s string) string { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }

// legalChars refuses characters XML 1.0 does not allow, as xmlbuilder does.
func (b *builder) legalChars(s string) error {
	for i, r := range []rune(s) {
		ok := r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
		if r == utf8.RuneError && !b.o.allowSurrogateChars {
			ok = false
		}
		if !ok {
			return fmt.Errorf("Invalid character in string: %s at index %d", s, i)
		}
	}
	return nil
}

// legalName tells whether s is an XML name.
func legalName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !isNameStart(r) && (i == 0 || !isNameChar(r)) {
			return false
		}
	}
	return true
}

func isNameStart(r rune) bool {
	return r == ':' || r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') ||
		(r >= 0xC0 && r <= 0xD6) || (r >= 0xD8 && r <= 0xF6) || (r >= 0xF8 && r <= 0x2FF) ||
		(r >= 0x370 && r <= 0x37D) || (r >= 0x37F && r <= 0x1FFF) || (r >= 0x200C && r <= 0x200D) ||
		(r >= 0x2070 && r <= 0x218F) || (r >= 0x2C00 && r <= 0x2FEF) || (r >= 0x3001 && r <= 0xD7FF) ||
		(r >= 0xF900 && r <= 0xFDCF) || (r >= 0xFDF0 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0xEFFFF)
}

func isNameChar(r rune) bool {
	return isNameStart(r) || r == '-' || r == '.' || (r >= '0' && r <= '9') || r == 0xB7 ||
		(r >= 0x300 && r <= 0x36F) || (r >= 0x203F && r <= 0x2040)
}
