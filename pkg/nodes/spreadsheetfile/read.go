package spreadsheetfile

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// fromFile reads the spreadsheet of every input item into one item per row.
func fromFile(ctx context.Context, ex *nodes.Execution) ([]workflow.Item, error) {
	var out []workflow.Item
	for i, item := range ex.InputData(0) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows, err := readItem(ex, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		for _, r := range rows {
			out = append(out, workflow.Item{JSON: r, PairedItem: &workflow.PairedItems{{Item: i}}})
		}
	}
	return out, nil
}

type readOptions struct {
	headerRow, includeEmpty, raw, bom, relaxQuotes bool
	delimiter, encoding, sheetName                 string
	rangeSpec                                      any
	maxRows, fromLine                              int
	// maxUnpacked caps the bytes an XLSX or ODS file may unpack to (FLOWMILL_UNPACK_MAX_SIZE).
	maxUnpacked int64
}

func options(ex *nodes.Execution, i int) (readOptions, error) {
	m, err := ex.ParamMap("options", i)
	if err != nil {
		return readOptions{}, err
	}
	o := readOptions{headerRow: m["headerRow"] != false, delimiter: ",", maxRows: -1, rangeSpec: m["range"],
		maxUnpacked: ex.UnpackMaxBytes()}
	o.includeEmpty, _ = m["includeEmptyCells"].(bool)
	o.raw, _ = m["rawData"].(bool)
	o.bom, _ = m["enableBOM"].(bool)
	o.relaxQuotes, _ = m["relaxQuotes"].(bool)
	if d, ok := m["delimiter"].(string); ok && d != "" {
		o.delimiter = d
	}
	o.encoding, _ = m["encoding"].(string)
	o.sheetName, _ = m["sheetName"].(string)
	if n, ok := m["maxRowCount"].(float64); ok {
		o.maxRows = int(n)
	}
	if n, ok := m["fromLine"].(float64); ok {
		o.fromLine = int(n)
	}
	return o, nil
}

func readItem(ex *nodes.Execution, item workflow.Item, i int) ([]*workflow.Object, error) {
	o, err := options(ex, i)
	if err != nil {
		return nil, err
	}
	format := ""
	if ex.TypeVersion() >= 2 {
		if format, err = ex.ParamString("fileFormat", i); err != nil {
			return nil, err
		}
	}
	prop, err := ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return nil, err
	}
	if item.Binary == nil {
		return nil, nodes.Errorf(i, "No binary data exists on item!")
	}
	bin, ok := item.Binary[prop]
	if !ok {
		return nil, nodes.Errorf(i, "Item has no binary property called %q", prop)
	}
	data, err := nodes.BinaryBytes(bin)
	if err != nil {
		return nil, nodes.Errorf(i, "%v", err)
	}
	if format == "autodetect" && (bin.MimeType == "text/csv" || bin.MimeType == "text/plain" && bin.FileExtension == "csv") {
		format = "csv"
	}
	var rows []*workflow.Object
	if format == "csv" {
		rows, err = readCSVRecords(data, o)
	} else {
		rows, err = readSheet(data, bin, o)
	}
	if err != nil {
		if bin.FileExtension != "" && format != "" && format != "autodetect" && bin.FileExtension != format {
			return nil, nodes.Errorf(i, "The file selected in 'Input Binary Field' is not in %s format", format)
		}
		return nil, nodes.Errorf(i, "%s", err.Error())
	}
	return rows, nil
}

// decode turns the CSV bytes into UTF-8 text in the chosen encoding and handles the byte order
// mark: removed when bom is set, kept as part of the first field otherwise.
func decode(data []byte, encoding string, bom bool) (string, error) {
	switch strings.ToLower(encoding) {
	case "latin1", "binary":
		s, err := charmap.ISO8859_1.NewDecoder().Bytes(data)
		data = s
		if err != nil {
			return "", err
		}
	case "ascii":
		b := make([]byte, len(data))
		for i, c := range data {
			b[i] = c & 0x7f
		}
		data = b
	case "ucs2", "ucs-2", "utf16le", "utf-16le":
		u := make([]uint16, len(data)/2)
		for i := range u {
			u[i] = uint16(data[2*i]) | uint16(data[2*i+1])<<8
		}
		data = []byte(string(utf16.Decode(u)))
	}
	s := string(data)
	if bom {
		s = strings.TrimPrefix(s, "\ufeff")
	}
	return s, nil
}

