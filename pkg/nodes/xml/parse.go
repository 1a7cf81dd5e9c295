package xml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// parseOptions are xml2js's Parser options the node offers, with n8n's defaults.
type parseOptions struct {
	attrKey, charKey string
	explicitArray    bool
	explicitRoot     bool
	ignoreAttrs      bool
	mergeAttrs       bool
	normalize        bool
	normalizeTags    bool
	trim             bool
}

// element is an open element: its text so far and its object (attributes, then children).
type element struct {
	name string
	text strings.Builder
	obj  *workflow.Object
}

var spaces = regexp.MustCompile(`\s{2,}`)

// parse converts an XML document as xml2js's Parser does: an element becomes an object of its
// attributes and children (a repeated child becomes a list), its text goes to the character key,
// and an element with text only becomes that text. The result is nil for a blank document.
func parse(doc string, o parseOptions) (any, error) {
	doc = strings.TrimPrefix(doc, "\uFEFF")
	if strings.TrimSpace(doc) == "" {
		return nil, nil
	}
	d := xml.NewDecoder(strings.NewReader(doc))
	d.Strict = true
	var stack []*element
	var result any
	done := false
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, syntaxError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if done {
				return nil, errors.New("Text data outside of root node.")
			}
			name := qualified(t.Name)
			if o.normalizeTags {
				name = strings.ToLower(name)
			}
			e := &element{name: name, obj: workflow.NewObject(len(t.Attr) + 1)}
			if !o.ignoreAttrs {
				for _, a := range t.Attr {
					key := qualified(a.Name)
					if o.mergeAttrs {
						assignOrPush(e.obj, key, a.Value, o.explicitArray)
						continue
					}
					attrs, ok := e.obj.Get(o.attrKey).(*workflow.Object)
					if !ok {
						attrs = workflow.NewObject(len(t.Attr))
						e.obj.Set(o.attrKey, attrs)
					}
					attrs.Set(key, a.Value)
				}
			}
			stack = append(stack, e)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].name != normalizedName(t.Name, o) {
				line, _ := d.InputPos()
				return nil, fmt.Errorf("Unexpected close tag\nLine: %d", line-1)
			}
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			value := e.close(o)
			if len(stack) > 0 {
				assignOrPush(stack[len(stack)-1].obj, e.name, value, o.explicitArray)
				continue
			}
			if o.explicitRoot {
				value = workflow.ObjectOf(e.name, value)
			}
			result, done = value, true
		case xml.CharData:
			if len(stack) == 0 {
				if len(bytes.TrimSpace(t)) > 0 {
					if done {
						return nil, errors.New("Text data outside of root node.")
					}
					return nil, errors.New("Non-whitespace before first tag.")
				}
				continue
			}
			stack[len(stack)-1].text.Write(t)
		}
	}
	if len(stack) > 0 {
		return nil, errors.New("Unclosed root tag")
	}
	if !done {
		return nil, errors.New("Unexpected end")
	}
	return result, nil
}

func normalizedName(n xml.Name, o parseOptions) string {
	if o.normalizeTags {
		return strings.ToLower(qualified(n))
	}
	return qualified(n)
}

func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// close gives the value of a finished element. Blank text is dropped; text alone makes the
// element a string; an element with nothing becomes its blank text ("" for none).
func (e *element) close(o parseOptions) any {
	text := e.text.String()
	emptyText := ""
	obj := e.obj
	if strings.TrimSpace(text) == "" {
		emptyText = text
	} else {
		if o.trim {
			text = strings.TrimSpace(text)
		}
		if o.normalize {
			text = strings.TrimSpace(spaces.ReplaceAllString(text, " "))
		}
		if obj.Len() == 0 {
			return text
		}
		// The text comes first, as xml2js creates the character key before anything else.
		withText := workflow.NewObject(obj.Len() + 1)
		withText.Set(o.charKey, text)
		for k, v := range obj.All() {
			withText.Set(k, v)
		}
		obj = withText
	}
	if obj.Len() == 0 {
		return emptyText
	}
	return obj
}

// assignOrPush sets key, turning it into a list when it repeats (always a list with
// explicitArray).
func assignOrPush(obj *workflow.Object, key string, value any, explicitArray bool) {
	old, ok := obj.Lookup(key)
	if !ok {
		if explicitArray {
			obj.Set(key, []any{value})
		} else {
			obj.Set(key, value)
		}
		return
	}
	list, isList := old.([]any)
	if !isList {
		list = []any{old}
	}
	obj.Set(key, append(list, value))
}

// syntaxError words a decoder error without Go's prefix.
func syntaxError(err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s\nLine: %d", upperFirst(se.Msg), se.Line-1)
	}
	return err
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
