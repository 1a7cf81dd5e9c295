package emailsend

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"path/filepath"
	"strings"
	"time"
)

// email is one message as the node composes it (nodemailer's mail options).
type email struct {
	from, to, cc, bcc, replyTo string
	subject                    string
	text, html                 *string // nil: no such part
	attachments                []attachment
	// relatedWhenHTML puts attachments with a content ID inline next to the HTML (version 2).
	relatedWhenHTML bool
	// Set by prepare.
	date                    time.Time
	messageID, envelopeFrom string
	envelopeTo              []string
	fromHeader, toHeader    string
	ccHeader, replyToHeader string
}

type attachment struct {
	fileName string
	cid      string
	content  []byte
}

// address is one parsed mailbox.
type address struct{ name, addr string }

// parseAddresses reads a list of addresses leniently, as nodemailer's address parser does:
// "Name <a@b>" and bare addresses, separated by commas or semicolons.
func parseAddresses(s string) []address {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	if list, err := mail.ParseAddressList(strings.ReplaceAll(s, ";", ",")); err == nil {
		out := make([]address, 0, len(list))
		for _, a := range list {
			out = append(out, address{name: a.Name, addr: a.Address})
		}
		return out
	}
	var out []address
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if a, err := mail.ParseAddress(part); err == nil {
			out = append(out, address{name: a.Name, addr: a.Address})
			continue
		}
		if i, j := strings.LastIndex(part, "<"), strings.LastIndex(part, ">"); i >= 0 && j > i {
			out = append(out, address{name: strings.Trim(strings.TrimSpace(part[:i]), `"`), addr: strings.TrimSpace(part[i+1 : j])})
			continue
		}
		out = append(out, address{addr: part})
	}
	return out
}

func formatAddresses(list []address) string {
	parts := make([]string, 0, len(list))
	for _, a := range list {
		if a.name == "" {
			parts = append(parts, a.addr)
			continue
		}
		parts = append(parts, encodeWord(quoteName(a.name))+" <"+a.addr+">")
	}
	return strings.Join(parts, ", ")
}

func quoteName(name string) string {
	if strings.ContainsAny(name, `()<>[]:;@\,."`) {
		return `"` + strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), `"`, `\"`) + `"`
	}
	return name
}

// encodeWord encodes header text that is not plain ASCII (RFC 2047).
func encodeWord(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 && s[i] != '\t' {
			return mime.QEncoding.Encode("utf-8", s)
		}
	}
	return s
}

// prepare resolves the addresses, the envelope and the message ID.
func (m *email) prepare(now time.Time) {
	from := parseAddresses(m.from)
	to, cc, bcc := parseAddresses(m.to), parseAddresses(m.cc), parseAddresses(m.bcc)
	if len(from) > 0 {
		m.envelopeFrom = from[0].addr
	}
	m.envelopeTo = []string{}
	for _, list := range [][]address{to, cc, bcc} {
		for _, a := range list {
			m.envelopeTo = append(m.envelopeTo, a.addr)
		}
	}
	m.fromHeader = formatAddresses(from)
	m.toHeader = formatAddresses(to)
	m.ccHeader = formatAddresses(cc)
	m.replyToHeader = formatAddresses(parseAddresses(m.replyTo))
	m.date = now
	domain := "localhost"
	if i := strings.LastIndexByte(m.envelopeFrom, '@'); i >= 0 {
		domain = m.envelopeFrom[i+1:]
	}
	m.messageID = "<" + randomID() + "@" + domain + ">"
}

func randomID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// part is one MIME entity being written.
type part struct {
	header [][2]string
	body   []byte
	parts  []*part
	sub    string // multipart subtype when parts are set
	params string // more parameters of the multipart type
	// contentTypeLast puts the multipart type after the other fields (the message's own).
	contentTypeLast bool
}