// readCSVRecords reads CSV as Read From File version 2 does: every value a string, the first
// line the column names unless Header Row is off. A malformed record ends the reading; the
// records before it are kept.
func readCSVRecords(data []byte, o readOptions) ([]*workflow.Object, error) {
	text, err := decode(data, o.encoding, o.bom)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.LazyQuotes = o.relaxQuotes
	if d := []rune(o.delimiter); len(d) == 1 {
		r.Comma = d[0]
	} else {
		return nil, fmt.Errorf("Invalid option delimiter: %q is not a single character", o.delimiter)
	}
	var header []string
	var rows []*workflow.Object
	line := 0
	for o.maxRows < 0 || len(rows) < o.maxRows {
		rec, err := r.Read()
		if err != nil {
			break // io.EOF, or a malformed record: keep what was read
		}
		line++
		if o.fromLine > 1 && line < o.fromLine {
			continue
		}
		if o.headerRow && header == nil {
			header = rec
			continue
		}
		if o.headerRow && len(rec) != len(header) {
			break
		}
		obj := workflow.NewObject(len(rec))
		if o.headerRow {
			for c, v := range rec {
				if v != "" || o.includeEmpty {
					obj.Set(header[c], v)
				}
			}
			rows = append(rows, obj)
			continue
		}
		if o.includeEmpty {
			row := make([]any, len(rec))
			for c, v := range rec {
				row[c] = v
			}
			rows = append(rows, workflow.ObjectOf("row", row))
			continue
		}
		for c, v := range rec {
			if v != "" {
				obj.Set(strconv.Itoa(c), v)
			}
		}
		rows = append(rows, workflow.ObjectOf("row", obj))
	}
	return rows, nil
}

// cell values of a sheet: nil (empty), float64, bool or string.
type sheet [][]any

// readSheet reads a workbook (XLSX, or CSV as a one-sheet workbook) and turns the sheet into
// rows as the spreadsheet library n8n uses does (sheet_to_json).
func readSheet(data []byte, bin workflow.BinaryData, o readOptions) (rows []*workflow.Object, err error) {
	defer func() {
		if x := recover(); x != nil {
			rows, err = nil, fmt.Errorf("Unsupported file: %v", x)
		}
	}()
	var sh sheet
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) && bytes.Contains(data[:min(len(data), 200)], []byte("mimetypeapplication/vnd.oasis")):
		sh, err = readODS(data, o)
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		sh, err = readXLSX(data, o)
	case bytes.HasPrefix(data, []byte{0xd0, 0xcf, 0x11, 0xe0}):
		return nil, errors.New("Reading XLS (Excel 97-2003) files is not supported; save the file as XLSX or CSV")
	default:
		sh, err = readCSVSheet(data, o)
	}
	if err != nil {
		return nil, err
	}
	return sheetToJSON(sh, o)
}

func readXLSX(data []byte, o readOptions) (sheet, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: o.maxUnpacked, UnzipXMLSizeLimit: o.maxUnpacked})
	if err != nil {
		if strings.Contains(err.Error(), "unzip size") {
			return nil, fmt.Errorf("The spreadsheet unpacks to more than %d bytes, the limit for reading a spreadsheet (FLOWMILL_UNPACK_MAX_SIZE)", o.maxUnpacked)
		}
		return nil, fmt.Errorf("Unsupported file: %v", err)
	}
	defer f.Close()
	names := f.GetSheetList()
	if len(names) == 0 {
		return nil, errors.New("Spreadsheet does not have any sheets!")
	}
	name := names[0]
	if o.sheetName != "" {
		found := false
		for _, n := range names {
			found = found || n == o.sheetName
		}
		if !found {
			return nil, fmt.Errorf("Spreadsheet does not contain sheet called %q!", o.sheetName)
		}
		name = o.sheetName
	}
	rows, err := f.GetRows(name, excelize.Options{RawCellValue: true})
	if err != nil {
		return nil, err
	}
	sh := make(sheet, len(rows))
	for r, row := range rows {
		sh[r] = make([]any, len(row))
		for c, v := range row {
			if v == "" {
				continue
			}
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			typ, _ := f.GetCellType(name, ref)
			switch typ {
			case excelize.CellTypeNumber, excelize.CellTypeUnset, excelize.CellTypeDate:
				if n, err := strconv.ParseFloat(v, 64); err == nil {
					sh[r][c] = n
					continue
				}
			case excelize.CellTypeBool:
				sh[r][c] = v == "1" || strings.EqualFold(v, "true")
				continue
			}
			sh[r][c] = v
		}
	}
	return sh, nil
}

