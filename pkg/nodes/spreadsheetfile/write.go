package spreadsheetfile

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var mimeTypes = map[string]string{
	"csv":  "text/csv",
	"html": "text/html",
	"ods":  "application/vnd.oasis.opendocument.spreadsheet",
	"rtf":  "application/rtf",
	"xls":  "application/vnd.ms-excel",
	"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}

// toFile writes all input items into one spreadsheet file: one column per key (in the order the
// keys first appear), a header row of the keys unless Header Row is off.
func toFile(ex *nodes.Execution) ([]workflow.Item, error) {
	items := ex.InputData(0)
	paired := make(workflow.PairedItems, len(items))
	for i := range items {
		paired[i] = workflow.PairedItem{Item: i}
	}
	item, err := writeFile(ex, items)
	if err != nil {
		if !ex.ContinueOnFail() {
			return nil, err
		}
		errItem := ex.ErrorItem(err, 0)
		errItem.PairedItem = &paired
		return []workflow.Item{errItem}, nil
	}
	item.PairedItem = &paired
	return []workflow.Item{item}, nil
}

func writeFile(ex *nodes.Execution, items []workflow.Item) (workflow.Item, error) {
	prop, err := ex.ParamString("binaryPropertyName", 0)
	if err != nil {
		return workflow.Item{}, err
	}
	format, err := ex.ParamString("fileFormat", 0)
	if err != nil {
		return workflow.Item{}, err
	}
	if format == "" {
		format = "xls"
	}
	m, err := ex.ParamMap("options", 0)
	if err != nil {
		return workflow.Item{}, err
	}
	sheetName, _ := m["sheetName"].(string)
	if sheetName == "" {
		sheetName = "Sheet"
	}
	fileName, _ := m["fileName"].(string)
	if fileName == "" {
		fileName = "spreadsheet." + format
	}
	sh := itemsToSheet(items, m["headerRow"] != false)
	var data []byte
	switch format {
	case "csv":
		data = writeCSV(sh)
	case "html":
		data = writeHTML(sh)
	case "rtf":
		data = writeRTF(sh)
	case "xlsx":
		data, err = writeXLSX(sh, sheetName)
	case "ods":
		data, err = writeODS(sh, sheetName)
	case "xls":
		data, err = writeXLS(sh, sheetName)
	default:
		return workflow.Item{}, nodes.Errorf(0, "The file format %q is not supported", format)
	}
	if err != nil {
		return workflow.Item{}, nodes.Errorf(0, "%v", err)
	}
	b := nodes.NewBinary(data, fileName, mimeTypes[format])
	switch format {
	case "html":
		b.FileType = "html"
	case "csv":
		b.FileType = "text"
	default:
		b.FileType = ""
	}
	return workflow.Item{JSON: workflow.NewObject(0), Binary: map[string]workflow.BinaryData{prop: b}}, nil
}

// flatten sets v under key, nested objects and lists as dotted keys ("address.city", "tags.0")
// as n8n's flattenObject does; an empty object or list leaves no key.
func flatten(key string, v any, out *workflow.Object) {
	switch v := v.(type) {
	case *workflow.Object:
		for k, x := range v.All() {
			flatten(key+"."+k, x, out)
		}
	case []any:
		for i, x := range v {
			flatten(key+"."+strconv.Itoa(i), x, out)
		}
	default:
		out.Set(key, v)
	}
}

func flat(o *workflow.Object) *workflow.Object {
	out := workflow.NewObject(o.Len())
	for k, v := range o.All() {
		flatten(k, v, out)
	}
	return out
}

// itemsToSheet lays the items' flattened JSON out as rows, nulls as empty cells.
func itemsToSheet(items []workflow.Item, headerRow bool) sheet {
	var keys []string
	col := map[string]int{}
	rowsJSON := make([]*workflow.Object, len(items))
	for i, it := range items {
		if it.JSON == nil {
			continue
		}
		rowsJSON[i] = flat(it.JSON)
		for _, k := range rowsJSON[i].Keys() {
			if _, ok := col[k]; !ok {
				col[k] = len(keys)
				keys = append(keys, k)
			}
		}
	}
	var sh sheet
	if headerRow {
		row := make([]any, len(keys))
		for i, k := range keys {
			row[i] = k
		}
		sh = append(sh, row)
	}
	for _, o := range rowsJSON {
		row := make([]any, len(keys))
		if o != nil {
			for k, v := range o.All() {
				row[col[k]] = cellValue(v)
			}
		}
		sh = append(sh, row)
	}
	return sh
}

func cellValue(v any) any {
	switch v := v.(type) {
	case nil, string, bool, float64:
		return v
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case json.Number:
		f, _ := v.Float64()
		return f
	}
	b, err := workflow.AppendJSON(nil, v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func writeCSV(sh sheet) []byte {
	var b bytes.Buffer
	b.WriteString("\ufeff")
	for r, row := range sh {
		if r > 0 {
			b.WriteByte('\n')
		}
		for c, v := range row {
			if c > 0 {
				b.WriteByte(',')
			}
			s := formatValue(v)
			if strings.ContainsAny(s, ",\"\n\r") {
				s = `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
			}
			b.WriteString(s)
		}
	}
	return b.Bytes()
}

func writeHTML(sh sheet) []byte {
	var b strings.Builder
	b.WriteString(`<html><head><meta charset="utf-8"/><title>SheetJS Table Export</title></head><body><table>`)
	for r, row := range sh {
		b.WriteString("<tr>")
		for c, v := range row {
			if v == nil {
				b.WriteString("<td></td>")
				continue
			}
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			t := map[bool]string{true: "n", false: "s"}[isNumber(v)]
			if _, ok := v.(bool); ok {
				t = "b"
			}
			raw := formatValue(v)
			if bv, ok := v.(bool); ok {
				raw = fmt.Sprint(bv)
			}
			text := html.EscapeString(formatValue(v))
			fmt.Fprintf(&b, `<td data-t="%s" data-v="%s" id="sjs-%s">%s</td>`, t, html.EscapeString(raw), ref, strings.ReplaceAll(text, "\n", "<br/>"))
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table></body></html>")
	return []byte(b.String())
}

func isNumber(v any) bool { _, ok := v.(float64); return ok }

func writeRTF(sh sheet) []byte {
	var b strings.Builder
	b.WriteString(`{\rtf1\ansi`)
	for _, row := range sh {
		b.WriteString(`\trowd\trautofit1`)
		for c := range row {
			fmt.Fprintf(&b, `\cellx%d`, c+1)
		}
		b.WriteString(`\pard\intbl`)
		for _, v := range row {
			s := strings.NewReplacer(`\`, `\\`, "{", `\{`, "}", `\}`, "\n", `\par `).Replace(formatValue(v))
			b.WriteString(" " + s + `\cell`)
		}
		b.WriteString(`\pard\intbl\row`)
	}
	b.WriteString("}")
	return []byte(b.String())
}

func writeXLSX(sh sheet, sheetName string) ([]byte, error) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", sheetName); err != nil {
		return nil, err
	}
	for r, row := range sh {
		for c, v := range row {
			if v == nil {
				continue
			}
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if err := f.SetCellValue(sheetName, ref, v); err != nil {
				return nil, err
			}
		}
	}
	buf, err := f.WriteToBuffer()
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// writeODS writes an OpenDocument spreadsheet of one table.
func writeODS(sh sheet, sheetName string) ([]byte, error) {
	var content strings.Builder
	content.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` +
		`<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ` +
		`xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" ` +
		`xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">` +
		`<office:body><office:spreadsheet>`)
	fmt.Fprintf(&content, `<table:table table:name="%s">`, html.EscapeString(sheetName))
	for _, row := range sh {
		content.WriteString("<table:table-row>")
		for _, v := range row {
			switch v := v.(type) {
			case nil:
				content.WriteString("<table:table-cell/>")
			case float64:
				fmt.Fprintf(&content, `<table:table-cell office:value-type="float" office:value="%s"><text:p>%s</text:p></table:table-cell>`, formatValue(v), formatValue(v))
			case bool:
				fmt.Fprintf(&content, `<table:table-cell office:value-type="boolean" office:boolean-value="%t"><text:p>%s</text:p></table:table-cell>`, v, formatValue(v))
			default:
				fmt.Fprintf(&content, `<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>`, html.EscapeString(formatValue(v)))
			}
		}
		content.WriteString("</table:table-row>")
	}
	content.WriteString("</table:table></office:spreadsheet></office:body></office:document-content>")
	manifest := `<?xml version="1.0" encoding="UTF-8"?>` +
		`<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">` +
		`<manifest:file-entry manifest:full-path="/" manifest:media-type="` + mimeTypes["ods"] + `"/>` +
		`<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>` +
		`</manifest:manifest>`
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	w, err := z.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store})
	if err != nil {
		return nil, err
	}
	w.Write([]byte(mimeTypes["ods"]))
	for _, f := range []struct{ name, body string }{{"content.xml", content.String()}, {"META-INF/manifest.xml", manifest}} {
		w, err := z.Create(f.name)
		if err != nil {
			return nil, err
		}
		w.Write([]byte(f.body))
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
