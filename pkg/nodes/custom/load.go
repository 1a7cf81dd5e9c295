// Package custom loads custom node packages (FLOWMILL_CUSTOM_EXTENSIONS): n8n declarative node
// descriptions and credential types written as JSON, run by a generic declarative HTTP engine,
// so that nodes for REST APIs need no rebuild.
//
// The folder holds one subfolder per package. In a package, files ending in .node.json are node
// descriptions and files ending in .credentials.json credential types; other files (a
// package.json, icons, docs) are ignored, except that package.json's "name" names the package
// (default: the folder's name). A node is registered as <package>.<name>, as n8n names
// community nodes, and listed under the node creator's "Custom Nodes" category.
package custom

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/nodes"
)

// Category is the node creator category custom nodes are listed under.
const Category = "Custom Nodes"

// Package is one loaded package: its node types and credential types.
type Package struct {
	Name        string
	Dir         string
	Nodes       []nodes.Type
	Credentials []*credential.Type
}

// Load reads every package in dir. The error names the file and field at fault.
func Load(dir string) ([]Package, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("custom nodes: %w", err)
	}
	var out []Package
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p, err := loadPackage(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func loadPackage(dir string) (Package, error) {
	p := Package{Name: filepath.Base(dir), Dir: dir}
	if b, err := os.ReadFile(filepath.Join(dir, "package.json")); err == nil {
		var meta struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(b, &meta); err != nil {
			return p, fileError(filepath.Join(dir, "package.json"), "", jsonProblem(err))
		}
		if meta.Name != "" {
			p.Name = meta.Name
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return p, fmt.Errorf("custom nodes: %w", err)
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return p, fmt.Errorf("custom nodes: %w", err)
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		switch {
		case f.IsDir():
		case strings.HasSuffix(f.Name(), ".node.json"):
			t, err := loadNode(path, p.Name)
			if err != nil {
				return p, err
			}
			p.Nodes = append(p.Nodes, t)
		case strings.HasSuffix(f.Name(), ".credentials.json"):
			c, err := loadCredential(path)
			if err != nil {
				return p, err
			}
			p.Credentials = append(p.Credentials, c)
		}
	}
	return p, nil
}

func fileError(path, field, problem string) error {
	if field == "" {
		return fmt.Errorf("custom nodes: %s: %s", path, problem)
	}
	return fmt.Errorf("custom nodes: %s: %s: %s", path, field, problem)
}

func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Sprintf("invalid JSON at byte %d: %s", syntax.Offset, err)
	}
	return "invalid JSON: " + err.Error()
}

// loadNode reads a declarative node description, names it <pkg>.<name>, fills in what n8n's
// loader defaults (inputs, outputs, group, defaults) and places it in the Custom Nodes category.
func loadNode(path, pkg string) (nodes.Type, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nodes.Type{}, fmt.Errorf("custom nodes: %w", err)
	}
	var d map[string]any
	if err := json.Unmarshal(b, &d); err != nil {
		return nodes.Type{}, fileError(path, "", jsonProblem(err))
	}
	if d == nil {
		return nodes.Type{}, fileError(path, "", "not a JSON object")
	}
	name, _ := d["name"].(string)
	if name == "" {
		return nodes.Type{}, fileError(path, "name", "missing")
	}
	if strings.Contains(name, ".") {
		return nodes.Type{}, fileError(path, "name", fmt.Sprintf("%q must not contain a dot: the package name %q is put in front", name, pkg))
	}
	if s, _ := d["displayName"].(string); s == "" {
		return nodes.Type{}, fileError(path, "displayName", "missing")
	}
	if d["version"] == nil {
		return nodes.Type{}, fileError(path, "version", "missing")
	}
	if _, ok := d["properties"].([]any); !ok {
		return nodes.Type{}, fileError(path, "properties", "missing (a list of parameters)")
	}
	for _, field := range []string{"webhooks", "polling"} {
		if d[field] != nil {
			return nodes.Type{}, fileError(path, field, "not supported: custom nodes are declarative action nodes")
		}
	}
	var s spec
	if err := json.Unmarshal(b, &s); err != nil {
		return nodes.Type{}, fileError(path, "", "unexpected shape: "+err.Error())
	}
	if err := s.check(); err != nil {
		return nodes.Type{}, fileError(path, "", err.Error())
	}
	d["name"] = pkg + "." + name
	setDefault(d, "inputs", []any{"main"})
	setDefault(d, "outputs", []any{"main"})
	setDefault(d, "group", []any{"transform"})
	setDefault(d, "defaults", map[string]any{"name": d["displayName"]})
	setDefault(d, "icon", "fa:puzzle-piece")
	codex, _ := d["codex"].(map[string]any)
	if codex == nil {
		codex = map[string]any{}
	}
	codex["categories"] = []any{Category}
	d["codex"] = codex
	out, err := json.Marshal(d)
	if err != nil {
		return nodes.Type{}, fileError(path, "", err.Error())
	}
	desc, err := nodes.ParseDescription(out)
	if err != nil {
		return nodes.Type{}, fileError(path, "", err.Error())
	}
	for n, c := range s.Credentials {
		if c.Name == "" {
			return nodes.Type{}, fileError(path, fmt.Sprintf("credentials[%d].name", n), "missing")
		}
	}
	return nodes.Type{Description: desc, Kind: nodes.KindAction, Node: execute(&s)}, nil
}

