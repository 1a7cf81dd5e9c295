package webhook

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// xmlBody reads an XML body the way n8n's parser (xml2js with normalize, normalizeTags and
// explicitArray off) does: {root: …}, tag names in lower case, attributes under "$", text of an
// element with attributes or children under "_", repeated children as lists, an empty element as
// "".
func xmlBody(raw []byte) (any, error) {
	dec := xml.NewDecoder(strings.NewReader(string(raw)))
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
			if err != nil {
				return nil, fmt.Errorf("webhook: body is not valid XML: %w", err)
			}
			return map[string]any{strings.ToLower(start.Name.Local): v}, nil
		}
	}
}

func xmlElement(dec *xml.Decoder, start xml.StartElement) (any, error) {
	obj := map[string]any{}
	if len(start.Attr) > 0 {
		attrs := map[string]any{}
		for _, a := range start.Attr {
			attrs[a.Name.Local] = a.Value
		}
		obj["$"] = attrs
	}
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			v, err := xmlElement(dec, t)
			if err != nil {
				return nil, err
			}
			name := strings.ToLower(t.Name.Local)
			switch prev := obj[name].(type) {
			case nil:
				obj[name] = v
			case []any:
				obj[name] = append(prev, v)
			default:
				obj[name] = []any{prev, v}
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			s := strings.Join(strings.Fields(text.String()), " ")
			if len(obj) == 0 {
				return s, nil
			}
			if s != "" {
				obj["_"] = s
			}
			return obj, nil
		}
	}
}
