// Package templates is the built-in template library: a catalogue of workflow templates,
// categories and collections shipped inside the binary (catalogue/), and the queries the
// templates host answers with n8n's public templates API shapes (search, category filter,
// paging, lookups by id). It knows nothing of HTTP; api/templateshost.go serves it.
package templates

import (
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
)

//go:embed catalogue
var catalogueFS embed.FS

// stickyNoteType is left out of a template's node list: it documents, it does not run.
const stickyNoteType = "n8n-nodes-base.stickyNote"

// Category is a template category (n8n's ITemplatesCategory).
type Category struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// Image is n8n's ITemplatesImage; the built-in catalogue has none, the lists stay empty.
type Image struct {
	ID  int    `json:"id"`
	URL string `json:"url"`
}

// IconData is how a node's icon travels with a template: a file icon as a data: URL
// (fileBuffer), a font icon by name.
type IconData struct {
	Type       string `json:"type"`
	Icon       string `json:"icon,omitempty"`
	FileBuffer string `json:"fileBuffer,omitempty"`
}

// Node is a node type a template uses (n8n's ITemplatesNode): enough to draw its icon and name
// without the instance's node types.
type Node struct {
	ID          int               `json:"id"`
	Name        string            `json:"name"`
	DisplayName string            `json:"displayName"`
	Icon        string            `json:"icon,omitempty"`
	IconData    IconData          `json:"iconData"`
	Defaults    map[string]string `json:"defaults"`
	TypeVersion float64           `json:"typeVersion"`
	Categories  []Category        `json:"categories"`
}

// User is a template's author.
type User struct {
	Username string `json:"username"`
}

// Workflow is the importable part of a template: its nodes and connections as n8n stores them.
type Workflow struct {
	Nodes       []json.RawMessage `json:"nodes"`
	Connections json.RawMessage   `json:"connections"`
}

// Template is one template of the catalogue.
type Template struct {
	ID          int
	Name        string
	Description string
	Categories  []Category
	Author      string
	CreatedAt   time.Time
	TotalViews  int
	Nodes       []Node
	Workflow    Workflow
	// nodeRefs are the type and version of every node of Workflow, in order.
	nodeRefs []NodeRef
	// text is name and description in lower case, for search.
	text string
}

// NodeRef names a node of a template's workflow by its type and version.
type NodeRef struct {
	Name        string
	Type        string
	TypeVersion float64
	// Credentials is true when the node needs credentials to run.
	Credentials bool
	// Parameters are the node's stored parameters.
	Parameters map[string]any
}

// NodeRefs returns the nodes of the template's workflow.
func (t *Template) NodeRefs() []NodeRef { return t.nodeRefs }

// NeedsCredentials reports whether any node of the template asks for credentials.
func (t *Template) NeedsCredentials() bool {
	return slices.ContainsFunc(t.nodeRefs, func(r NodeRef) bool { return r.Credentials })
}

// Collection groups templates (n8n's collection).
type Collection struct {
	ID          int
	Name        string
	Description string
	Categories  []Category
	CreatedAt   time.Time
	// Workflows are the collection's templates, in the collection's order.
	Workflows []*Template
	Nodes     []Node
	text      string
}

// Catalogue is the loaded template library; it is read-only and safe for concurrent use.
type Catalogue struct {
	categories  []Category
	templates   []*Template // by id
	byID        map[int]*Template
	collections []*Collection
	collByID    map[int]*Collection
}

// templateFile is the data file of one template (catalogue/workflows/*.json).
type templateFile struct {
	ID          int       `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Categories  []string  `json:"categories"`
	Author      string    `json:"author"`
	CreatedAt   time.Time `json:"createdAt"`
	TotalViews  int       `json:"totalViews"`
	Workflow    Workflow  `json:"workflow"`
}

// collectionFile is one entry of catalogue/collections.json.
type collectionFile struct {
	ID          int       `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Categories  []string  `json:"categories"`
	CreatedAt   time.Time `json:"createdAt"`
	Workflows   []int     `json:"workflows"`
}

// Builtin loads the catalogue embedded in the binary. Node icons and names come from reg; a
// node type reg does not have is listed by its type name alone.
func Builtin(reg *nodes.Registry) (*Catalogue, error) {
	sub, err := fs.Sub(catalogueFS, "catalogue")
	if err != nil {
		return nil, err
	}
	return Load(sub, reg)
}

