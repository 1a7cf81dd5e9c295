// Package readpdf is the Read PDF node (version 1): for every item it extracts the text and the
// document information of the PDF in a binary property, as n8n does with pdf.js.
package readpdf

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/ledongthuc/pdf"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// pdfjsVersion is the pdf.js release whose output the node reproduces; n8n reports it as
// "version".
const pdfjsVersion = "2.16.105"

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	out := make([]workflow.Item, 0, len(items))
	for i, item := range items {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		json, err := readItem(ex, item, i)
		if err != nil {
			if !ex.ContinueOnFail() {
				return nil, err
			}
			out = append(out, ex.ErrorItem(err, i))
			continue
		}
		out = append(out, workflow.Item{JSON: json, Binary: item.Binary, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

func readItem(ex *nodes.Execution, item workflow.Item, i int) (*workflow.Object, error) {
	prop, err := ex.ParamString("binaryPropertyName", i)
	if err != nil {
		return nil, err
	}
	password := ""
	if enc, err := ex.ParamBool("encrypted", i); err != nil {
		return nil, err
	} else if enc {
		if password, err = ex.ParamString("password", i); err != nil {
			return nil, err
		}
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
	json, err := Extract(data, password, ex.UnpackMaxBytes())
	if err != nil {
		return nil, nodes.Errorf(i, "%s", err.Error())
	}
	return json, nil
}

// Extract reads a PDF as n8n's Read PDF does: numpages, numrender, info, text and version. Text
// lines are the runs of glyphs on one baseline; pages are separated by a blank line. Page contents
// and fonts may unpack to at most maxUnpacked bytes. A malformed file is an error, never a crash.
func Extract(data []byte, password string, maxUnpacked int64) (out *workflow.Object, err error) {
	defer func() {
		if x := recover(); x != nil {
			out, err = nil, fmt.Errorf("Invalid PDF structure: %v", x)
		}
	}()
	tried := false
	r, err := pdf.NewReaderEncrypted(bytes.NewReader(data), int64(len(data)), func() string {
		if tried {
			return ""
		}
		tried = true
		return password
	})
	switch {
	case errors.Is(err, pdf.ErrInvalidPassword) && weakEncryption(data):
		return nil, errWeakEncryption
	case errors.Is(err, pdf.ErrInvalidPassword) && password == "":
		return nil, errors.New("No password given")
	case errors.Is(err, pdf.ErrInvalidPassword):
		return nil, errors.New("Incorrect Password")
	case err != nil && strings.HasPrefix(err.Error(), "unsupported PDF: encryption"):
		return nil, fmt.Errorf("This PDF's encryption is not supported (%s)", strings.TrimPrefix(err.Error(), "unsupported PDF: "))
	case err != nil:
		return nil, fmt.Errorf("Invalid PDF structure: %v", err)
	}
	if enc := r.Trailer().Key("Encrypt"); !enc.IsNull() {
		v, keyLen := enc.Key("V").Int64(), enc.Key("Length").Int64()
		if v == 1 || v == 2 && keyLen <= 40 {
			return nil, errWeakEncryption
		}
	}
	n := r.NumPage()
	if err := checkUnpackedSize(r, n, maxUnpacked); err != nil {
		return nil, err
	}
	pages := make([]string, 0, n)
	for p := 1; p <= n; p++ {
		pages = append(pages, pageText(r.Page(p)))
	}
	return workflow.ObjectOf(
		"numpages", float64(n),
		"numrender", float64(n),
		"info", info(r, data),
		"text", strings.Join(pages, "\n\n"),
		"version", pdfjsVersion,
	), nil
}

// pageText joins the page's glyphs in content order, starting a new line where the baseline
// changes.
func pageText(p pdf.Page) string {
	var b strings.Builder
	first := true
	lastY := 0.0
	for _, t := range p.Content().Text {
		if !first && t.Y != lastY {
			b.WriteByte('\n')
		}
		b.WriteString(t.S)
		first, lastY = false, t.Y
	}
	return b.String()
}

// checkUnpackedSize decompresses every page's content streams and font streams with a running
// budget, before the text is extracted in memory.
func checkUnpackedSize(r *pdf.Reader, n int, maxUnpacked int64) error {
	budget := maxUnpacked
	read := func(v pdf.Value) error {
		if v.Kind() != pdf.Stream {
			return nil
		}
		rc := v.Reader()
		defer rc.Close()
		k, _ := io.Copy(io.Discard, io.LimitReader(rc, budget+1))
		budget -= k
		if budget < 0 {
			return fmt.Errorf("The PDF unpacks to more than %d bytes, the limit for reading a PDF (FLOWMILL_UNPACK_MAX_SIZE)", maxUnpacked)
		}
		return nil
	}
	for p := 1; p <= n; p++ {
		page := r.Page(p)
		c := page.V.Key("Contents")
		if c.Kind() == pdf.Array {
			for i := range c.Len() {
				if err := read(c.Index(i)); err != nil {
					return err
				}
			}
		} else if err := read(c); err != nil {
			return err
		}
		fonts := page.Resources().Key("Font")
		for _, name := range fonts.Keys() {
			if err := read(fonts.Key(name).Key("ToUnicode")); err != nil {
				return err
			}
		}
	}
	return nil
}

var standardInfo = []string{"Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate"}

// info is pdf.js's document information: fixed facts about the file, then the Info dictionary
// in the file's key order (standard text entries as they are, Trapped as a name, other entries
// under Custom).
func info(r *pdf.Reader, data []byte) *workflow.Object {
	trailer := r.Trailer()
	root := trailer.Key("Root")
	o := workflow.NewObject(16)
	o.Set("PDFFormatVersion", headerVersion(data))
	o.Set("Language", textOrNull(root.Key("Lang")))
	filter := trailer.Key("Encrypt").Key("Filter")
	if filter.Kind() == pdf.Name {
		o.Set("EncryptFilterName", filter.Name())
	} else {
		o.Set("EncryptFilterName", nil)
	}
	acro := root.Key("AcroForm")
	o.Set("IsLinearized", linearized.Match(data[:min(len(data), 1024)]))
	o.Set("IsAcroFormPresent", acro.Key("Fields").Len() > 0)
	o.Set("IsXFAPresent", !acro.Key("XFA").IsNull())
	o.Set("IsCollectionPresent", !root.Key("Collection").IsNull())
	o.Set("IsSignaturesPresent", acro.Key("SigFlags").Int64()&1 == 1)
	dict := trailer.Key("Info")
	var custom *workflow.Object
	for _, k := range infoKeys(dict, data) {
		v := dict.Key(k)
		switch {
		case slices.Contains(standardInfo, k):
			if v.Kind() == pdf.String {
				o.Set(k, v.Text())
			}
		case k == "Trapped":
			if v.Kind() == pdf.Name {
				o.Set(k, workflow.ObjectOf("name", v.Name()))
			}
		default:
			var val any
			switch v.Kind() {
			case pdf.String:
				val = v.Text()
			case pdf.Integer, pdf.Real:
				val = v.Float64()
			case pdf.Bool:
				val = v.Bool()
			case pdf.Name:
				val = workflow.ObjectOf("name", v.Name())
			default:
				continue
			}
			if custom == nil {
				custom = workflow.NewObject(4)
			}
			custom.Set(k, val)
		}
	}
	if custom != nil {
		o.Set("Custom", custom)
	}
	return o
}

// errWeakEncryption: the library derives 40-bit RC4 keys wrongly (it would return garbled text),
// so such files are refused.
var errWeakEncryption = errors.New("This PDF's encryption is not supported (40-bit RC4)")

var (
	weakV      = regexp.MustCompile(`/V\s+1\b`)
	v2         = regexp.MustCompile(`/V\s+2\b`)
	length     = regexp.MustCompile(`/Length\s+(\d+)`)
	header     = regexp.MustCompile(`^%PDF-(\d\.\d)`)
	linearized = regexp.MustCompile(`^%PDF-\d\.\d[\s\S]*?\d+\s+\d+\s+obj\s*<<[^>]*/Linearized`)
	infoRef    = regexp.MustCompile(`/Info\s+(\d+)\s+(\d+)\s+R`)
	dictKey    = regexp.MustCompile(`/([^\s/<>\[\]()]+)`)
)

func headerVersion(data []byte) any {
	if m := header.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return nil
}

func textOrNull(v pdf.Value) any {
	if v.Kind() == pdf.String {
		return v.Text()
	}
	return nil
}

// infoKeys lists the Info dictionary's keys in the order the file writes them when its object
// can be found as plain text, else sorted.
func infoKeys(dict pdf.Value, data []byte) []string {
	keys := dict.Keys()
	refs := infoRef.FindAllSubmatch(data, -1)
	if len(refs) == 0 {
		return keys
	}
	ref := refs[len(refs)-1]
	obj := regexp.MustCompile(`(?:^|[\r\n\s])` + string(ref[1]) + `\s+` + string(ref[2]) + `\s+obj\s*<<`)
	locs := obj.FindAllIndex(data, -1)
	if len(locs) == 0 {
		return keys
	}
	body := data[locs[len(locs)-1][1]:]
	var order []string
	depth := 0
	for i := 0; i < len(body); i++ {
		switch {
		case bytes.HasPrefix(body[i:], []byte(">>")):
			if depth == 0 {
				i = len(body)
				continue
			}
			depth--
			i++
		case bytes.HasPrefix(body[i:], []byte("<<")):
			depth++
			i++
		case body[i] == '(':
			i = skipString(body, i)
		case body[i] == '/' && depth == 0:
			m := dictKey.Find(body[i:])
			if m == nil {
				continue
			}
			order = append(order, string(m[1:]))
			i += len(m) - 1
			// the value follows: skip a name value so it is not taken for a key
			j := i + 1
			for j < len(body) && (body[j] == ' ' || body[j] == '\r' || body[j] == '\n' || body[j] == '\t') {
				j++
			}
			if j < len(body) && body[j] == '/' {
				if v := dictKey.Find(body[j:]); v != nil {
					i = j + len(v) - 1
				}
			}
		}
	}
	if len(order) != len(keys) {
		return keys
	}
	for _, k := range order {
		if !slices.Contains(keys, k) {
			return keys
		}
	}
	return order
}

// skipString returns the index of the parenthesis closing the literal string opened at i.
func skipString(b []byte, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

// weakEncryption reports whether the file's standard security handler dictionary, when written
// as plain text, asks for 40-bit RC4 (V 1, or V 2 with a key length of 40 bits).
func weakEncryption(data []byte) bool {
	i := bytes.Index(data, []byte("/Standard"))
	if i < 0 {
		return false
	}
	start := bytes.LastIndex(data[:i], []byte("<<"))
	end := bytes.Index(data[i:], []byte(">>"))
	if start < 0 || end < 0 {
		return false
	}
	dict := data[start : i+end]
	if weakV.Match(dict) {
		return true
	}
	m := length.FindSubmatch(dict)
	return v2.Match(dict) && (m == nil || string(m[1]) == "40")
}
