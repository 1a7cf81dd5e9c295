package workflow

import (
	"bytes"
	"encoding/json"
)

// Property describes one node parameter (n8n's INodeProperties). The same shape also holds the
// entries of Options: choices of an options parameter (Name, Value, Description), the
// sub-parameters of a collection (full properties), and the groups of a fixedCollection (Name,
// DisplayName, Values).
type Property struct {
	DisplayName string `json:"displayName,omitempty"`
	Name        string `json:"name"`
	// Type is string, number, boolean, options, multiOptions, dateTime, color, json,
	// collection, fixedCollection, notice, hidden, credentialsSelect, …
	Type             string          `json:"type,omitempty"`
	Default          any             `json:"default,omitempty"`
	Description      string          `json:"description,omitempty"`
	Hint             string          `json:"hint,omitempty"`
	Placeholder      string          `json:"placeholder,omitempty"`
	Required         bool            `json:"required,omitempty"`
	NoDataExpression bool            `json:"noDataExpression,omitempty"`
	RequiresDataPath string          `json:"requiresDataPath,omitempty"`
	DisplayOptions   *DisplayOptions `json:"displayOptions,omitempty"`
	TypeOptions      map[string]any  `json:"typeOptions,omitempty"`
	Options          []Property      `json:"options,omitempty"`
	Values           []Property      `json:"values,omitempty"`
	// Value is the value of an options entry.
	Value  any    `json:"value,omitempty"`
	Action string `json:"action,omitempty"`
}

// MultipleValues reports typeOptions.multipleValues.
func (p *Property) MultipleValues() bool {
	v, _ := p.TypeOptions["multipleValues"].(bool)
	return v
}

// multipleValuesFalse reports typeOptions.multipleValues set to false explicitly.
func (p *Property) multipleValuesFalse() bool {
	v, ok := p.TypeOptions["multipleValues"].(bool)
	return ok && !v
}

// DisplayOptions decide when a parameter is shown. Show: every rule must match. Hide: any
// matching rule hides. A rule key is a sibling parameter name, "/name" for a root parameter, or
// "@version" for the node's type version.
type DisplayOptions struct {
	Show DisplayRules `json:"show,omitempty"`
	Hide DisplayRules `json:"hide,omitempty"`
}

// DisplayRule is one displayOptions condition: the value at Key must be one of Values.
type DisplayRule struct {
	Key    string
	Values []any
}

// DisplayRules keep the order of their JSON keys, which decides n8n's evaluation.
type DisplayRules []DisplayRule

// UnmarshalJSON reads {"key": [values…]} in key order.
func (r *DisplayRules) UnmarshalJSON(b []byte) error {
	*r = nil
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	members, err := decodeObject(b)
	if err != nil {
		return err
	}
	for _, m := range members {
		var vals []any
		if err := json.Unmarshal(m.Value, &vals); err != nil {
			return err
		}
		*r = append(*r, DisplayRule{Key: m.Key, Values: vals})
	}
	return nil
}

// MarshalJSON writes the rules as an object in their order.
func (r DisplayRules) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, rule := range r {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(rule.Key)
		buf.Write(k)
		buf.WriteByte(':')
		vals := rule.Values
		if vals == nil {
			vals = []any{}
		}
		v, err := json.Marshal(vals)
		if err != nil {
			return nil, err
		}
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