// Load reads a catalogue from fsys: categories.json, collections.json and one file per
// template under workflows/. Every reference must resolve: a template's or collection's
// category must be listed, a collection's template must exist, ids must be unique and positive.
func Load(fsys fs.FS, reg *nodes.Registry) (*Catalogue, error) {
	c := &Catalogue{byID: map[int]*Template{}, collByID: map[int]*Collection{}}
	if err := readJSON(fsys, "categories.json", &c.categories); err != nil {
		return nil, err
	}
	catByName := map[string]Category{}
	for _, cat := range c.categories {
		if cat.ID <= 0 || cat.Name == "" {
			return nil, fmt.Errorf("templates: categories.json: category %d %q needs a positive id and a name", cat.ID, cat.Name)
		}
		if _, dup := catByName[cat.Name]; dup {
			return nil, fmt.Errorf("templates: categories.json: category %q is listed twice", cat.Name)
		}
		catByName[cat.Name] = cat
	}
	categoriesOf := func(where string, names []string) ([]Category, error) {
		out := make([]Category, 0, len(names))
		for _, n := range names {
			cat, ok := catByName[n]
			if !ok {
				return nil, fmt.Errorf("templates: %s: category %q is not in categories.json", where, n)
			}
			out = append(out, cat)
		}
		return out, nil
	}

	files, err := fs.Glob(fsys, "workflows/*.json")
	if err != nil {
		return nil, err
	}
	icons := newNodeInfo(reg)
	for _, name := range files {
		var f templateFile
		if err := readJSON(fsys, name, &f); err != nil {
			return nil, err
		}
		where := path.Base(name)
		if f.ID <= 0 || strings.TrimSpace(f.Name) == "" {
			return nil, fmt.Errorf("templates: %s: a template needs a positive id and a name", where)
		}
		if _, dup := c.byID[f.ID]; dup {
			return nil, fmt.Errorf("templates: %s: template id %d is used twice", where, f.ID)
		}
		cats, err := categoriesOf(where, f.Categories)
		if err != nil {
			return nil, err
		}
		refs, err := readNodeRefs(f.Workflow)
		if err != nil {
			return nil, fmt.Errorf("templates: %s: %w", where, err)
		}
		t := &Template{
			ID: f.ID, Name: f.Name, Description: f.Description, Categories: cats, Author: f.Author,
			CreatedAt: f.CreatedAt, TotalViews: f.TotalViews, Workflow: f.Workflow, nodeRefs: refs,
			text: strings.ToLower(f.Name + "\n" + f.Description),
		}
		t.Nodes = icons.list(refs)
		c.byID[t.ID] = t
		c.templates = append(c.templates, t)
	}
	slices.SortFunc(c.templates, func(a, b *Template) int { return a.ID - b.ID })

	var colls []collectionFile
	if err := readJSON(fsys, "collections.json", &colls); err != nil {
		return nil, err
	}
	for _, f := range colls {
		where := fmt.Sprintf("collections.json: collection %d", f.ID)
		if f.ID <= 0 || f.Name == "" {
			return nil, fmt.Errorf("templates: %s needs a positive id and a name", where)
		}
		if _, dup := c.collByID[f.ID]; dup {
			return nil, fmt.Errorf("templates: %s: the id is used twice", where)
		}
		cats, err := categoriesOf(where, f.Categories)
		if err != nil {
			return nil, err
		}
		col := &Collection{ID: f.ID, Name: f.Name, Description: f.Description, Categories: cats, CreatedAt: f.CreatedAt,
			text: strings.ToLower(f.Name + "\n" + f.Description)}
		var refs []NodeRef
		for _, id := range f.Workflows {
			t, ok := c.byID[id]
			if !ok {
				return nil, fmt.Errorf("templates: %s: template %d does not exist", where, id)
			}
			col.Workflows = append(col.Workflows, t)
			refs = append(refs, t.nodeRefs...)
		}
		if len(col.Workflows) == 0 {
			return nil, fmt.Errorf("templates: %s has no templates", where)
		}
		col.Nodes = icons.list(refs)
		c.collections = append(c.collections, col)
		c.collByID[col.ID] = col
	}
	return c, nil
}

