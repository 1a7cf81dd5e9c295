// Package html is the HTML node (versions 1 and 1.1): it generates HTML from a template with
// {{ }} expressions, extracts values from HTML with CSS selectors (as HTML Extract does) or
// converts all input items into one HTML table.
package html

import (
	"context"
	_ "embed"
	"regexp"
	"strings"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/htmlextract"
	"github.com/flowmill/flowmill/pkg/nodes/internal/htmlx"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Type returns the node type for registration.
func Type() nodes.Type {
	t := nodes.Define(descriptionJSON, nodes.KindAction, execute)
	t.EffectFree = true
	return t
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	operation, err := ex.ParamString("operation", 0)
	if err != nil {
		return nil, err
	}
	if operation == "convertToHtmlTable" {
		if len(items) == 0 {
			return [][]workflow.Item{{}}, nil
		}
		item, err := table(ex, items)
		if err != nil {
			return nil, err
		}
		return [][]workflow.Item{{item}}, nil
	}
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var produced []workflow.Item
		switch operation {
		case "generateHtmlTemplate":
			produced, err = template(ex, i)
		case "extractHtmlContent":
			produced, err = extract(ex, item, i)
		default:
			err = nodes.Errorf(i, "The operation %q is not supported!", operation)
		}
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		out = append(out, produced...)
	}
	return [][]workflow.Item{out}, nil
}

var resolvable = regexp.MustCompile(`\{\{[\s\S]*?\}\}`)

// template replaces each {{ … }} of the template by its value for the item.
func template(ex *nodes.Execution, i int) ([]workflow.Item, error) {
	html, err := ex.ParamString("html", i)
	if err != nil {
		return nil, err
	}
	for _, r := range resolvable.FindAllString(html, -1) {
		v, err := ex.Evaluate("="+r, i)
		if err != nil {
			return nil, err
		}
		text := valueString(v)
		if v == nil {
			// null and undefined both come back as nil; String() tells them apart.
			inner := strings.TrimSuffix(strings.TrimPrefix(r, "{{"), "}}")
			if s, err := ex.Evaluate("={{ String((\n"+inner+"\n)) }}", i); err == nil {
				text = valueString(s)
			}
		}
		html = strings.Replace(html, r, text, 1)
	}
	return []workflow.Item{{JSON: workflow.ObjectOf("html", html), PairedItem: &workflow.PairedItems{{Item: i}}}}, nil
}

// valueString is JavaScript's String(v), as String.replace writes a value.
func valueString(v any) string { return jsv.ToString(v) }

