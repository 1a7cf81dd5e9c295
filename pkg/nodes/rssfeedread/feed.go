package rssfeedread

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	xmlnode "github.com/flowmill/flowmill/pkg/nodes/xml"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Fetching as rss-parser does: its headers, at most 5 redirects, 60 seconds.
const (
	maxRedirects = 5
	fetchTimeout = 60 * time.Second
)

// FetchError is a feed that could not be fetched or read; Refused marks a connection the
// server refused (n8n words that one itself).
type FetchError struct {
	Msg     string
	Refused bool
}

func (e *FetchError) Error() string { return e.Msg }

// Fetch downloads the feed at rawURL through the instance's client (its egress policy; any
// certificate when insecure) and parses it as rss-parser does. maxBytes caps the document.
func Fetch(ctx context.Context, base *http.Client, rawURL string, insecure bool, maxBytes int64) ([]*workflow.Object, error) {
	policy := egress.PolicyOf(base)
	if policy == nil {
		return nil, errors.New("the instance's HTTP client does not apply the egress policy")
	}
	client := &http.Client{
		Transport: policy.Transport(egress.Options{InsecureSkipVerify: insecure}),
		Timeout:   fetchTimeout,
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return &FetchError{Msg: "Too many redirects"}
			}
			return nil
		},
	}
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &FetchError{Msg: err.Error()}
	}
	req.Header.Set("User-Agent", "rss-parser")
	req.Header.Set("Accept", "application/rss+xml")
	res, err := client.Do(req)
	if err != nil {
		return nil, fetchError(ctx, err, req.URL)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		return nil, &FetchError{Msg: fmt.Sprintf("Status code %d", res.StatusCode)}
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBytes+1))
	if err != nil {
		return nil, fetchError(ctx, err, req.URL)
	}
	if int64(len(body)) > maxBytes {
		return nil, &FetchError{Msg: fmt.Sprintf("The feed is larger than %d bytes, the limit for reading a feed (FLOWMILL_UNPACK_MAX_SIZE)", maxBytes)}
	}
	doc := string(body)
	if latin1.MatchString(res.Header.Get("Content-Type")) {
		doc = fromLatin1(body)
	}
	return Parse(doc)
}

var latin1 = regexp.MustCompile(`(?i)(encoding|charset)\s*=\s*(iso-8859-1|latin1|binary)\b`)

func fromLatin1(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// fetchError words a failed request as Node.js does; the egress policy's refusals and
// cancellation keep their own errors.
func fetchError(ctx context.Context, err error, u *url.URL) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if re, ok := egress.Refusal(err); ok {
		return re
	}
	var fe *FetchError
	if errors.As(err, &fe) {
		return fe
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &FetchError{Msg: "getaddrinfo ENOTFOUND " + u.Hostname()}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &FetchError{Msg: fmt.Sprintf("Request timed out after %dms", fetchTimeout.Milliseconds())}
	}
	if strings.Contains(err.Error(), "connection refused") {
		return &FetchError{Msg: "connect ECONNREFUSED " + hostPort(u), Refused: true}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return &FetchError{Msg: ue.Err.Error()}
	}
	return &FetchError{Msg: err.Error()}
}

func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	host := u.Hostname()
	if host == "localhost" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// Parse reads an RSS 0.9x, 1.0 or 2.0 or an Atom document and returns its items with
// rss-parser's fields, in its order.
func Parse(doc string) ([]*workflow.Object, error) {
	v, err := xmlnode.ParseDefault(doc)
	if err != nil {
		return nil, &FetchError{Msg: err.Error()}
	}
	root, ok := v.(*workflow.Object)
	if !ok {
		return nil, &FetchError{Msg: "Unable to parse XML."}
	}
	if feed, ok := root.Get("feed").(*workflow.Object); ok {
		return atomItems(feed), nil
	}
	if rss, ok := root.Get("rss").(*workflow.Object); ok {
		version := ""
		if attrs, ok := rss.Get("$").(*workflow.Object); ok {
			version = jsv.ToString(jsv.Or(attrs.Get("version"), ""))
		}
		if strings.HasPrefix(version, "2") || strings.Contains(version, "0.9") {
			channel := first(rss.Get("channel"))
			if channel == nil {
				return nil, &FetchError{Msg: "Cannot read properties of undefined (reading '0')"}
			}
			return rssItems(list(channel.Get("item")), strings.HasPrefix(version, "2") && hasItunes(rss)), nil
		}
	}
	if rdf, ok := root.Get("rdf:RDF").(*workflow.Object); ok {
		return rssItems(list(rdf.Get("item")), false), nil
	}
	return nil, &FetchError{Msg: "Feed not recognized as RSS 1 or 2."}
}

func hasItunes(rss *workflow.Object) bool {
	attrs, ok := rss.Get("$").(*workflow.Object)
	return ok && attrs.Has("xmlns:itunes")
}

// list is an xml2js child list.
func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// first is the first element of an xml2js child list when it is an element with content.
func first(v any) *workflow.Object {
	l := list(v)
	if len(l) == 0 {
		return nil
	}
	o, _ := l[0].(*workflow.Object)
	return o
}

