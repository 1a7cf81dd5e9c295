package spreadsheetfile

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

const (
	odsTable  = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
	odsOffice = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
	odsText   = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
	// Excel's grid; repeats beyond it (files pad to the last row) are not materialized.
	odsMaxRows = 1 << 20
	odsMaxCols = 1 << 14
)

// readODS reads the chosen sheet (the first by default) of an OpenDocument spreadsheet. The
// content may unpack to at most maxUnpacked bytes, and repeated cells may not make the sheet
// larger than that either.
func readODS(data []byte, o readOptions) (sheet, error) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("Unsupported file: %v", err)
	}
	var content *zip.File
	for _, f := range z.File {
		if f.Name == "content.xml" {
			content = f
		}
	}
	if content == nil {
		return nil, errors.New("Unsupported file: the ODS file has no content.xml")
	}
	rc, err := content.Open()
	if err != nil {
		return nil, fmt.Errorf("Unsupported file: %v", err)
	}
	defer rc.Close()
	limited := &limitedReader{r: rc, left: o.maxUnpacked}
	sheets, err := parseODS(limited, o.sheetName, o.maxUnpacked/16)
	if limited.left < 0 {
		return nil, fmt.Errorf("The spreadsheet unpacks to more than %d bytes, the limit for reading a spreadsheet (FLOWMILL_UNPACK_MAX_SIZE)", o.maxUnpacked)
	}
	if err != nil {
		return nil, err
	}
	return sheets, nil
}

type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, errors.New("unpack limit")
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, errors.New("unpack limit")
	}
	return n, err
}

func attr(se xml.StartElement, space, local string) string {
	for _, a := range se.Attr {
		if a.Name.Space == space && a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func repeat(se xml.StartElement, local string, most int) int {
	n, err := strconv.Atoi(attr(se, odsTable, local))
	if err != nil || n < 1 {
		return 1
	}
	return min(n, most)
}

// parseODS returns the rows of the sheet called name (the first when name is ""), or an error
// naming a missing sheet. maxCells bounds the cells materialized from repeats.
func parseODS(r io.Reader, name string, maxCells int64) (sheet, error) {
	dec := xml.NewDecoder(r)
	var (
		sh, rows          sheet
		row               []any
		rowRepeat         int
		inTable, found    bool
		tables            int
		cell              any
		cellRepeat        int
		text              strings.Builder
		inCell, inP, anyP bool
		pendingEmptyRows  int
		pendingEmptyCells int
		cells             int64
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("Unsupported file: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Space == odsTable && t.Name.Local == "table":
				tables++
				inTable = !found && (name == "" || attr(t, odsTable, "name") == name)
				rows, pendingEmptyRows = nil, 0
			case !inTable:
			case t.Name.Space == odsTable && t.Name.Local == "table-row":
				row, rowRepeat, pendingEmptyCells = nil, repeat(t, "number-rows-repeated", odsMaxRows), 0
			case t.Name.Space == odsTable && (t.Name.Local == "table-cell" || t.Name.Local == "covered-table-cell"):
				inCell, anyP, cellRepeat = true, false, repeat(t, "number-columns-repeated", odsMaxCols)
				text.Reset()
				cell = nil
				switch attr(t, odsOffice, "value-type") {
				case "float", "percentage", "currency":
					if f, err := strconv.ParseFloat(attr(t, odsOffice, "value"), 64); err == nil {
						cell = f
					}
				case "boolean":
					cell = attr(t, odsOffice, "boolean-value") == "true"
				case "date":
					cell = attr(t, odsOffice, "date-value")
				case "time":
					cell = attr(t, odsOffice, "time-value")
				}
			case inCell && t.Name.Space == odsText && t.Name.Local == "p":
				if anyP {
					text.WriteByte('\n')
				}
				inP, anyP = true, true
			case inP && t.Name.Space == odsText && t.Name.Local == "s":
				n, err := strconv.Atoi(attr(t, odsText, "c"))
				if err != nil || n < 1 {
					n = 1
				}
				text.WriteString(strings.Repeat(" ", min(n, 1000)))
			case inP && t.Name.Space == odsText && t.Name.Local == "line-break":
				text.WriteByte('\n')
			case inP && t.Name.Space == odsText && t.Name.Local == "tab":
				text.WriteByte('\t')
			}
		case xml.CharData:
			if inP {
				text.Write(t)
			}
		case xml.EndElement:
			switch {
			case t.Name.Space == odsTable && t.Name.Local == "table":
				if inTable {
					sh, found, inTable = rows, true, false
				}
			case !inTable:
			case t.Name.Space == odsText && t.Name.Local == "p":
				inP = false
			case t.Name.Space == odsTable && (t.Name.Local == "table-cell" || t.Name.Local == "covered-table-cell"):
				inCell = false
				if cell == nil && text.Len() > 0 {
					cell = text.String()
				}
				if cell == nil {
					// empty cells only count when a later cell of the row has a value
					pendingEmptyCells += cellRepeat
					continue
				}
				for ; pendingEmptyCells > 0 && len(row) < odsMaxCols; pendingEmptyCells-- {
					row = append(row, nil)
				}
				pendingEmptyCells = 0
				for range cellRepeat {
					if len(row) >= odsMaxCols {
						break
					}
					row = append(row, cell)
				}
			case t.Name.Space == odsTable && t.Name.Local == "table-row":
				if len(row) == 0 {
					pendingEmptyRows += rowRepeat
					continue
				}
				for ; pendingEmptyRows > 0 && len(rows) < odsMaxRows; pendingEmptyRows-- {
					rows = append(rows, nil)
				}
				pendingEmptyRows = 0
				for range rowRepeat {
					if len(rows) >= odsMaxRows {
						break
					}
					cells += int64(len(row))
					if cells > maxCells {
						return nil, fmt.Errorf("The spreadsheet has more cells than the limit for reading a spreadsheet allows (FLOWMILL_UNPACK_MAX_SIZE)")
					}
					rows = append(rows, row)
				}
			}
		}
	}
	if tables == 0 {
		return nil, errors.New("Spreadsheet does not have any sheets!")
	}
	if !found {
		return nil, fmt.Errorf("Spreadsheet does not contain sheet called %q!", name)
	}
	return sh, nil
}
