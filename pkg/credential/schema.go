package credential

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// JSONSchema is the JSON Schema of the type's data, built as n8n's public API builds it: an
// object with no other keys; every property that is always shown is required; a property shown
// only for some values of others is required while they hold those values and not allowed
// otherwise; options properties are strings limited to their values. Hidden properties are left
// out. n8n combines the conditional requirements of one condition with oneOf, which rejects
// data that fills two of them; allOf is what it means and what Validate checks.
func (t *Type) JSONSchema() map[string]any {
	props := map[string]any{}
	required := []string{}
	type conditional struct {
		cond       map[string]any
		then, els  []any
		conditions string
	}
	var conds []*conditional
	for _, p := range t.visible() {
		props[p.Name] = propertySchema(p)
		if p.DisplayOptions == nil || len(p.DisplayOptions.Show) == 0 {
			required = append(required, p.Name)
			continue
		}
		key := conditionKey(p.DisplayOptions.Show)
		i := slices.IndexFunc(conds, func(c *conditional) bool { return c.conditions == key })
		if i < 0 {
			cond := map[string]any{}
			for name, values := range p.DisplayOptions.Show {
				cond[name] = map[string]any{"enum": values}
			}
			conds = append(conds, &conditional{cond: cond, conditions: key})
			i = len(conds) - 1
		}
		c := conds[i]
		c.then = append(c.then, map[string]any{"required": []string{p.Name}})
		c.els = append(c.els, map[string]any{"not": map[string]any{"required": []string{p.Name}}})
	}
	schema := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties":           props,
		"required":             required,
	}
	if len(conds) > 0 {
		allOf := make([]any, len(conds))
		for i, c := range conds {
			allOf[i] = map[string]any{
				"if":   map[string]any{"properties": c.cond},
				"then": map[string]any{"allOf": c.then},
				"else": map[string]any{"allOf": c.els},
			}
		}
		schema["allOf"] = allOf
	}
	return schema
}

func propertySchema(p Property) map[string]any {
	switch p.Type {
	case "options":
		values := make([]string, len(p.Options))
		for i, o := range p.Options {
			values[i] = o.Value
		}
		return map[string]any{"type": "string", "enum": values}
	case "number", "boolean":
		return map[string]any{"type": p.Type}
	}
	return map[string]any{"type": "string"}
}

// conditionKey identifies a displayOptions.show condition regardless of map order.
func conditionKey(show map[string][]any) string {
	names := make([]string, 0, len(show))
	for name := range show {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		v, _ := json.Marshal(show[name])
		fmt.Fprintf(&b, "%s=%s;", name, v)
	}
	return b.String()
}

// visible is the properties that data may hold: all but hidden ones.
func (t *Type) visible() []Property {
	all := t.AllProperties()
	out := make([]Property, 0, len(all))
	for _, p := range all {
		if p.Type != "hidden" {
			out = append(out, p)
		}
	}
	return out
}

// DataError says which part of a credential's data breaks its type's schema. Field is the
// property at fault; empty when the fault is in the object itself (a missing or unknown key).
type DataError struct {
	Field  string
	Reason string
}

func (e *DataError) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + " " + e.Reason
}

// Validate checks data against the type's JSONSchema and returns the first fault as a
// *DataError: unknown keys first (by name), then the properties in their order.
func (t *Type) Validate(data map[string]any) error {
	props := t.visible()
	var unknown []string
	for k := range data {
		if !slices.ContainsFunc(props, func(p Property) bool { return p.Name == k }) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return &DataError{Reason: fmt.Sprintf("property %q is unsupported", unknown[0])}
	}
	for _, p := range props {
		v, present := data[p.Name]
		shown, why := shownFor(p, data)
		switch {
		case shown && !present:
			return &DataError{Reason: fmt.Sprintf("property %q is missing", p.Name)}
		case !shown && present:
			return &DataError{Field: p.Name, Reason: "is not allowed when " + why}
		case present:
			if err := checkValue(p, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// shownFor tells whether p is shown for data, as the schema's if clause does: a condition on a
// property that data lacks holds. When p is not shown, why names the condition that fails.
func shownFor(p Property, data map[string]any) (bool, string) {
	if p.DisplayOptions == nil {
		return true, ""
	}
	names := make([]string, 0, len(p.DisplayOptions.Show))
	for name := range p.DisplayOptions.Show {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v, ok := data[name]
		if !ok {
			continue
		}
		if !slices.ContainsFunc(p.DisplayOptions.Show[name], func(want any) bool { return jsonEqual(want, v) }) {
			return false, fmt.Sprintf("%s is %s", name, jsonText(v))
		}
	}
	return true, ""
}

func checkValue(p Property, v any) error {
	bad := func(reason string) error { return &DataError{Field: p.Name, Reason: reason} }
	switch p.Type {
	case "options":
		s, ok := v.(string)
		values := make([]string, len(p.Options))
		for i, o := range p.Options {
			values[i] = jsonText(o.Value)
		}
		if !ok || !slices.ContainsFunc(p.Options, func(o Option) bool { return o.Value == s }) {
			return bad("value must be one of " + strings.Join(values, ", "))
		}
	case "number":
		if _, ok := v.(float64); !ok {
			return bad("value must be a number")
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return bad("value must be a boolean")
		}
	default:
		if _, ok := v.(string); !ok {
			return bad("value must be a string")
		}
	}
	return nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func jsonEqual(a, b any) bool { return jsonText(a) == jsonText(b) }
