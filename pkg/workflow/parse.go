package workflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/nesting"
)

// Parse reads and validates a workflow document. Every rejection is a *ValidationError (matching
// ErrInvalid) naming the offending node when there is one: malformed JSON, fields of the wrong
// type, nodes without a name or type, duplicate node names, and connections from or to a node
// that does not exist, and nesting deeper than nesting.Max.
func Parse(b []byte) (*Workflow, error) {
	if err := nesting.JSON(b); err != nil {
		return nil, &ValidationError{Message: "The workflow is not accepted: " + err.Error(), Err: err}
	}
	var w Workflow
	if err := w.UnmarshalJSON(b); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			return nil, ve
		}
		return nil, &ValidationError{Message: err.Error(), Err: err}
	}
	if err := w.Validate(); err != nil {
		return nil, err
	}
	return &w, nil
}

// Validate checks names and connections of a decoded workflow, and the settings the engine
// reads a choice from (executionOrder).
func (w *Workflow) Validate() error {
	seen := make(map[string]bool, len(w.Nodes))
	for i := range w.Nodes {
		n := &w.Nodes[i]
		if n.Name == "" {
			return invalid("", fmt.Sprintf("nodes[%d].name", i), "a node needs a name")
		}
		if seen[n.Name] {
			return invalid(n.Name, "name", "two nodes have the same name")
		}
		seen[n.Name] = true
		if n.Type == "" {
			return invalid(n.Name, "type", "a node needs a type")
		}
		if n.Position != nil && len(n.Position) != 2 {
			return invalid(n.Name, "position", "want [x, y], got %d numbers", len(n.Position))
		}
	}
	if v, ok := w.Settings["executionOrder"]; ok && v != nil && v != "v0" && v != ExecutionOrderV1 {
		return invalid("", "settings.executionOrder", `want "v0" or "v1", got %v`, v)
	}
	for _, src := range w.Connections.Sources() {
		if !seen[src] {
			return invalid(src, "connections", "connections start at a node that does not exist")
		}
		nc := w.Connections.Get(src)
		for _, typ := range sortedKeys(nc) {
			for out, conns := range nc[typ] {
				for _, c := range conns {
					if !seen[c.Node] {
						return invalid(src, "connections",
							"output %d connects to %q, which does not exist", out, c.Node)
					}
					if c.Index < 0 {
						return invalid(src, "connections", "output %d: negative input index", out)
					}
				}
			}
		}
	}
	return nil
}

// UnmarshalJSON decodes a workflow, keeping unknown fields and connection order.
func (w *Workflow) UnmarshalJSON(b []byte) error {
	*w = Workflow{}
	members, err := decodeObject(b)
	if err != nil {
		return syntaxError(b, err)
	}
	for _, m := range members {
		switch m.Key {
		case "id":
			id, err := idString(m.Value)
			if err != nil {
				return invalid("", "id", "%v", err)
			}
			w.ID = id
		case "name":
			if err := decodeField(m.Value, &w.Name); err != nil {
				return invalid("", "name", "want a string")
			}
		case "active":
			if err := decodeField(m.Value, &w.Active); err != nil {
				return invalid("", "active", "want a boolean")
			}
		case "nodes":
			if err := w.decodeNodes(m.Value); err != nil {
				return err
			}
		case "connections":
			if err := w.Connections.UnmarshalJSON(m.Value); err != nil {
				return &ValidationError{Field: "connections", Message: err.Error(), Err: err}
			}
		case "settings":
			if err := decodeField(m.Value, &w.Settings); err != nil {
				return invalid("", "settings", "want an object")
			}
		case "staticData":
			sd, err := staticData(m.Value)
			if err != nil {
				return invalid("", "staticData", "%v", err)
			}
			w.StaticData = sd
		case "pinData":
			if err := decodeField(m.Value, &w.PinData); err != nil {
				return invalid("", "pinData", "want an object of item lists")
			}
		default:
			if w.Extra == nil {
				w.Extra = map[string]json.RawMessage{}
			}
			w.Extra[m.Key] = m.Value
		}
	}
	return nil
}

