package nodes

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
)

// docFiles are the hand-written pages of the built-in nodes, one doc.md in each node's folder:
// a front matter naming the node type, a short summary and an example, in a small Markdown
// (paragraphs, "## " headings, fenced code, `code`, *emphasis*).
//
//go:embed */doc.md
var docFiles embed.FS

// Doc is the hand-written part of a node type's documentation page.
type Doc struct {
	// Type is the node type name, such as n8n-nodes-base.set.
	Type string
	// Markdown is the page text after the front matter.
	Markdown string
}

// docs holds the parsed pages by node type; built once, read only.
var docs = mustLoadDocs()

// DocFor returns the hand-written page of a node type; false when the type has none.
func DocFor(typeName string) (Doc, bool) {
	d, ok := docs[typeName]
	return d, ok
}

// DocumentationPath is where the api serves a node type's documentation page, relative to the
// base path (no leading slash).
func DocumentationPath(typeName string) string {
	return "docs/nodes/" + typeName
}

func mustLoadDocs() map[string]Doc {
	out, err := loadDocs(docFiles)
	if err != nil {
		panic(err)
	}
	return out
}

func loadDocs(files fs.FS) (map[string]Doc, error) {
	paths, err := fs.Glob(files, "*/doc.md")
	if err != nil {
		return nil, err
	}
	out := make(map[string]Doc, len(paths))
	for _, p := range paths {
		b, err := fs.ReadFile(files, p)
		if err != nil {
			return nil, err
		}
		d, err := parseDoc(string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if _, dup := out[d.Type]; dup {
			return nil, fmt.Errorf("%s: a second page for %s", p, d.Type)
		}
		out[d.Type] = d
	}
	return out, nil
}

// parseDoc reads "---\ntype: <name>\n---\n<markdown>".
func parseDoc(text string) (Doc, error) {
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return Doc{}, fmt.Errorf("doc page: front matter missing")
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return Doc{}, fmt.Errorf("doc page: front matter not closed")
	}
	typeName, ok := strings.CutPrefix(strings.TrimSpace(head), "type:")
	typeName = strings.TrimSpace(typeName)
	if !ok || typeName == "" {
		return Doc{}, fmt.Errorf("doc page: front matter must name the type")
	}
	return Doc{Type: typeName, Markdown: strings.TrimSpace(body)}, nil
}
