package emailreadimap

import (
	"bytes"
	"html"
	"io"
	"mime"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // bodies in other charsets decode to UTF-8
	"github.com/emersion/go-message/mail"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// part is one leaf of a message: a text body or an attachment.
type part struct {
	mediaType, filename string
	attachment          bool
	data                []byte
}

// parsed is a message read for the simple and resolved formats.
type parsed struct {
	header message.Header
	parts  []part
}

var wordDecoder = &mime.WordDecoder{CharsetReader: message.CharsetReader}

func parseMessage(raw []byte, max int64) (*parsed, error) {
	e, err := message.Read(bytes.NewReader(raw))
	if e == nil {
		return nil, err
	}
	p := &parsed{header: e.Header}
	err = e.Walk(func(_ []int, ent *message.Entity, err error) error {
		if err != nil && ent == nil {
			return nil
		}
		mt, _, _ := ent.Header.ContentType()
		if strings.HasPrefix(mt, "multipart/") {
			return nil
		}
		if mt == "" {
			mt = "text/plain"
		}
		disp, dparams, _ := ent.Header.ContentDisposition()
		name := dparams["filename"]
		if name == "" {
			_, cparams, _ := ent.Header.ContentType()
			name = cparams["name"]
		}
		if d, err := wordDecoder.DecodeHeader(name); err == nil {
			name = d
		}
		data, rerr := io.ReadAll(io.LimitReader(ent.Body, max+1))
		if rerr != nil {
			return rerr
		}
		if int64(len(data)) > max {
			return nodes.Errorf(-1, "The email part is larger than the unpacking limit (FLOWMILL_UNPACK_MAX_SIZE)")
		}
		p.parts = append(p.parts, part{mediaType: mt, filename: name, attachment: strings.EqualFold(disp, "attachment"), data: data})
		return nil
	})
	return p, err
}

// text is the first body part of the media type, "" when there is none.
func (p *parsed) text(mediaType string) (string, bool) {
	for _, pt := range p.parts {
		if !pt.attachment && pt.mediaType == mediaType {
			return string(pt.data), true
		}
	}
	return "", false
}

// topLevel are the headers a simple item carries at its top level; the others go to metadata.
var topLevel = map[string]bool{"cc": true, "date": true, "from": true, "subject": true, "to": true}

// simpleItem is n8n's simple format: both text bodies, the headers (first value each, names
// in lower case, encoded words decoded) and the attachments as binary data when asked.
func simpleItem(uid uint32, p *parsed, attachments bool, prefix string) workflow.Item {
	htmlBody, _ := p.text("text/html")
	plain, _ := p.text("text/plain")
	meta := workflow.NewObject(0)
	j := workflow.ObjectOf("textHtml", htmlBody, "textPlain", plain, "metadata", meta,
		"attributes", workflow.ObjectOf("uid", float64(uid)))
	seen := map[string]bool{}
	for f := p.header.Fields(); f.Next(); {
		k := strings.ToLower(f.Key())
		if seen[k] {
			continue
		}
		seen[k] = true
		v := f.Value()
		if d, err := wordDecoder.DecodeHeader(v); err == nil {
			v = d
		}
		if topLevel[k] {
			j.Set(k, v)
		} else {
			meta.Set(k, v)
		}
	}
	it := workflow.Item{JSON: j}
	if attachments {
		it.Binary = binaries(p, prefix, func(pt part) bool { return pt.attachment })
	}
	return it
}

func binaries(p *parsed, prefix string, keep func(part) bool) map[string]workflow.BinaryData {
	var out map[string]workflow.BinaryData
	n := 0
	for _, pt := range p.parts {
		if !keep(pt) {
			continue
		}
		if out == nil {
			out = map[string]workflow.BinaryData{}
		}
		mt := ""
		if pt.filename == "" {
			mt = pt.mediaType
		}
		out[prefix+strconv.Itoa(n)] = nodes.NewBinary(pt.data, pt.filename, mt)
		n++
	}
	return out
}

// resolvedHeaders are the headers mailparser lifts to the top of its result, in its order.
var resolvedHeaders = []struct{ header, key string }{
	{"Subject", "subject"}, {"References", "references"}, {"Date", "date"}, {"To", "to"},
	{"From", "from"}, {"Cc", "cc"}, {"Bcc", "bcc"}, {"Message-Id", "messageId"},
	{"In-Reply-To", "inReplyTo"}, {"Reply-To", "replyTo"},
}

// resolvedItem is n8n's resolved format, the shape of mailparser's simpleParser: the raw
// header lines, the bodies (html false when there is none), the lifted headers with addresses
// parsed, and every attachment or inline non-text part as binary data.
func resolvedItem(uid uint32, p *parsed, prefix string) workflow.Item {
	j := workflow.NewObject(0)
	headers := workflow.NewObject(0)
	for f := p.header.Fields(); f.Next(); {
		raw, err := f.Raw()
		line := strings.TrimRight(string(raw), "\r\n")
		if err != nil {
			line = f.Key() + ": " + f.Value()
		}
		headers.Set(strings.ToLower(f.Key()), line)
	}
	j.Set("headers", headers)
	if h, ok := p.text("text/html"); ok {
		j.Set("html", h)
	} else {
		j.Set("html", false)
	}
	if t, ok := p.text("text/plain"); ok {
		j.Set("text", t)
		j.Set("textAsHtml", textAsHTML(t))
	}
	mh := mail.Header{Header: p.header}
	for _, rh := range resolvedHeaders {
		if !p.header.Has(rh.header) {
			continue
		}
		switch rh.key {
		case "subject":
			s, _ := mh.Subject()
			j.Set(rh.key, s)
		case "date":
			if d, err := mh.Date(); err == nil {
				j.Set(rh.key, d.UTC().Format("2006-01-02T15:04:05.000Z"))
			}
		case "to", "from", "cc", "bcc", "replyTo":
			if list, err := mh.AddressList(rh.header); err == nil && len(list) > 0 {
				j.Set(rh.key, addressObject(list))
			}
		case "references":
			ids, _ := mh.MsgIDList(rh.header)
			switch len(ids) {
			case 0:
			case 1:
				j.Set(rh.key, "<"+ids[0]+">")
			default:
				refs := make([]any, len(ids))
				for i, id := range ids {
					refs[i] = "<" + id + ">"
				}
				j.Set(rh.key, refs)
			}
		default:
			if ids, _ := mh.MsgIDList(rh.header); len(ids) > 0 {
				j.Set(rh.key, "<"+ids[0]+">")
			}
		}
	}
	j.Set("attributes", workflow.ObjectOf("uid", float64(uid)))
	body := func(pt part) bool {
		return pt.attachment || !(pt.mediaType == "text/plain" || pt.mediaType == "text/html")
	}
	return workflow.Item{JSON: j, Binary: binaries(p, prefix, body)}
}

// addressObject is mailparser's address object: the parsed list and its html and text forms.
func addressObject(list []*mail.Address) *workflow.Object {
	values := make([]any, len(list))
	var htmls, texts []string
	for i, a := range list {
		values[i] = workflow.ObjectOf("address", a.Address, "name", a.Name)
		link := `<a href="mailto:` + html.EscapeString(a.Address) + `" class="mp_address_email">` + html.EscapeString(a.Address) + `</a>`
		if a.Name != "" {
			htmls = append(htmls, `<span class="mp_address_group"><span class="mp_address_name">`+html.EscapeString(a.Name)+`</span> &lt;`+link+`&gt;</span>`)
			texts = append(texts, a.Name+" <"+a.Address+">")
		} else {
			htmls = append(htmls, `<span class="mp_address_group">`+link+`</span>`)
			texts = append(texts, a.Address)
		}
	}
	return workflow.ObjectOf("value", values, "html", strings.Join(htmls, ", "), "text", strings.Join(texts, ", "))
}

var blankLines = regexp.MustCompile(`\n\s*\n`)

// textAsHTML renders a plain text body as mailparser's textAsHtml does (paragraphs and line
// breaks; links are not turned into anchors).
func textAsHTML(t string) string {
	t = strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(t, "\r\n", "\n")), "\r", "\n")
	t = html.EscapeString(t)
	t = blankLines.ReplaceAllString(t, "</p><p>")
	return "<p>" + strings.ReplaceAll(t, "\n", "<br/>") + "</p>"
}

// dayStart is the start of today in UTC, the IMAP date of SINCE.
func dayStart(now time.Time) time.Time {
	y, m, d := now.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
