package templates

import (
	"slices"
	"strings"
)

// MaxRows is the largest page of templates one query returns.
const MaxRows = 100

// Query selects templates or collections: a search text (case-insensitive, every word must
// occur in the name or the description) and category ids (any of them; none means all).
type Query struct {
	Search     string
	Categories []int
}

// words splits the search text into lower-case words.
func (q Query) words() []string { return strings.Fields(strings.ToLower(q.Search)) }

func matchesText(text string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

func inCategories(cats []Category, ids []int) bool {
	if len(ids) == 0 {
		return true
	}
	return slices.ContainsFunc(cats, func(c Category) bool { return slices.Contains(ids, c.ID) })
}

// Categories returns every category, by name.
func (c *Catalogue) Categories() []Category {
	out := slices.Clone(c.categories)
	slices.SortFunc(out, func(a, b Category) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Templates returns every template, by id.
func (c *Catalogue) Templates() []*Template { return slices.Clone(c.templates) }

// Collections returns every collection, by id.
func (c *Catalogue) Collections() []*Collection { return slices.Clone(c.collections) }

// SearchTemplates returns the page of templates matching q that starts at skip and holds at
// most rows (1 to MaxRows), and how many match in all. Templates whose name holds the search
// words come first, then the most viewed.
func (c *Catalogue) SearchTemplates(q Query, skip, rows int) (page []*Template, total int) {
	words := q.words()
	var hits []*Template
	for _, t := range c.templates {
		if inCategories(t.Categories, q.Categories) && matchesText(t.text, words) {
			hits = append(hits, t)
		}
	}
	inName := func(t *Template) bool { return len(words) > 0 && matchesText(strings.ToLower(t.Name), words) }
	slices.SortStableFunc(hits, func(a, b *Template) int {
		if x, y := inName(a), inName(b); x != y {
			if x {
				return -1
			}
			return 1
		}
		if a.TotalViews != b.TotalViews {
			return b.TotalViews - a.TotalViews
		}
		return a.ID - b.ID
	})
	total = len(hits)
	if skip >= total {
		return []*Template{}, total
	}
	return hits[skip:min(skip+rows, total)], total
}

// SearchCollections returns the collections matching q: the search words occur in the
// collection's name or description or in one of its templates'; by id.
func (c *Catalogue) SearchCollections(q Query) []*Collection {
	words := q.words()
	out := []*Collection{}
	for _, col := range c.collections {
		if !inCategories(col.Categories, q.Categories) {
			continue
		}
		match := matchesText(col.text, words) || slices.ContainsFunc(col.Workflows, func(t *Template) bool { return matchesText(t.text, words) })
		if match {
			out = append(out, col)
		}
	}
	return out
}

// Template returns the template with the id, or false.
func (c *Catalogue) Template(id int) (*Template, bool) {
	t, ok := c.byID[id]
	return t, ok
}

// Collection returns the collection with the id, or false.
func (c *Catalogue) Collection(id int) (*Collection, bool) {
	col, ok := c.collByID[id]
	return col, ok
}
