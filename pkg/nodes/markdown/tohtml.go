package markdown

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/flowmill/flowmill/pkg/nodes/internal/jsv"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// markdownOptions are the showdown options the conversion honours.
type markdownOptions struct {
	openLinksInNewWindow bool
	simplifiedAutoLink   bool
	completeHTMLDocument bool
	ghCompatibleHeaderID bool
	noHeaderID           bool
	prefixHeaderID       string
	headerLevelStart     int
	simpleLineBreaks     bool
	strikethrough        bool
	tables               bool
	tasklists            bool
}

func markdownOptionsFrom(options map[string]any) markdownOptions {
	o := markdownOptions{headerLevelStart: 1}
	o.openLinksInNewWindow = workflow.Truthy(options["openLinksInNewWindow"])
	o.simplifiedAutoLink = workflow.Truthy(options["simplifiedAutoLink"])
	o.completeHTMLDocument = workflow.Truthy(options["completeHTMLDocument"])
	o.ghCompatibleHeaderID = workflow.Truthy(options["ghCompatibleHeaderId"])
	o.noHeaderID = workflow.Truthy(options["noHeaderId"])
	if p, ok := options["prefixHeaderId"]; ok && p != nil {
		o.prefixHeaderID = jsv.ToString(p)
	}
	if n, ok := workflow.Number(options["headerLevelStart"]); ok && n >= 1 {
		o.headerLevelStart = int(n)
	}
	o.simpleLineBreaks = workflow.Truthy(options["simpleLineBreaks"])
	o.strikethrough = workflow.Truthy(options["strikethrough"])
	o.tables = workflow.Truthy(options["tables"])
	o.tasklists = workflow.Truthy(options["tasklists"])
	return o
}

// markdownToHTML renders Markdown as showdown does where it matters most: header IDs from the
// heading text, "..." as an ellipsis, raw HTML kept, blocks separated by one newline.
func markdownToHTML(md string, o markdownOptions) (string, error) {
	var exts []goldmark.Extender
	exts = append(exts, extension.NewTypographer(extension.WithTypographicSubstitutions(extension.TypographicSubstitutions{
		extension.Ellipsis: []byte("…"), extension.LeftSingleQuote: nil, extension.RightSingleQuote: nil,
		extension.LeftDoubleQuote: nil, extension.RightDoubleQuote: nil, extension.EnDash: nil, extension.EmDash: nil,
		extension.LeftAngleQuote: nil, extension.RightAngleQuote: nil, extension.Apostrophe: nil,
	})))
	if o.simplifiedAutoLink {
		exts = append(exts, extension.Linkify)
	}
	if o.strikethrough {
		exts = append(exts, extension.Strikethrough)
	}
	if o.tables {
		exts = append(exts, extension.Table)
	}
	if o.tasklists {
		exts = append(exts, extension.TaskList)
	}
	rendererOptions := []goldmark.Option{goldmark.WithExtensions(exts...)}
	htmlOptions := []renderer.Option{html.WithUnsafe()}
	if o.simpleLineBreaks {
		htmlOptions = append(htmlOptions, html.WithHardWraps())
	}
	rendererOptions = append(rendererOptions, goldmark.WithRendererOptions(htmlOptions...))
	md2 := goldmark.New(rendererOptions...)

	source := []byte(md)
	doc := md2.Parser().Parse(text.NewReader(source), parser.WithContext(parser.NewContext()))
	ids := map[string]int{}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch x := n.(type) {
		case *ast.Heading:
			if !o.noHeaderID {
				x.SetAttributeString("id", []byte(headerID(plainText(x, source), o, ids)))
			}
			if level := x.Level + o.headerLevelStart - 1; level <= 6 {
				x.Level = level
			} else {
				x.Level = 6
			}
		case *ast.Link, *ast.AutoLink:
			if o.openLinksInNewWindow {
				n.SetAttributeString("rel", []byte("noopener noreferrer"))
				n.SetAttributeString("target", []byte("_blank"))
			}
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := md2.Renderer().Render(&buf, source, doc); err != nil {
		return "", err
	}
	out := strings.TrimRight(buf.String(), "\n")
	if o.completeHTMLDocument {
		out = "<!DOCTYPE HTML>\n<html>\n<head>\n<meta charset=\"utf-8\">\n</head>\n<body>\n" + out + "\n</body>\n</html>"
	}
	return out, nil
}

func plainText(n ast.Node, source []byte) string {
	var sb strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			sb.Write(t.Segment.Value(source))
		case *ast.String:
			sb.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return sb.String()
}

var (
	nonWord      = regexp.MustCompile(`[^\w]`)
	ghPunct      = regexp.MustCompile("[&+$,/:;=?@\"#{}|^¨~\\[\\]`\\\\*)(%.!'<>]")
	spacesToDash = regexp.MustCompile(`\s`)
)

// headerID makes showdown's header ID: the text without non-word characters, lower case (or
// GitHub's style), after the prefix; a repeated ID gets -1, -2, ….
func headerID(title string, o markdownOptions, seen map[string]int) string {
	var id string
	if o.ghCompatibleHeaderID {
		id = strings.ToLower(spacesToDash.ReplaceAllString(ghPunct.ReplaceAllString(title, ""), "-"))
	} else {
		id = strings.ToLower(nonWord.ReplaceAllString(title, ""))
	}
	if o.prefixHeaderID != "" {
		id = strings.ToLower(nonWord.ReplaceAllString(o.prefixHeaderID, "")) + id
	}
	if n, ok := seen[id]; ok {
		seen[id] = n + 1
		return id + "-" + strconv.Itoa(n+1)
	}
	seen[id] = 0
	return id
}