// field is one of rss-parser's item fields: the XML child and the key it is copied to.
type field struct {
	from, to string
	snippet  bool
}

var itemFields = []field{
	{"author", "creator", false}, {"dc:creator", "creator", false}, {"dc:date", "date", false},
	{"dc:language", "language", false}, {"dc:rights", "rights", false}, {"dc:source", "source", false},
	{"dc:title", "title", false}, {"title", "title", false}, {"link", "link", false}, {"pubDate", "pubDate", false},
	{"author", "author", false}, {"summary", "summary", false}, {"content:encoded", "content:encoded", true},
	{"enclosure", "enclosure", false}, {"dc:creator", "dc:creator", false}, {"dc:date", "dc:date", false},
	{"comments", "comments", false},
}

var podcastItemFields = []string{"author", "subtitle", "summary", "explicit", "duration", "image", "episode", "image",
	"season", "keywords", "episodeType"}

// copyFields copies the first value of each field's child, unwrapping text with attributes.
func copyFields(src, dst *workflow.Object, fields []field) {
	for _, f := range fields {
		if l, ok := src.Lookup(f.from); ok {
			var v any = l
			if arr, isList := l.([]any); isList {
				if len(arr) > 0 {
					v = arr[0]
				} else {
					v = nil
				}
			}
			dst.Set(f.to, v)
		}
		cur, ok := dst.Lookup(f.to)
		if !ok {
			continue
		}
		if o, isObj := cur.(*workflow.Object); isObj {
			if s, isStr := o.Get("_").(string); isStr {
				cur = s
				dst.Set(f.to, s)
			}
		}
		if s, isStr := cur.(string); f.snippet && isStr && s != "" {
			dst.Set(f.to+"Snippet", snippet(s))
		}
	}
}

func rssItems(items []any, itunes bool) []*workflow.Object {
	out := make([]*workflow.Object, 0, len(items))
	for _, raw := range items {
		x, ok := raw.(*workflow.Object)
		if !ok {
			x = workflow.NewObject(0)
		}
		item := workflow.NewObject(12)
		copyFields(x, item, itemFields)
		if enc := first(x.Get("enclosure")); enc != nil {
			setOrDelete(item, "enclosure", enc.Get("$"))
		} else if l := list(x.Get("enclosure")); len(l) > 0 {
			item.Delete("enclosure")
		}
		if l := list(x.Get("description")); len(l) > 0 {
			content := contentOf(l[0])
			item.Set("content", content)
			item.Set("contentSnippet", snippet(content))
		}
		if l := list(x.Get("guid")); len(l) > 0 {
			guid := l[0]
			if o, ok := guid.(*workflow.Object); ok {
				if s, ok := o.Get("_").(string); ok && s != "" {
					guid = s
				}
			}
			item.Set("guid", guid)
		}
		if attrs, ok := x.Get("$").(*workflow.Object); ok {
			if about, ok := attrs.Get("rdf:about").(string); ok && about != "" {
				item.Set("rdf:about", about)
			}
		}
		if cats, ok := x.Lookup("category"); ok {
			item.Set("categories", cats)
		}
		setISODate(item)
		if itunes {
			it := workflow.NewObject(4)
			for _, f := range podcastItemFields {
				copyFields(x, it, []field{{"itunes:" + f, f, false}})
			}
			if img := first(x.Get("itunes:image")); img != nil {
				if attrs, ok := img.Get("$").(*workflow.Object); ok {
					if href, ok := attrs.Get("href").(string); ok && href != "" {
						it.Set("image", href)
					}
				}
			}
			item.Set("itunes", it)
		}
		out = append(out, item)
	}
	return out
}

// setOrDelete sets key to v; an undefined v (no attributes) leaves the key out, as JSON does.
func setOrDelete(o *workflow.Object, key string, v any) {
	if v == nil {
		o.Delete(key)
		return
	}
	o.Set(key, v)
}

func atomItems(feed *workflow.Object) []*workflow.Object {
	entries := list(feed.Get("entry"))
	out := make([]*workflow.Object, 0, len(entries))
	for _, raw := range entries {
		e, ok := raw.(*workflow.Object)
		if !ok {
			e = workflow.NewObject(0)
		}
		item := workflow.NewObject(8)
		if l := list(e.Get("title")); len(l) > 0 {
			title := l[0]
			if o, ok := title.(*workflow.Object); ok {
				if s, ok := o.Get("_").(string); ok && s != "" {
					title = s
				}
			}
			if truthy(title) {
				item.Set("title", title)
			}
		}
		if links := list(e.Get("link")); len(links) > 0 {
			setOrDelete(item, "link", linkOf(links, "alternate", 0))
		}
		if d := firstString(e.Get("published")); d != "" {
			if t, ok := parseDate(d); ok {
				item.Set("pubDate", isoString(t))
			}
		}
		if !item.Has("pubDate") {
			if d := firstString(e.Get("updated")); d != "" {
				if t, ok := parseDate(d); ok {
					item.Set("pubDate", isoString(t))
				}
			}
		}
		if a := first(e.Get("author")); a != nil {
			if l := list(a.Get("name")); len(l) > 0 {
				item.Set("author", l[0])
			}
		}
		if l := list(e.Get("content")); len(l) > 0 {
			content := contentOf(l[0])
			item.Set("content", content)
			item.Set("contentSnippet", snippet(content))
		}
		if l := list(e.Get("summary")); len(l) > 0 {
			item.Set("summary", contentOf(l[0]))
		}
		if l := list(e.Get("id")); len(l) > 0 {
			item.Set("id", l[0])
		}
		setISODate(item)
		out = append(out, item)
	}
	return out
}

