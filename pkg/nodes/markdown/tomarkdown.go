package markdown

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dlclark/regexp2/v2"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// htmlOptions are node-html-markdown's options as the node passes them.
type htmlOptions struct {
	bulletMarker, codeFence, emDelimiter, strongDelimiter string
	codeBlockStyle                                        string
	ignore, blockElements                                 []string
	keepDataImages                                        bool
	maxNewlines                                           int
	globalEscape, lineStartEscape                         *replacement
	textReplace                                           []textReplacement
}

type replacement struct {
	re   *regexp2.Regexp
	with string
}

// textReplacement replaces the first occurrence of a text, as String.replace with a string does.
type textReplacement struct{ pattern, with string }

func htmlOptionsFrom(options map[string]any) (htmlOptions, error) {
	str := func(key, fallback string) string {
		if v, ok := options[key]; ok && v != nil && jsv.ToString(v) != "" {
			return jsv.ToString(v)
		}
		return fallback
	}
	list := func(key string) []string {
		s := str(key, "")
		if s == "" {
			return nil
		}
		parts := strings.Split(s, ",")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	o := htmlOptions{
		bulletMarker: str("bulletMarker", "*"), codeFence: str("codeFence", "```"), emDelimiter: str("emDelimiter", "_"),
		strongDelimiter: str("strongDelimiter", "**"), codeBlockStyle: str("codeBlockStyle", "fence"),
		ignore: list("ignore"), blockElements: list("blockElements"),
		keepDataImages: workflow.Truthy(options["keepDataImages"]), maxNewlines: 3,
	}
	if n, ok := workflow.Number(options["maxConsecutiveNewlines"]); ok && n > 0 {
		o.maxNewlines = int(n)
	}
	var err error
	defaultGlobal := regexp2.MustCompile("[\\\\`*_~\\[\\]]", regexp2.ECMAScript|regexp2.Multiline)
	o.globalEscape = &replacement{re: defaultGlobal, with: "\\$0"}
	if o.globalEscape, err = escapeOption(options, "globalEscape", o.globalEscape); err != nil {
		return o, err
	}
	defaultLineStart := regexp2.MustCompile(`^(\s*?)((?:\+\s)|(?:[=>-])|(?:#{1,6}\s))|(?:(\d+)(\.\s))`, regexp2.ECMAScript|regexp2.Multiline)
	o.lineStartEscape = &replacement{re: defaultLineStart, with: "$1$3\\$2$4"}
	if o.lineStartEscape, err = escapeOption(options, "lineStartEscape", o.lineStartEscape); err != nil {
		return o, err
	}
	if tr, ok := options["textReplace"].(map[string]any); ok {
		values, _ := tr["values"].([]any)
		for _, v := range values {
			entry, ok := workflow.AsObject(v)
			if !ok {
				if m, isMap := v.(map[string]any); isMap {
					entry = workflow.ObjectFromMap(m)
				} else {
					continue
				}
			}
			o.textReplace = append(o.textReplace, textReplacement{jsv.ToString(jsv.Or(entry.Get("pattern"), "")), jsv.ToString(jsv.Or(entry.Get("replacement"), ""))})
		}
	}
	return o, nil
}

func escapeOption(options map[string]any, key string, fallback *replacement) (*replacement, error) {
	c, ok := options[key].(map[string]any)
	if !ok {
		return fallback, nil
	}
	v, ok := c["value"].(map[string]any)
	if !ok || len(v) == 0 {
		return fallback, nil
	}
	pattern := jsv.ToString(jsv.Or(v["pattern"], ""))
	re, err := regexp2.Compile(pattern, regexp2.ECMAScript|regexp2.Multiline)
	if err != nil {
		return nil, fmt.Errorf("Invalid regular expression: /%s/: %v", pattern, err)
	}
	return &replacement{re: re, with: jsv.ToString(jsv.Or(v["replacement"], ""))}, nil
}

// Elements left out with their content, as node-html-markdown does.
var ignored = []atom.Atom{atom.Area, atom.Audio, atom.Button, atom.Canvas, atom.Datalist, atom.Embed, atom.Head,
	atom.Input, atom.Map, atom.Menu, atom.Meter, atom.Noframes, atom.Noscript, atom.Object, atom.Optgroup, atom.Option,
	atom.Param, atom.Progress, atom.Rp, atom.Rt, atom.Ruby, atom.Script, atom.Select, atom.Style, atom.Textarea,
	atom.Title, atom.Video, atom.Template}

// Elements written as blocks: a blank line before and after.
var blocks = []atom.Atom{atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Details, atom.Dialog, atom.Dd,
	atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Header,
	atom.Hgroup, atom.Main, atom.Nav, atom.P, atom.Section, atom.Table, atom.Tr, atom.Ol, atom.Ul, atom.Pre,
	atom.Center}

type writer struct {
	o        htmlOptions
	sb       strings.Builder
	listPath []*list
	inPre    bool
}

type list struct {
	ordered bool
	n       int
}

// htmlToMarkdown converts HTML as node-html-markdown does for the common elements: headings,
// paragraphs, emphasis, links, images, lists, quotes and code.
func htmlToMarkdown(doc string, o htmlOptions) (string, error) {
	root, err := html.Parse(strings.NewReader(doc))
	if err != nil {
		return "", err
	}
	w := &writer{o: o}
	w.children(root)
	out := strings.TrimLeft(w.sb.String(), "\r\n")
	out = strings.TrimRight(out, " \t\r\n")
	if o.maxNewlines > 0 {
		re := regexp.MustCompile(`\n{` + strconv.Itoa(o.maxNewlines+1) + `,}`)
		out = re.ReplaceAllString(out, strings.Repeat("\n", o.maxNewlines))
	}
	return out, nil
}

func (w *writer) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

func (w *writer) trailingNewlines() int {
	s := w.sb.String()
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\n'; i-- {
		n++
	}
	return n
}