func extract(ex *nodes.Execution, item workflow.Item, i int) ([]workflow.Item, error) {
	property, err := ex.ParamString("dataPropertyName", i)
	if err != nil {
		return nil, err
	}
	source, err := ex.ParamString("sourceData", i)
	if err != nil {
		return nil, err
	}
	rows, err := ex.ParamList("extractionValues.values", i)
	if err != nil {
		return nil, err
	}
	options, err := ex.ParamMap("options", i)
	if err != nil {
		return nil, err
	}
	var docs []string
	if source != "binary" && ex.TypeVersion() < 1.1 {
		// Version 1 reads a top-level key only (['key'] and ["key"] name it too); dot notation
		// came with 1.1.
		v, ok := item.JSON.Lookup(property)
		if !ok && len(property) >= 4 && (strings.HasPrefix(property, "['") && strings.HasSuffix(property, "']") ||
			strings.HasPrefix(property, `["`) && strings.HasSuffix(property, `"]`)) {
			v, ok = item.JSON.Lookup(property[2 : len(property)-2])
		}
		if !ok {
			return nil, nodes.Errorf(i, "No property named %q exists!", property)
		}
		docs, err = htmlextract.Documents(workflow.Item{JSON: workflow.ObjectOf("v", v)}, source, "v", i)
	} else {
		docs, err = htmlextract.Documents(item, source, property, i)
	}
	if err != nil {
		return nil, err
	}
	opts := htmlx.Options{
		TrimValues:      options["trimValues"] != false,
		CleanUpText:     workflow.Truthy(options["cleanUpText"]),
		EmptyTextIsNull: true,
	}
	values := htmlx.ValuesFromParams(rows)
	out := make([]workflow.Item, 0, len(docs))
	for _, doc := range docs {
		json, err := htmlx.Extract(doc, values, opts)
		if err != nil {
			return nil, nodes.Errorf(i, "%v", err)
		}
		out = append(out, workflow.Item{JSON: json, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return out, nil
}

const (
	tableStyle  = "style='border-spacing:0; font-family:helvetica,arial,sans-serif'"
	headerStyle = "style='margin:0; padding:7px 20px 7px 0px; border-bottom:1px solid #eee; text-align:left; color:#888; font-weight:normal'"
	cellStyle   = "style='margin:0; padding:7px 20px 7px 0px; border-bottom:1px solid #eee'"
)

// table builds one HTML table of all items: a column per key (in the order keys first
// appear), a row per item, booleans as checkboxes.
func table(ex *nodes.Execution, items []workflow.Item) (workflow.Item, error) {
	options, err := ex.ParamMap("options", 0)
	if err != nil {
		return workflow.Item{}, err
	}
	tStyle, hStyle, cStyle := tableStyle, headerStyle, cellStyle
	if workflow.Truthy(options["customStyling"]) {
		tStyle, hStyle, cStyle = "", "", ""
	}
	var headers []string
	seen := map[string]bool{}
	for _, item := range items {
		if item.JSON == nil {
			continue
		}
		for _, k := range item.JSON.Keys() {
			if !seen[k] {
				seen[k] = true
				headers = append(headers, k)
			}
		}
	}
	var b strings.Builder
	b.WriteString("<table " + tStyle + " " + optString(options["tableAttributes"]) + ">")
	if c := optString(options["caption"]); c != "" {
		b.WriteString("<caption>" + c + "</caption>")
	}
	b.WriteString("<thead " + hStyle + " " + optString(options["headerAttributes"]) + ">")
	b.WriteString("<tr>")
	capitalize := workflow.Truthy(options["capitalize"])
	for _, h := range headers {
		b.WriteString("<th>" + capitalizeHeader(h, capitalize) + "</th>")
	}
	b.WriteString("</tr></thead><tbody>")
	paired := make(workflow.PairedItems, 0, len(items))
	for i, item := range items {
		paired = append(paired, workflow.PairedItem{Item: i})
		rowAttrs, err := ex.ParamOr("options.rowAttributes", i, "")
		if err != nil {
			return workflow.Item{}, err
		}
		cellAttrs, err := ex.ParamOr("options.cellAttributes", i, "")
		if err != nil {
			return workflow.Item{}, err
		}
		b.WriteString("<tr  " + optString(rowAttrs) + ">")
		for _, h := range headers {
			b.WriteString("<td " + cStyle + " " + optString(cellAttrs) + ">")
			v, ok := item.JSON.Lookup(h)
			switch x := v.(type) {
			case bool:
				if x {
					b.WriteString(`<input type="checkbox" checked="checked"/>`)
				} else {
					b.WriteString(`<input type="checkbox" />`)
				}
			default:
				if !ok {
					b.WriteString("undefined")
				} else {
					b.WriteString(jsv.ToString(v))
				}
			}
			b.WriteString("</td>")
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</tbody></table>")
	return workflow.Item{JSON: workflow.ObjectOf("table", b.String()), PairedItem: &paired}, nil
}

func optString(v any) string {
	if v == nil || v == "" || v == false {
		return ""
	}
	return jsv.ToString(v)
}

// capitalizeHeader turns "first_name" into "First Name" when asked.
func capitalizeHeader(h string, capitalize bool) string {
	if !capitalize {
		return h
	}
	var words []string
	for _, w := range strings.Split(h, "_") {
		if w == "" {
			continue
		}
		r := []rune(w)
		words = append(words, strings.ToUpper(string(r[0]))+string(r[1:]))
	}
	return strings.Join(words, " ")
}
