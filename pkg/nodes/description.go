package nodes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Description is a node type description in n8n's INodeTypeDescription shape: what the editor
// needs to list, draw and configure the node. It is written back as the exact JSON it was read
// from, so the editor sees every field of the file, known here or not.
type Description struct {
	DisplayName string   `json:"displayName"`
	Name        string   `json:"name"`
	Icon        string   `json:"icon,omitempty"`
	Group       []string `json:"group"`
	Version     Versions `json:"version"`
	// DefaultVersion is the version new nodes get; 0 means the highest of Version.
	DefaultVersion float64             `json:"defaultVersion,omitempty"`
	Description    string              `json:"description,omitempty"`
	Subtitle       string              `json:"subtitle,omitempty"`
	Defaults       Defaults            `json:"defaults"`
	Inputs         []string            `json:"inputs"`
	Outputs        []string            `json:"outputs"`
	InputNames     []string            `json:"inputNames,omitempty"`
	OutputNames    []string            `json:"outputNames,omitempty"`
	Properties     []workflow.Property `json:"properties"`
	Credentials    []map[string]any    `json:"credentials,omitempty"`
	// Webhooks lists the webhooks a node registers (httpMethod, path, isFullPath, …).
	Webhooks         []map[string]any `json:"webhooks,omitempty"`
	Codex            *Codex           `json:"codex,omitempty"`
	DocumentationURL string           `json:"documentationUrl,omitempty"`
	MaxNodes         int              `json:"maxNodes,omitempty"`
	Polling          bool             `json:"polling,omitempty"`
	// EventTriggerDescription is the hint the editor shows while a trigger waits.
	EventTriggerDescription string `json:"eventTriggerDescription,omitempty"`

	raw json.RawMessage
}

// Defaults are the name and color a new node of this type gets.
type Defaults struct {
	Name  string `json:"name"`
	Color string `json:"color,omitempty"`
}

// Codex places the node in the node creator: categories such as "Core Nodes", subcategories per
// category (Flow, Files, Data Transformation, Helpers) and search aliases.
type Codex struct {
	Categories    []string            `json:"categories,omitempty"`
	Subcategories map[string][]string `json:"subcategories,omitempty"`
	Alias         []string            `json:"alias,omitempty"`
	Resources     map[string]any      `json:"resources,omitempty"`
}

// Versions is the "version" field: one number or a list of numbers.
type Versions []float64

// Latest returns the highest version.
func (v Versions) Latest() float64 {
	if len(v) == 0 {
		return 1
	}
	return slices.Max(v)
}

// Has reports whether version is listed.
func (v Versions) Has(version float64) bool { return slices.Contains(v, version) }

// UnmarshalJSON accepts a number or a list of numbers.
func (v *Versions) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var list []float64
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		*v = list
		return nil
	}
	var one float64
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*v = Versions{one}
	return nil
}

// MarshalJSON writes one version as a number, several as a list.
func (v Versions) MarshalJSON() ([]byte, error) {
	if len(v) == 1 {
		return json.Marshal(v[0])
	}
	return json.Marshal([]float64(v))
}

// ParseDescription reads a description from its JSON file. It checks the fields the engine relies
// on: name, version, inputs and outputs, and that parameter defaults can be resolved.
func ParseDescription(b []byte) (*Description, error) {
	return parseDescription(append(json.RawMessage(nil), b...))
}

// MustParseDescription is ParseDescription for descriptions embedded in the binary, where a bad
// file is a programming error caught by the node's tests. It keeps b as the description's JSON
// rather than a copy: embedded bytes are never written, and every process parses every node's
// description at start.
func MustParseDescription(b []byte) *Description {
	d, err := parseDescription(b)
	if err != nil {
		panic(err)
	}
	return d
}

// parseDescription parses b and keeps it as the description's JSON: the caller hands it over.
func parseDescription(b json.RawMessage) (*Description, error) {
	var d Description
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("node description: %w", err)
	}
	if d.Name == "" || d.DisplayName == "" {
		return nil, fmt.Errorf("node description: name and displayName are required")
	}
	if len(d.Version) == 0 {
		return nil, fmt.Errorf("node description %s: version is required", d.Name)
	}
	for _, v := range d.Version {
		if _, err := workflow.ResolveParameters(d.Properties, map[string]any{}, v); err != nil {
			return nil, fmt.Errorf("node description %s: %w", d.Name, err)
		}
	}
	d.raw = b
	return &d, nil
}

// MarshalJSON writes the description as it was read.
func (d *Description) MarshalJSON() ([]byte, error) {
	if d.raw != nil {
		return d.raw, nil
	}
	type plain Description
	return json.Marshal((*plain)(d))
}

// IsTrigger reports whether the description's group includes "trigger" or "schedule".
func (d *Description) IsTrigger() bool {
	return slices.Contains(d.Group, "trigger") || slices.Contains(d.Group, "schedule")
}
