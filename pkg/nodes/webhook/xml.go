package webhook

import (
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
			return map[string]any{}, nil
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
			return map[string]any{strings.ToLower(start.Name.Local): v}, nil
		}
	}
}

// xmlFrame is an element being read: its name, attributes and children so far, and its text.
type xmlFrame struct {
	name string
	obj  map[string]any
	text strings.Builder
}

func newXMLFrame(start xml.StartElement) *xmlFrame {
	f := &xmlFrame{name: strings.ToLower(start.Name.Local), obj: map[string]any{}}
	if len(start.Attr) > 0 {
		attrs := map[string]any{}
		for _, a := range start.Attr {
			attrs[a.Name.Local] = a.Value
		}
		f.obj["$"] = attrs
	}
	return f
}

// value is the element's item value once its end tag is read.
func (f *xmlFrame) value() any {
	s := strings.Join(strings.Fields(f.text.String()), " ")
	if len(f.obj) == 0 {
		return s
	}
	if s != "" {
		f.obj["_"] = s
	}
	return f.obj
}

// add puts a child element's value under its name, a list when the name repeats.
func (f *xmlFrame) add(name string, v any) {
	switch prev := f.obj[name].(type) {
	case nil:
		f.obj[name] = v
	case []any:
		f.obj[name] = append(prev, v)
	default:
		f.obj[name] = []any{prev, v}
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
