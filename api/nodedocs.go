package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"regexp"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// nodeDocParameter is one row of a documentation page's parameter table.
type nodeDocParameter struct {
	Name, Label, Type, Default, Description string
	Required                                bool
	// Choices are the options of an options parameter, or the fields a collection holds
	// (Holds true).
	Choices []string
	Holds   bool
}

type nodeDocPage struct {
	Title       string
	Type        string
	Description string
	Trigger     bool
	Body        template.HTML
	Parameters  []nodeDocParameter
	Credentials []string
	IndexURL    string
	IssuesURL   string
}

type nodeDocIndexEntry struct {
	Name, Title, Description, URL string
	Trigger                       bool
}

type nodeDocIndex struct {
	Nodes     []nodeDocIndexEntry
	IssuesURL string
}

// getNodeDocsIndex lists the documentation pages of the node types this instance offers.
func (s *server) getNodeDocsIndex(c fiber.Ctx) error {
	var entries []nodeDocIndexEntry
	for _, t := range s.nodeTypes.Latest() {
		d := t.Description
		entries = append(entries, nodeDocIndexEntry{Name: d.Name, Title: d.DisplayName, Description: d.Description, URL: s.cfg.BasePath + nodes.DocumentationPath(d.Name), Trigger: d.IsTrigger()})
	}
	slices.SortFunc(entries, func(a, b nodeDocIndexEntry) int {
		return strings.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title))
	})
	return renderDoc(c, "index", nodeDocIndex{Nodes: entries, IssuesURL: s.cfg.IssuesURL})
}

// getNodeDoc is a node type's documentation page: its hand-written summary and example
// (doc.md in the node's folder) and its parameters, generated from the description. Types of
// scoped custom packages (@scope/package.node) are served under /docs/nodes/<@scope>/<type>.
func (s *server) getNodeDoc(c fiber.Ctx) error {
	name := typeParam(c)
	t := s.latestType(name)
	if t == nil {
		return notFound(fmt.Sprintf("No node type %q.", name))
	}
	d := t.Description
	page := nodeDocPage{Title: d.DisplayName, Type: d.Name, Description: d.Description, Trigger: d.IsTrigger(), IndexURL: s.cfg.BasePath + "docs/nodes", IssuesURL: s.cfg.IssuesURL}
	if doc, ok := nodes.DocFor(d.Name); ok {
		page.Body = renderMarkdown(doc.Markdown)
	}
	page.Parameters = docParameters(d.Properties)
	for _, cred := range d.Credentials {
		if n, ok := cred["name"].(string); ok {
			page.Credentials = append(page.Credentials, n)
		}
	}
	return renderDoc(c, "node", page)
}

