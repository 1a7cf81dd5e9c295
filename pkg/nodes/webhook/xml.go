package webhook

import (
	"github.com/flowmill/flowmill/pkg/workflow"

	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/flowmill/flowmill/pkg/nesting"
)

// xmlBody reads an XML body the way n8n's parser (xml2js with normalize, normalizeTags and
// explicitArray off) does: {root: …}, tag names in lower case, attributes under "$", text of an
// element with attributes or children under "_", repeated children as lists, an empty element as
// "". Elements are read with an explicit stack, not recursion, and nesting deeper than
// nesting.Max is refused.
func xmlBody(raw []byte) (any, error) {
	dec := xml.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return workflow.NewObject(0), nil
		}
		if err != nil {
			return nil, fmt.Errorf("webhook: body is not valid XML: %w", err)
		}
		if start, ok := tok.(xml.StartElement); ok {
			v, err := xmlElement(dec, start)
			if nesting.IsTooDeep(err) {
				return nil, fmt.Errorf("webhook: body is not accepted: %w", err)
			}
			if err != nil {
				return nil, fmt.Errorf("webhook: body is not valid XML: %w", err)
			}
			return workflow.ObjectOf(strings.ToLower(start.Name.Local), v), nil
		}
	}
}

// xmlFrame is an element being read: its name, attributes and children so far, and its text.
type xmlFrame struct {
	name string
	obj  *workflow.Object // in document order, as xml2js keeps it
	text strings.Builder
}

func newXMLFrame(start xml.StartElement) *xmlFrame {
	f := &xmlFrame{name: strings.ToLower(start.Name.Local), obj: workflow.NewObject(0)}
	if len(start.Attr) > 0 {
		attrs := workflow.NewObject(len(start.Attr))
		for _, a := range start.Attr {
			attrs.Set(a.Name.Local, a.Value)
		}
		f.obj.Set("$", attrs)
	}
	return f
}

// value is the element's item value once its end tag is read.
func (f *xmlFrame) value() any {
	s := strings.Join(strings.Fields(f.text.String()), " ")
	if f.obj.Len() == 0 {
		return s
	}
	if s != "" {
		f.obj.Set("_", s)
	}
	return f.obj
}

// add puts a child element's value under its name, a list when the name repeats.
func (f *xmlFrame) add(name string, v any) {
	prev, ok := f.obj.Lookup(name)
	switch p := prev.(type) {
	case nil:
		if !ok {
			f.obj.Set(name, v)
		}
	case []any:
		f.obj.Set(name, append(p, v))
	default:
		f.obj.Set(name, []any{p, v})
	}
}

// xmlElement reads the element start opens, up to its end tag.
func xmlElement(dec *xml.Decoder, start xml.StartElement) (any, error) {
	stack := []*xmlFrame{newXMLFrame(start)}
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack)+1 > nesting.Max {
				return nil, nesting.ErrTooDeep
			}
			stack = append(stack, newXMLFrame(t))
		case xml.CharData:
			top.text.Write(t)
		case xml.EndElement:
			v := top.value()
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return v, nil
			}
			stack[len(stack)-1].add(top.name, v)
		}
	}
}