func (w *Workflow) decodeNodes(b json.RawMessage) error {
	var raws []json.RawMessage
	if err := decodeField(b, &raws); err != nil {
		return invalid("", "nodes", "want an array")
	}
	w.Nodes = make([]Node, 0, len(raws))
	seen := map[string]any{}
	for i, r := range raws {
		var n Node
		if err := n.UnmarshalJSON(r); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				if ve.Node == "" {
					ve.Field = strings.TrimSuffix(fmt.Sprintf("nodes[%d].%s", i, ve.Field), ".")
				}
				return ve
			}
			return &ValidationError{Field: fmt.Sprintf("nodes[%d]", i), Message: err.Error(), Err: err}
		}
		// n8n keeps one node per name; an exact repeat (seen in real exports) is dropped, two
		// different nodes with one name are rejected by Validate.
		var generic any
		if json.Unmarshal(r, &generic) == nil {
			if prev, ok := seen[n.Name]; ok && DeepEqual(prev, generic) {
				continue
			}
			if _, ok := seen[n.Name]; !ok {
				seen[n.Name] = generic
			}
		}
		w.Nodes = append(w.Nodes, n)
	}
	return nil
}

// MarshalJSON writes the workflow with n8n's field names.
func (w Workflow) MarshalJSON() ([]byte, error) {
	out := map[string]any{}
	for k, v := range w.Extra {
		out[k] = v
	}
	if w.ID != "" {
		out["id"] = w.ID
	}
	out["name"] = w.Name
	out["active"] = w.Active
	nodes := w.Nodes
	if nodes == nil {
		nodes = []Node{}
	}
	out["nodes"] = nodes
	out["connections"] = w.Connections
	if w.Settings != nil {
		out["settings"] = w.Settings
	}
	if w.StaticData != nil {
		out["staticData"] = w.StaticData
	}
	if w.PinData != nil {
		out["pinData"] = w.PinData
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes one node; type errors name the node.
func (n *Node) UnmarshalJSON(b []byte) error {
	*n = Node{}
	members, err := decodeObject(b)
	if err != nil {
		return &ValidationError{Field: "", Message: "a node must be a JSON object", Err: err}
	}
	for _, m := range members {
		if m.Key == "name" {
			if err := decodeField(m.Value, &n.Name); err != nil {
				return invalid("", "name", "want a string")
			}
		}
	}
	for _, m := range members {
		if err := n.decodeMember(m); err != nil {
			return err
		}
	}
	return nil
}

func (n *Node) decodeMember(m rawMember) error {
	bad := func(want string) error { return invalid(n.Name, m.Key, "want %s", want) }
	switch m.Key {
	case "name":
	case "id":
		id, err := idString(m.Value)
		if err != nil {
			return bad("a string")
		}
		n.ID = id
	case "type":
		if decodeField(m.Value, &n.Type) != nil {
			return bad("a string")
		}
	case "typeVersion":
		if decodeField(m.Value, &n.TypeVersion) != nil {
			return bad("a number")
		}
	case "position":
		if decodeField(m.Value, &n.Position) != nil {
			return bad("[x, y] numbers")
		}
	case "parameters":
		if decodeField(m.Value, &n.Parameters) != nil {
			return bad("an object")
		}
	case "credentials":
		if decodeField(m.Value, &n.Credentials) != nil {
			return bad("an object")
		}
	case "disabled":
		return boolField(m.Value, &n.Disabled, bad)
	case "notesInFlow":
		return boolField(m.Value, &n.NotesInFlow, bad)
	case "alwaysOutputData":
		return boolField(m.Value, &n.AlwaysOutputData, bad)
	case "executeOnce":
		return boolField(m.Value, &n.ExecuteOnce, bad)
	case "continueOnFail":
		return boolField(m.Value, &n.ContinueOnFail, bad)
	case "retryOnFail":
		return boolField(m.Value, &n.RetryOnFail, bad)
	case "notes":
		if decodeField(m.Value, &n.Notes) != nil {
			return bad("a string")
		}
	case "color":
		if decodeField(m.Value, &n.Color) != nil {
			return bad("a string")
		}
	case "webhookId":
		if decodeField(m.Value, &n.WebhookID) != nil {
			return bad("a string")
		}
	case "maxTries":
		return intField(m.Value, &n.MaxTries, bad)
	case "waitBetweenTries":
		return intField(m.Value, &n.WaitBetweenTries, bad)
	default:
		if n.Extra == nil {
			n.Extra = map[string]json.RawMessage{}
		}
		n.Extra[m.Key] = m.Value
	}
	return nil
}

// MarshalJSON writes the node as n8n does: settings that are off are left out.
func (n Node) MarshalJSON() ([]byte, error) {
	out := map[string]any{}
	for k, v := range n.Extra {
		out[k] = v
	}
	if n.ID != "" {
		out["id"] = n.ID
	}
	out["name"] = n.Name
	out["type"] = n.Type
	out["typeVersion"] = n.TypeVersion
	pos := n.Position
	if pos == nil {
		pos = []float64{0, 0}
	}
	out["position"] = pos
	params := n.Parameters
	if params == nil {
		params = map[string]any{}
	}
	out["parameters"] = params
	if len(n.Credentials) > 0 {
		out["credentials"] = n.Credentials
	}
	setIf := func(k string, on bool, v any) {
		if on {
			out[k] = v
		}
	}
	setIf("disabled", n.Disabled, true)
	setIf("notes", n.Notes != "", n.Notes)
	setIf("notesInFlow", n.NotesInFlow, true)
	setIf("color", n.Color != "", n.Color)
	setIf("webhookId", n.WebhookID != "", n.WebhookID)
	setIf("alwaysOutputData", n.AlwaysOutputData, true)
	setIf("executeOnce", n.ExecuteOnce, true)
	setIf("continueOnFail", n.ContinueOnFail, true)
	setIf("retryOnFail", n.RetryOnFail, true)
	setIf("maxTries", n.MaxTries != 0, n.MaxTries)
	setIf("waitBetweenTries", n.WaitBetweenTries != 0, n.WaitBetweenTries)
	return json.Marshal(out)
}

func decodeField(b json.RawMessage, v any) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil
	}
	return json.Unmarshal(b, v)
}