func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	}
	return true
}

func firstString(v any) string {
	l := list(v)
	if len(l) == 0 {
		return ""
	}
	s, _ := l[0].(string)
	return s
}

// linkOf is the href of the link with rel, else of the link at fallback.
func linkOf(links []any, rel string, fallback int) any {
	href := func(v any) any {
		if o, ok := v.(*workflow.Object); ok {
			if attrs, ok := o.Get("$").(*workflow.Object); ok {
				return attrs.Get("href")
			}
		}
		return nil
	}
	for _, l := range links {
		if o, ok := l.(*workflow.Object); ok {
			if attrs, ok := o.Get("$").(*workflow.Object); ok && attrs.Get("rel") == rel {
				return attrs.Get("href")
			}
		}
	}
	if fallback < len(links) {
		return href(links[fallback])
	}
	return nil
}

// contentOf is an element's text, or its markup rebuilt inside a div when it has children.
func contentOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case *workflow.Object:
		if s, ok := x.Get("_").(string); ok {
			return s
		}
		var sb strings.Builder
		writeElement(&sb, "div", x)
		return sb.String()
	}
	return jsv.ToString(v)
}

// writeElement renders an xml2js value compactly, as xml2js's Builder does.
func writeElement(sb *strings.Builder, name string, v any) {
	o, ok := v.(*workflow.Object)
	if !ok {
		sb.WriteString("<" + name + ">" + escapeText(jsv.ToString(v)) + "</" + name + ">")
		return
	}
	sb.WriteString("<" + name)
	if attrs, ok := o.Get("$").(*workflow.Object); ok {
		for k, a := range attrs.All() {
			sb.WriteString(" " + k + `="` + escapeAttr(jsv.ToString(a)) + `"`)
		}
	}
	var inner strings.Builder
	for k, c := range o.All() {
		switch k {
		case "$":
		case "_":
			inner.WriteString(escapeText(jsv.ToString(c)))
		default:
			if l, isList := c.([]any); isList {
				for _, el := range l {
					writeElement(&inner, k, el)
				}
			} else {
				writeElement(&inner, k, c)
			}
		}
	}
	if inner.Len() == 0 {
		sb.WriteString("/>")
		return
	}
	sb.WriteString(">" + inner.String() + "</" + name + ">")
}

var (
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")
)

func escapeText(s string) string { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }

var (
	blockTag = regexp.MustCompile(`([^\n])</?(h|br|p|ul|ol|li|blockquote|section|table|tr|div)(?:.|\n)*?>([^\n])`)
	anyTag   = regexp.MustCompile(`<(?:.|\n)*?>`)
)

// snippet is the text of HTML: block tags become line breaks, other tags go, entities are
// decoded, and the ends are trimmed.
func snippet(s string) string {
	s = blockTag.ReplaceAllString(s, "$1\n$3")
	s = anyTag.ReplaceAllString(s, "")
	return strings.TrimSpace(html.UnescapeString(s))
}

// setISODate adds isoDate from pubDate or date when JavaScript's Date can read it.
func setISODate(item *workflow.Object) {
	d, _ := item.Get("pubDate").(string)
	if d == "" {
		d, _ = item.Get("date").(string)
	}
	if d == "" {
		return
	}
	if t, ok := parseDate(d); ok {
		item.Set("isoDate", isoString(t))
	}
}

func isoString(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// feedDateLayouts are the RFC 822 forms feeds use besides those jsv.ParseDate knows.
var feedDateLayouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04 -0700", "2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 06 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05", "Mon, 2 Jan 2006",
}

// zones are the zone names JavaScript's Date knows.
var zones = map[string]string{
	"GMT": "+0000", "UT": "+0000", "UTC": "+0000", "Z": "+0000", "EST": "-0500", "EDT": "-0400", "CST": "-0600",
	"CDT": "-0500", "MST": "-0700", "MDT": "-0600", "PST": "-0800", "PDT": "-0700",
}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	// Go reads a zone name it does not know as UTC; JavaScript knows the US ones.
	if i := strings.LastIndexByte(s, ' '); i > 0 {
		if off, ok := zones[strings.ToUpper(s[i+1:])]; ok {
			s = s[:i+1] + off
		}
	}
	if t, ok := jsv.ParseDate(s); ok {
		return t, true
	}
	for _, l := range feedDateLayouts {
		loc := time.UTC
		if !strings.Contains(l, "-0700") {
			loc = time.Local
		}
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