// readCSVSheet reads CSV text as a sheet; unless raw, numbers and TRUE/FALSE become typed.
func readCSVSheet(data []byte, o readOptions) (sheet, error) {
	text := strings.TrimPrefix(string(data), "\ufeff")
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	recs, err := r.ReadAll()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	sh := make(sheet, len(recs))
	for i, rec := range recs {
		sh[i] = make([]any, len(rec))
		for c, v := range rec {
			sh[i][c] = csvValue(v, o.raw)
		}
	}
	return sh, nil
}

func csvValue(v string, raw bool) any {
	if v == "" {
		return nil
	}
	if raw {
		return v
	}
	switch strings.ToUpper(v) {
	case "TRUE":
		return true
	case "FALSE":
		return false
	}
	if n, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
		return n
	}
	return v
}

// sheetToJSON turns the rows of a sheet within the range into items: objects keyed by the
// range's first row, or with Header Row off {"row": [values]}.
func sheetToJSON(sh sheet, o readOptions) ([]*workflow.Object, error) {
	width := 0
	for _, r := range sh {
		width = max(width, len(r))
	}
	r0, c0, r1, c1 := 0, 0, len(sh)-1, width-1
	switch v := o.rangeSpec.(type) {
	case float64:
		r0 = int(v)
	case string:
		if v == "" {
			break
		}
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
			r0 = n
			break
		}
		parts := strings.SplitN(v, ":", 2)
		c, r, err := excelize.CellNameToCoordinates(parts[0])
		if err != nil {
			return nil, fmt.Errorf("Invalid range %q", v)
		}
		c0, r0, c1, r1 = c-1, r-1, c-1, r-1
		if len(parts) == 2 {
			c, r, err := excelize.CellNameToCoordinates(parts[1])
			if err != nil {
				return nil, fmt.Errorf("Invalid range %q", v)
			}
			c1, r1 = c-1, r-1
		}
	}
	at := func(r, c int) any {
		if r < len(sh) && c < len(sh[r]) {
			return sh[r][c]
		}
		return nil
	}
	var out []*workflow.Object
	if !o.headerRow {
		for r := r0; r <= r1; r++ {
			row := make([]any, 0, c1-c0+1)
			for c := c0; c <= c1; c++ {
				v := at(r, c)
				if v == nil && o.includeEmpty {
					v = ""
				}
				row = append(row, v)
			}
			// trailing empty cells are left out of the row
			for len(row) > 0 && row[len(row)-1] == nil {
				row = row[:len(row)-1]
			}
			out = append(out, workflow.ObjectOf("row", row))
		}
		return out, nil
	}
	header := make([]string, 0, c1-c0+1)
	seen := map[string]int{}
	for c := c0; c <= c1; c++ {
		name := "__EMPTY"
		if v := at(r0, c); v != nil {
			name = formatValue(v)
		}
		key := name
		if n := seen[name]; n > 0 {
			key = fmt.Sprintf("%s_%d", name, n)
		}
		seen[name]++
		header = append(header, key)
	}
	for r := r0 + 1; r <= r1; r++ {
		obj := workflow.NewObject(len(header))
		empty := true
		for c := c0; c <= c1; c++ {
			v := at(r, c)
			if v == nil {
				if o.includeEmpty {
					obj.Set(header[c-c0], "")
				}
				continue
			}
			empty = false
			obj.Set(header[c-c0], v)
		}
		if !empty {
			out = append(out, obj)
		}
	}
	return out, nil
}

// formatValue is a cell's text as JavaScript would print it.
func formatValue(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		if v {
			return "TRUE"
		}
		return "FALSE"
	case string:
		return v
	}
	return ""
}