func (w *writer) endsWithSpace() bool {
	s := w.sb.String()
	return s == "" || strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\n")
}

// newlines makes the output end with at least n newlines (none at the very start).
func (w *writer) newlines(n int) {
	if w.sb.Len() == 0 {
		return
	}
	for have := w.trailingNewlines(); have < n; have++ {
		w.sb.WriteString("\n")
	}
}

func (w *writer) indent() string {
	return strings.Repeat("  ", max(len(w.listPath)-1, 0))
}

var whitespace = regexp.MustCompile(`[ \t\r\n\f]+`)

func (w *writer) text(s string) {
	if w.inPre {
		w.sb.WriteString(s)
		return
	}
	for _, r := range w.o.textReplace {
		s = strings.Replace(s, r.pattern, r.with, 1)
	}
	s = whitespace.ReplaceAllString(s, " ")
	if strings.TrimSpace(s) == "" {
		if s != "" && !(w.sb.Len() > 0 && w.endsWithSpace()) {
			w.sb.WriteString(" ")
		}
		return
	}
	if strings.HasPrefix(s, " ") && w.endsWithSpace() && w.sb.Len() > 0 {
		s = s[1:]
	}
	if w.o.globalEscape != nil {
		s, _ = w.o.globalEscape.re.Replace(s, w.o.globalEscape.with, -1, -1)
	}
	if w.o.lineStartEscape != nil && (w.sb.Len() == 0 || strings.HasSuffix(w.sb.String(), "\n") || strings.HasSuffix(w.sb.String(), "# ") || strings.HasSuffix(w.sb.String(), w.o.bulletMarker+" ")) {
		s, _ = w.o.lineStartEscape.re.Replace(s, w.o.lineStartEscape.with, -1, -1)
	}
	w.sb.WriteString(s)
}

