// Package htmlx extracts values from HTML with CSS selectors, as n8n's HTML Extract node and the
// HTML node's "Extract HTML Content" operation do (cheerio there, goquery here).
package htmlx

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Value is one row of the "Extraction Values" collection.
type Value struct {
	Key         string
	CSSSelector string
	ReturnValue string // attribute, html, text or value
	Attribute   string
	ReturnArray bool
	// SkipSelectors lists selectors whose elements are left out of "text" (HTML node 1.1+).
	SkipSelectors []string
}

// Options are the options shared by every value.
type Options struct {
	TrimValues  bool
	CleanUpText bool // HTML node: collapse whitespace and newlines of the values
	// EmptyTextIsNull makes an empty "text" value null (HTML node), not "" (HTML Extract).
	EmptyTextIsNull bool
}

// ValuesFromParams reads the rows of an extractionValues.values parameter.
func ValuesFromParams(rows []map[string]any) []Value {
	out := make([]Value, 0, len(rows))
	for _, r := range rows {
		v := Value{
			Key:         jsv.ToString(or(r["key"], "")),
			CSSSelector: jsv.ToString(or(r["cssSelector"], "")),
			ReturnValue: jsv.ToString(or(r["returnValue"], "text")),
			Attribute:   jsv.ToString(or(r["attribute"], "")),
			ReturnArray: workflow.Truthy(r["returnArray"]),
		}
		if s := strings.TrimSpace(jsv.ToString(or(r["skipSelectors"], ""))); s != "" {
			for _, part := range strings.Split(s, ",") {
				if part = strings.TrimSpace(part); part != "" {
					v.SkipSelectors = append(v.SkipSelectors, part)
				}
			}
		}
		out = append(out, v)
	}
	return out
}

func or(v, fallback any) any {
	if v == nil {
		return fallback
	}
	return v
}

// Extract parses one HTML document and builds the item JSON: one key per value, in order.
// A value that finds nothing is null, as cheerio's undefined is written.
func Extract(html string, values []Value, opts Options) (*workflow.Object, error) {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		return nil, err
	}
	out := workflow.NewObject(len(values))
	for _, v := range values {
		sel, err := cascadia.Compile(v.CSSSelector)
		if err != nil {
			return nil, fmt.Errorf("Invalid CSS selector %q: %v", v.CSSSelector, err)
		}
		found := doc.FindMatcher(sel)
		if v.ReturnArray {
			list := make([]any, 0, found.Length())
			found.Each(func(_ int, s *goquery.Selection) {
				list = append(list, value(s, v, opts))
			})
			out.Set(v.Key, list)
			continue
		}
		out.Set(v.Key, value(found, v, opts))
	}
	return out, nil
}

// value is cheerio's attr/html/text/val on a selection, trimmed unless trimming is off; nil
// where cheerio answers undefined.
func value(s *goquery.Selection, v Value, opts Options) any {
	var text string
	switch v.ReturnValue {
	case "attribute":
		a, ok := s.Attr(v.Attribute)
		if !ok {
			return nil
		}
		text = a
	case "html":
		h, err := s.Html()
		if err != nil || h == "" {
			return nil
		}
		text = h
	case "value":
		val, ok := formValue(s)
		if !ok {
			return nil
		}
		text = val
	default:
		if len(v.SkipSelectors) > 0 {
			s = s.Clone()
			for _, skip := range v.SkipSelectors {
				if m, err := cascadia.Compile(skip); err == nil {
					s.FindMatcher(m).Remove()
				}
			}
		}
		text = s.Text()
		if text == "" && opts.EmptyTextIsNull {
			return nil
		}
	}
	if opts.CleanUpText {
		text = cleanUp(text)
	}
	if opts.TrimValues {
		text = strings.TrimSpace(text)
	}
	return text
}

// formValue is cheerio's .val() for the first element: the value attribute of a select's
// selected option, a textarea's text, otherwise the element's value attribute.
func formValue(s *goquery.Selection) (string, bool) {
	if s.Length() == 0 {
		return "", false
	}
	first := s.First()
	switch goquery.NodeName(first) {
	case "textarea":
		return first.Text(), true
	case "select":
		// The selected option, else (without "multiple") the first one; its value attribute.
		opt := first.Find("option[selected]").First()
		if opt.Length() == 0 {
			if _, multiple := first.Attr("multiple"); multiple {
				return "", false
			}
			opt = first.Find("option").First()
		}
		return opt.Attr("value")
	case "option":
		return first.Attr("value")
	}
	return first.Attr("value")
}

// cleanUp is the HTML node's "Clean Up Text": outer whitespace goes, line breaks are removed
// and runs of whitespace become one space.
func cleanUp(s string) string {
	s = strings.TrimSpace(s)
	s = strings.NewReplacer("\r\n", "", "\n", "", "\r", "").Replace(s)
	return strings.Join(strings.FieldsFunc(s, isSpace), " ")
}

func isSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\uFEFF'
}
