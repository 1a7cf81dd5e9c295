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
	"sync"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// Category is the node creator category custom nodes are listed under.
const Category = "Custom Nodes"

// Package is one loaded package: its node types and credential types.
type Package struct {
	Name        string
	Dir         string
	Nodes       []nodes.Type
	Credentials []Credential
}

// Credential is a credential type of a package: its name, the file's JSON (an n8n
// ICredentialType, which the credential list reads) and its authenticate block.
type Credential struct {
	Name         string
	JSON         []byte
	Authenticate *Authenticate
}

// Authenticate is n8n's generic authenticate block (IAuthenticateGeneric): headers, query
// parameters, body fields and basic auth added to every request, values being expressions on
// $credentials.
type Authenticate struct {
	Type       string `json:"type"`
	Properties struct {
		Headers map[string]string `json:"headers"`
		QS      map[string]string `json:"qs"`
		Body    map[string]any    `json:"body"`
		Auth    map[string]string `json:"auth"`
	} `json:"properties"`
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
func loadCredential(path string) (Credential, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Credential{}, fmt.Errorf("custom nodes: %w", err)
	}
	var t struct {
		Name        string `json:"name"`
		DisplayName string `json:"displayName"`
		Properties  []struct {
			Name string `json:"name"`
		} `json:"properties"`
		Authenticate *Authenticate `json:"authenticate"`
	}
	if err := json.Unmarshal(b, &t); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return Credential{}, fileError(path, "", jsonProblem(err))
		}
		return Credential{}, fileError(path, "", "unexpected shape: "+err.Error())
	}
	switch {
	case t.Name == "":
		return Credential{}, fileError(path, "name", "missing")
	case t.DisplayName == "":
		return Credential{}, fileError(path, "displayName", "missing")
	case t.Properties == nil:
		return Credential{}, fileError(path, "properties", "missing (a list of fields)")
	case t.Authenticate != nil && t.Authenticate.Type != "generic":
		return Credential{}, fileError(path, "authenticate.type", fmt.Sprintf("%q is not supported (generic)", t.Authenticate.Type))
	}
	for n, p := range t.Properties {
		if p.Name == "" {
			return Credential{}, fileError(path, fmt.Sprintf("properties[%d].name", n), "missing")
		}
	}
	return Credential{Name: t.Name, JSON: b, Authenticate: t.Authenticate}, nil
}

// authenticators are the authenticate blocks of the registered packages' credential types.
var authenticators sync.Map // credential type name → *Authenticate

// Register adds the packages' node types to r; the caller adds their credential types to the
// credential list. builtinCredential tells the built-in credential type names. A node or
// credential type name taken by a built-in or another package is an error, and so is a node
// using a credential type nobody defines.
func Register(r *nodes.Registry, pkgs []Package, builtinCredential func(name string) bool) error {
	nodeFrom := map[string]string{}
	credFrom := map[string]string{}
	for _, p := range pkgs {
		for _, c := range p.Credentials {
			if other, ok := credFrom[c.Name]; ok {
				return fmt.Errorf("custom nodes: package %s (%s): credential type %q is also defined by package %s", p.Name, p.Dir, c.Name, other)
			}
			if builtinCredential(c.Name) {
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
				if !builtinCredential(name) {
					return fmt.Errorf("custom nodes: package %s (%s): node type %q uses credential type %q, which neither a built-in nor a package defines", p.Name, p.Dir, t.Description.Name, name)
				}
			}
		}
	}
	for _, p := range pkgs {
		for _, c := range p.Credentials {
			authenticators.Store(c.Name, c.Authenticate)
		}
		for _, t := range p.Nodes {
			if err := r.Register(t); err != nil {
				return fmt.Errorf("custom nodes: package %s (%s): %w", p.Name, p.Dir, err)
			}
		}
	}
	return nil
}