func boolField(b json.RawMessage, dst *bool, bad func(string) error) error {
	if decodeField(b, dst) != nil {
		return bad("a boolean")
	}
	return nil
}

// intField accepts a number or a numeric string: older exports store maxTries as a string.
func intField(b json.RawMessage, dst *int, bad func(string) error) error {
	var v any
	if decodeField(b, &v) != nil {
		return bad("a number")
	}
	switch x := v.(type) {
	case nil:
	case float64:
		*dst = int(math.Round(x))
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return bad("a number")
		}
		*dst = int(math.Round(f))
	default:
		return bad("a number")
	}
	return nil
}

func idString(b json.RawMessage) (string, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		return x, nil
	case json.Number:
		return x.String(), nil
	}
	return "", errors.New("want a string or a number")
}

// staticData accepts an object, null, or the JSON string some stores keep it as.
func staticData(b json.RawMessage) (map[string]any, error) {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return x, nil
	case string:
		if strings.TrimSpace(x) == "" {
			return nil, nil
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(x), &m); err != nil {
			return nil, errors.New("want an object")
		}
		return m, nil
	}
	return nil, errors.New("want an object")
}

func syntaxError(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(b, se.Offset)
		return &ValidationError{Message: fmt.Sprintf("malformed JSON at line %d, column %d: %v", line, col, se), Err: err}
	}
	return &ValidationError{Message: "malformed JSON: " + err.Error(), Err: err}
}

func lineCol(b []byte, off int64) (int, int) {
	if off > int64(len(b)) {
		off = int64(len(b))
	}
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