// build renders the message as nodemailer's composer structures it: a single part for one body;
// multipart/alternative for text and HTML; HTML with attachments that have a content ID in
// multipart/related; any other attachments in multipart/mixed.
func (m *email) build() []byte {
	var related, attached []attachment
	for _, a := range m.attachments {
		if m.relatedWhenHTML && m.html != nil && a.cid != "" {
			related = append(related, a)
		} else {
			attached = append(attached, a)
		}
	}
	var alternatives []*part
	if m.text != nil {
		alternatives = append(alternatives, textPart("text/plain", *m.text))
	}
	if m.html != nil {
		html := textPart("text/html", *m.html)
		if len(related) > 0 {
			rel := &part{sub: "related", params: `; type="text/html"`, parts: []*part{html}}
			for _, a := range related {
				rel.parts = append(rel.parts, attachmentPart(a))
			}
			html = rel
		}
		alternatives = append(alternatives, html)
	}
	var body *part
	switch len(alternatives) {
	case 0:
		body = textPart("text/plain", "")
	case 1:
		body = alternatives[0]
	default:
		body = &part{sub: "alternative", parts: alternatives}
	}
	root := body
	if len(attached) > 0 {
		root = &part{sub: "mixed", parts: []*part{body}}
		for _, a := range attached {
			root.parts = append(root.parts, attachmentPart(a))
		}
	}
	var head [][2]string
	add := func(k, v string) {
		if v != "" {
			head = append(head, [2]string{k, v})
		}
	}
	add("From", m.fromHeader)
	add("To", m.toHeader)
	add("Cc", m.ccHeader)
	add("Reply-To", m.replyToHeader)
	add("Subject", encodeWord(m.subject))
	add("Message-ID", m.messageID)
	add("Date", m.date.UTC().Format("Mon, 02 Jan 2006 15:04:05 -0700"))
	add("MIME-Version", "1.0")
	root.header = append(head, root.header...)
	root.contentTypeLast = true
	var buf bytes.Buffer
	n := 0
	root.write(&buf, &n)
	return buf.Bytes()
}

func textPart(contentType, s string) *part {
	var body bytes.Buffer
	enc := "7bit"
	if needsQP(s) {
		enc = "quoted-printable"
		w := quotedprintable.NewWriter(&body)
		_, _ = w.Write([]byte(s))
		_ = w.Close()
	} else {
		body.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n"))
	}
	return &part{header: [][2]string{
		{"Content-Type", contentType + "; charset=utf-8"},
		{"Content-Transfer-Encoding", enc},
	}, body: body.Bytes()}
}

// needsQP tells whether text cannot go as 7bit: non-ASCII bytes or lines over 76 characters.
func needsQP(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if len(line) > 76 {
			return true
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] == '\r' && (i+1 >= len(s) || s[i+1] != '\n') {
			return true
		}
	}
	return false
}

// attachmentPart is one attachment as nodemailer writes it: its type from the file name, its
// content ID when it has one, base64, and an attachment disposition even next to HTML.
func attachmentPart(a attachment) *part {
	name := a.fileName
	enc := encodeParam(name)
	h := [][2]string{
		{"Content-Type", contentTypeOf(name) + "; name=" + enc},
	}
	if a.cid != "" {
		h = append(h, [2]string{"Content-ID", "<" + a.cid + ">"})
	}
	h = append(h,
		[2]string{"Content-Transfer-Encoding", "base64"},
		[2]string{"Content-Disposition", "attachment; filename=" + enc},
	)
	encoded := base64.StdEncoding.EncodeToString(a.content)
	var body strings.Builder
	for len(encoded) > 76 {
		body.WriteString(encoded[:76] + "\r\n")
		encoded = encoded[76:]
	}
	body.WriteString(encoded)
	return &part{header: h, body: []byte(body.String())}
}

// encodeParam quotes a file name parameter; names that are not ASCII get RFC 2231 encoding.
func encodeParam(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return mime.FormatMediaType("x", map[string]string{"n": s})[len("x; n="):]
		}
	}
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// contentTypes are the types of common attachments, so the message does not depend on the
// machine's MIME table.
var contentTypes = map[string]string{
	".csv": "text/csv", ".txt": "text/plain", ".html": "text/html", ".htm": "text/html", ".json": "application/json",
	".xml": "application/xml", ".pdf": "application/pdf", ".png": "image/png", ".jpg": "image/jpeg",
	".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml", ".zip": "application/zip",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ".xls": "application/vnd.ms-excel",
	".ods":  "application/vnd.oasis.opendocument.spreadsheet",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ".ics": "text/calendar",
}

// contentTypeOf is the type nodemailer derives from an attachment's file name.
func contentTypeOf(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		if i := strings.IndexByte(t, ';'); i >= 0 {
			t = t[:i]
		}
		return t
	}
	return "application/octet-stream"
}

// write renders the part; n numbers the boundaries.
func (p *part) write(buf *bytes.Buffer, n *int) {
	boundary := ""
	if p.parts != nil {
		*n++
		boundary = fmt.Sprintf("--_flowmill_%d_%s", *n, randomID()[:8])
		ct := [2]string{"Content-Type", "multipart/" + p.sub + p.params + "; boundary=\"" + boundary + "\""}
		if p.contentTypeLast {
			p.header = append(p.header, ct)
		} else {
			p.header = append([][2]string{ct}, p.header...)
		}
	}
	for _, h := range p.header {
		buf.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	buf.WriteString("\r\n")
	if p.parts == nil {
		buf.Write(p.body)
		return
	}
	for _, c := range p.parts {
		buf.WriteString("--" + boundary + "\r\n")
		c.write(buf, n)
		buf.WriteString("\r\n")
	}
	buf.WriteString("--" + boundary + "--\r\n")
}