func readJSON(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("templates: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("templates: %s: %w", name, err)
	}
	return nil
}

// readNodeRefs checks the workflow's shape (a list of nodes with unique names and a type, and
// a connections object) and returns its node references.
func readNodeRefs(wf Workflow) ([]NodeRef, error) {
	if len(wf.Nodes) == 0 {
		return nil, fmt.Errorf("the workflow has no nodes")
	}
	var conns map[string]json.RawMessage
	if err := json.Unmarshal(wf.Connections, &conns); err != nil {
		return nil, fmt.Errorf("the workflow's connections are not an object: %w", err)
	}
	seen := map[string]bool{}
	refs := make([]NodeRef, 0, len(wf.Nodes))
	for i, raw := range wf.Nodes {
		var n struct {
			Name        string         `json:"name"`
			Type        string         `json:"type"`
			TypeVersion float64        `json:"typeVersion"`
			Credentials map[string]any `json:"credentials"`
			Parameters  map[string]any `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
		if n.Name == "" || n.Type == "" {
			return nil, fmt.Errorf("node %d needs a name and a type", i)
		}
		if seen[n.Name] {
			return nil, fmt.Errorf("node name %q is used twice", n.Name)
		}
		seen[n.Name] = true
		// A node asks for credentials when it names some, or when its authentication parameter
		// selects a kind of credential that the user still has to create (HTTP Request).
		auth, _ := n.Parameters["authentication"].(string)
		needs := len(n.Credentials) > 0 || (auth != "" && auth != "none")
		refs = append(refs, NodeRef{Name: n.Name, Type: n.Type, TypeVersion: n.TypeVersion, Credentials: needs, Parameters: n.Parameters})
	}
	for from := range conns {
		if !seen[from] {
			return nil, fmt.Errorf("a connection leaves node %q, which does not exist", from)
		}
	}
	return refs, nil
}

// nodeInfo turns node types into template node entries, once per type.
type nodeInfo struct {
	reg   *nodes.Registry
	cache map[string]Node
	ids   map[string]int
}

func newNodeInfo(reg *nodes.Registry) *nodeInfo {
	return &nodeInfo{reg: reg, cache: map[string]Node{}, ids: map[string]int{}}
}

// list returns one entry per node type of refs, in order of first use, without sticky notes.
func (ni *nodeInfo) list(refs []NodeRef) []Node {
	out := []Node{}
	seen := map[string]bool{}
	for _, r := range refs {
		if r.Type == stickyNoteType || seen[r.Type] {
			continue
		}
		seen[r.Type] = true
		out = append(out, ni.node(r))
	}
	return out
}

func (ni *nodeInfo) node(r NodeRef) Node {
	if n, ok := ni.cache[r.Type]; ok {
		return n
	}
	id, ok := ni.ids[r.Type]
	if !ok {
		id = len(ni.ids) + 1
		ni.ids[r.Type] = id
	}
	short := r.Type[strings.LastIndex(r.Type, ".")+1:]
	n := Node{ID: id, Name: r.Type, DisplayName: short, Defaults: map[string]string{"name": short},
		TypeVersion: r.TypeVersion, IconData: IconData{Type: "unknown"}, Categories: []Category{}}
	if t, err := ni.reg.Lookup(r.Type, r.TypeVersion); err == nil {
		d := t.Description
		n.DisplayName, n.Icon = d.DisplayName, d.Icon
		n.Defaults = map[string]string{"name": d.Defaults.Name}
		if d.Defaults.Color != "" {
			n.Defaults["color"] = d.Defaults.Color
		}
		switch {
		case strings.HasPrefix(d.Icon, "file:") && len(t.IconSVG) > 0:
			n.IconData = IconData{Type: "file", FileBuffer: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(t.IconSVG)}
		case strings.HasPrefix(d.Icon, "fa:"):
			n.IconData = IconData{Type: "icon", Icon: strings.TrimPrefix(d.Icon, "fa:")}
		}
		if d.Codex != nil {
			for i, name := range d.Codex.Categories {
				n.Categories = append(n.Categories, Category{ID: i + 1, Name: name})
			}
		}
	}
	ni.cache[r.Type] = n
	return n
}