func setDefault(d map[string]any, key string, v any) {
	if d[key] == nil {
		d[key] = v
	}
}

// loadCredential reads a declarative credential type.
func loadCredential(path string) (*credential.Type, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("custom nodes: %w", err)
	}
	var t credential.Type
	if err := json.Unmarshal(b, &t); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, fileError(path, "", jsonProblem(err))
		}
		return nil, fileError(path, "", "unexpected shape: "+err.Error())
	}
	switch {
	case t.Name == "":
		return nil, fileError(path, "name", "missing")
	case t.DisplayName == "":
		return nil, fileError(path, "displayName", "missing")
	case t.Properties == nil:
		return nil, fileError(path, "properties", "missing (a list of fields)")
	case t.Authenticate != nil && t.Authenticate.Type != "generic":
		return nil, fileError(path, "authenticate.type", fmt.Sprintf("%q is not supported (generic)", t.Authenticate.Type))
	}
	for n, p := range t.Properties {
		if p.Name == "" {
			return nil, fileError(path, fmt.Sprintf("properties[%d].name", n), "missing")
		}
	}
	return &t, nil
}

// Register adds the packages' node types to r and their credential types to the credential
// list. A node or credential type name taken by a built-in or another package is an error.
func Register(r *nodes.Registry, pkgs []Package) error {
	nodeFrom := map[string]string{}
	credFrom := map[string]string{}
	for _, p := range pkgs {
		for _, c := range p.Credentials {
			if other, ok := credFrom[c.Name]; ok {
				return fmt.Errorf("custom nodes: package %s (%s): credential type %q is also defined by package %s", p.Name, p.Dir, c.Name, other)
			}
			if _, builtin := credential.Lookup(c.Name); builtin && !credential.IsExtra(c.Name) {
				return fmt.Errorf("custom nodes: package %s (%s): credential type %q conflicts with a built-in credential type", p.Name, p.Dir, c.Name)
			}
			credFrom[c.Name] = p.Name
		}
		for _, t := range p.Nodes {
			name := t.Description.Name
			if other, ok := nodeFrom[name]; ok {
				return fmt.Errorf("custom nodes: package %s (%s): node type %q is also defined by package %s", p.Name, p.Dir, name, other)
			}
			if len(r.Versions(name)) > 0 {
				return fmt.Errorf("custom nodes: package %s (%s): node type %q conflicts with a built-in node type", p.Name, p.Dir, name)
			}
			nodeFrom[name] = p.Name
		}
	}
	for _, p := range pkgs {
		for _, t := range p.Nodes {
			for _, c := range t.Description.Credentials {
				name, _ := c["name"].(string)
				if _, ok := credFrom[name]; ok {
					continue
				}
				if _, ok := credential.Lookup(name); !ok || credential.IsExtra(name) {
					return fmt.Errorf("custom nodes: package %s (%s): node type %q uses credential type %q, which neither a built-in nor a package defines", p.Name, p.Dir, t.Description.Name, name)
				}
			}
		}
	}
	for _, p := range pkgs {
		if err := credential.RegisterExtra(p.Credentials...); err != nil {
			return fmt.Errorf("custom nodes: package %s (%s): %w", p.Name, p.Dir, err)
		}
		for _, t := range p.Nodes {
			if err := r.Register(t); err != nil {
				return fmt.Errorf("custom nodes: package %s (%s): %w", p.Name, p.Dir, err)
			}
		}
	}
	return nil
}