// inner renders n's children into a string of their own.
func (w *writer) inner(n *html.Node) string {
	saved := w.sb
	w.sb = strings.Builder{}
	w.children(n)
	s := w.sb.String()
	w.sb = saved
	return s
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func (w *writer) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.ElementNode:
	default:
		w.children(n)
		return
	}
	// node-html-markdown compares upper-case tag names with the given names as they are.
	if slices.Contains(w.o.ignore, strings.ToUpper(n.Data)) || slices.Contains(ignored, n.DataAtom) {
		return
	}
	if slices.Contains(w.o.blockElements, strings.ToUpper(n.Data)) {
		w.newlines(2)
		w.children(n)
		w.newlines(2)
		return
	}
	switch n.DataAtom {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		w.newlines(2)
		level := int(n.Data[1] - '0')
		w.sb.WriteString(strings.Repeat("#", level) + " ")
		w.sb.WriteString(strings.TrimSpace(w.inner(n)))
		w.newlines(2)
	case atom.Strong, atom.B:
		w.wrap(n, w.o.strongDelimiter)
	case atom.Em, atom.I:
		w.wrap(n, w.o.emDelimiter)
	case atom.Del, atom.S, atom.Strike:
		w.wrap(n, "~~")
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		if w.inPre {
			w.children(n)
			return
		}
		content := textContent(n)
		fence := "`"
		if strings.Contains(content, "`") {
			fence = "``"
		}
		w.sb.WriteString(fence + content + fence)
	case atom.Pre:
		w.newlines(2)
		content := textContent(n)
		if w.o.codeBlockStyle == "indented" {
			lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
			for i := range lines {
				lines[i] = "    " + lines[i]
			}
			w.sb.WriteString(strings.Join(lines, "\n"))
		} else {
			lang := ""
			if code := n.FirstChild; code != nil && code.DataAtom == atom.Code {
				for _, c := range strings.Fields(attr(code, "class")) {
					if l, ok := strings.CutPrefix(c, "language-"); ok {
						lang = l
					}
				}
			}
			w.sb.WriteString(w.o.codeFence + lang + "\n" + strings.TrimRight(content, "\n") + "\n" + w.o.codeFence)
		}
		w.newlines(2)
	case atom.A:
		href := attr(n, "href")
		content := strings.TrimSpace(w.inner(n))
		if href == "" || content == "" {
			w.sb.WriteString(content)
			return
		}
		title := attr(n, "title")
		if title != "" {
			href += ` "` + title + `"`
		}
		w.sb.WriteString("[" + content + "](" + href + ")")
	case atom.Img:
		src := attr(n, "src")
		if src == "" || (strings.HasPrefix(src, "data:") && !w.o.keepDataImages) {
			return
		}
		title := attr(n, "title")
		if title != "" {
			src += ` "` + title + `"`
		}
		w.sb.WriteString("![" + attr(n, "alt") + "](" + src + ")")
	case atom.Br:
		w.sb.WriteString("  \n" + w.indent())
	case atom.Hr:
		w.newlines(2)
		w.sb.WriteString("---")
		w.newlines(2)
	case atom.Ul, atom.Ol:
		if len(w.listPath) == 0 {
			w.newlines(2)
		} else {
			w.newlines(1)
		}
		l := &list{ordered: n.DataAtom == atom.Ol, n: 1}
		if s, err := strconv.Atoi(attr(n, "start")); err == nil {
			l.n = s
		}
		w.listPath = append(w.listPath, l)
		w.children(n)
		w.listPath = w.listPath[:len(w.listPath)-1]
		if len(w.listPath) == 0 {
			w.newlines(2)
		} else {
			w.newlines(1)
		}
	case atom.Li:
		w.newlines(1)
		marker := w.o.bulletMarker + " "
		if len(w.listPath) > 0 && w.listPath[len(w.listPath)-1].ordered {
			l := w.listPath[len(w.listPath)-1]
			marker = strconv.Itoa(l.n) + ". "
			l.n++
		}
		w.sb.WriteString(w.indent() + marker)
		w.sb.WriteString(strings.TrimLeft(w.inner(n), " "))
		w.newlines(1)
	case atom.Blockquote:
		w.newlines(2)
		content := strings.Trim(w.inner(n), "\n ")
		lines := strings.Split(content, "\n")
		for i := range lines {
			lines[i] = "> " + lines[i]
		}
		w.sb.WriteString(strings.Join(lines, "\n"))
		w.newlines(2)
	default:
		if slices.Contains(blocks, n.DataAtom) {
			w.newlines(2)
			w.children(n)
			w.newlines(2)
			return
		}
		w.children(n)
	}
}

func (w *writer) wrap(n *html.Node, delimiter string) {
	content := w.inner(n)
	trimmed := strings.TrimSpace(content)
	if trimmed == "" {
		w.sb.WriteString(content)
		return
	}
	if strings.HasPrefix(content, " ") && !w.endsWithSpace() {
		w.sb.WriteString(" ")
	}
	w.sb.WriteString(delimiter + trimmed + delimiter)
	if strings.HasSuffix(content, " ") {
		w.sb.WriteString(" ")
	}
}

func textContent(n *html.Node) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
		for x := c.FirstChild; x != nil; x = x.NextSibling {
			walk(x)
		}
	}
	walk(n)
	return sb.String()
}