func renderDoc(c fiber.Ctx, name string, data any) error {
	var buf bytes.Buffer
	if err := docTemplates.ExecuteTemplate(&buf, name, data); err != nil {
		return fmt.Errorf("node documentation: %w", err)
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	return c.Send(buf.Bytes())
}

var tagPattern = regexp.MustCompile(`<[^>]*>`)

// plainText drops the HTML of n8n's description strings, keeping their text.
func plainText(s string) string {
	return strings.TrimSpace(html.UnescapeString(tagPattern.ReplaceAllString(s, "")))
}

// docParameters lists the top-level parameters a user sets (not notices or hidden ones).
func docParameters(props []workflow.Property) []nodeDocParameter {
	var out []nodeDocParameter
	seen := map[string]bool{}
	for _, p := range props {
		if p.Type == "notice" || p.Type == "hidden" || seen[p.Name] {
			continue
		}
		seen[p.Name] = true
		row := nodeDocParameter{Name: p.Name, Label: plainText(p.DisplayName), Type: p.Type, Description: plainText(p.Description), Required: p.Required,
			Holds: p.Type == "collection" || p.Type == "fixedCollection"}
		if p.Default != nil && p.Type != "collection" && p.Type != "fixedCollection" {
			if b, err := json.Marshal(p.Default); err == nil && string(b) != `""` && string(b) != "{}" && string(b) != "[]" {
				row.Default = string(b)
			}
		}
		for _, o := range p.Options {
			label := plainText(o.DisplayName)
			if label == "" {
				label = fmt.Sprint(o.Value)
			}
			if label != "" && label != "<nil>" {
				row.Choices = append(row.Choices, label)
			}
		}
		out = append(out, row)
	}
	return out
}

var (
	inlineCode = regexp.MustCompile("`([^`]+)`")
	emphasis   = regexp.MustCompile(`\*([^*]+)\*`)
)

// renderMarkdown renders the small Markdown of the doc pages: paragraphs, "## " headings, fenced
// code blocks, `code` and *emphasis*. Everything is escaped first, so a page cannot carry HTML.
func renderMarkdown(md string) template.HTML {
	var out strings.Builder
	inline := func(s string) string {
		s = template.HTMLEscapeString(s)
		s = inlineCode.ReplaceAllString(s, "<code>$1</code>")
		return emphasis.ReplaceAllString(s, "<em>$1</em>")
	}
	lines := strings.Split(md, "\n")
	var para []string
	flush := func() {
		if len(para) > 0 {
			out.WriteString("<p>" + inline(strings.Join(para, " ")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "```"):
			flush()
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				code = append(code, lines[i])
			}
			out.WriteString("<pre><code>" + template.HTMLEscapeString(strings.Join(code, "\n")) + "</code></pre>\n")
		case strings.HasPrefix(line, "## "):
			flush()
			out.WriteString("<h2>" + inline(strings.TrimPrefix(line, "## ")) + "</h2>\n")
		case strings.TrimSpace(line) == "":
			flush()
		default:
			para = append(para, strings.TrimSpace(line))
		}
	}
	flush()
	return template.HTML(out.String()) //nolint:gosec // built from escaped text above
}

const docStyle = `<style>
body{margin:0;font:15px/1.6 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;color:#1f2430;background:#f5f6f8}
header{background:#fff;border-bottom:1px solid #e3e5ea;padding:14px 32px;display:flex;gap:16px;align-items:center}
header a{color:#ff6d5a;font-weight:600;text-decoration:none}
main{max-width:880px;margin:28px auto;padding:28px 36px;background:#fff;border:1px solid #e3e5ea;border-radius:8px}
h1{margin:0 0 4px;font-size:26px}h2{font-size:18px;margin:28px 0 8px}
.type{color:#6b7280;font-family:ui-monospace,Menlo,monospace;font-size:13px}
.lead{font-size:16px;color:#374151}
code{font-family:ui-monospace,Menlo,monospace;font-size:13px;background:#f1f3f5;padding:1px 4px;border-radius:3px}
pre{background:#1f2430;color:#f5f6f8;padding:14px 16px;border-radius:6px;overflow:auto}pre code{background:none;color:inherit;padding:0}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:8px 10px;border-bottom:1px solid #e9ebef;vertical-align:top}
th{background:#f8f9fb;font-weight:600}.req{color:#e03131;font-size:12px}.choices{color:#6b7280;font-size:13px}
.tag{display:inline-block;font-size:12px;background:#fff0ee;color:#c2410c;border-radius:10px;padding:0 8px;margin-left:6px}
ul.nodes{list-style:none;padding:0;margin:0}ul.nodes li{padding:10px 0;border-bottom:1px solid #eef0f3}ul.nodes a{font-weight:600;color:#1f2430}
.muted{color:#6b7280}
</style>`

var docTemplates = template.Must(template.New("docs").Parse(`
{{define "node"}}<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{.Title}} · Flowmill node documentation</title>` + docStyle + `</head><body>
<header><a href="{{.IndexURL}}">Flowmill nodes</a>{{if .IssuesURL}}<a href="{{.IssuesURL}}" rel="noreferrer">Report an issue</a>{{end}}</header>
<main data-node-type="{{.Type}}">
<h1>{{.Title}}{{if .Trigger}}<span class="tag">Trigger</span>{{end}}</h1>
<div class="type">{{.Type}}</div>
{{if .Description}}<p class="lead">{{.Description}}</p>{{end}}
{{.Body}}
<h2>Parameters</h2>
{{if .Parameters}}<table><thead><tr><th>Parameter</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>
{{range .Parameters}}<tr><td><strong>{{.Label}}</strong>{{if .Required}} <span class="req">required</span>{{end}}<br><code>{{.Name}}</code></td><td>{{.Type}}</td><td>{{if .Default}}<code>{{.Default}}</code>{{end}}</td>
<td>{{.Description}}{{if .Choices}}<div class="choices">{{if .Holds}}Holds{{else}}One of{{end}}: {{range $i, $c := .Choices}}{{if $i}}, {{end}}{{$c}}{{end}}</div>{{end}}</td></tr>
{{end}}</tbody></table>{{else}}<p class="muted">This node has no parameters.</p>{{end}}
{{if .Credentials}}<h2>Credentials</h2><p>{{range $i, $c := .Credentials}}{{if $i}}, {{end}}<code>{{$c}}</code>{{end}}</p>{{end}}
</main></body></html>{{end}}
{{define "index"}}<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Flowmill node documentation</title>` + docStyle + `</head><body>
<header><a href="#">Flowmill nodes</a>{{if .IssuesURL}}<a href="{{.IssuesURL}}" rel="noreferrer">Report an issue</a>{{end}}</header>
<main>
<h1>Nodes</h1>
<p class="lead" id="quickstart">A workflow starts at a trigger (or the Start node when you run it by hand) and hands items from node to node along the connections. Open a node to set its parameters; use expressions such as <code>{{"{{"}} $json["name"] {{"}}"}}</code> to read the items that reach it, or drag a field from the input panel onto a parameter.</p>
<ul class="nodes">{{range .Nodes}}<li><a href="{{.URL}}">{{.Title}}</a>{{if .Trigger}}<span class="tag">Trigger</span>{{end}}<div class="muted">{{.Description}}</div></li>{{end}}</ul>
</main></body></html>{{end}}`))
