package credential

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// BlankValue is what REST answers in place of a secret (a password property) that has a value,
// as n8n 1.x does; data sent back with it keeps the stored secret (see KeepSecrets).
const BlankValue = "__n8n_BLANK_VALUE_e5362baf-c777-4d57-a609-6eaf1f9e87f6"

// TokenDataKey is the data key OAuth credentials keep their token data under.
const TokenDataKey = "oauthTokenData"

// CheckData checks data the editor saves: an object whose keys are properties of the type (or
// of the types it extends), plus oauthTokenData for OAuth types; values of the property's kind
// (options among the option values; expressions, strings starting with "=", are accepted for
// any kind); and every required property that is shown for data non-empty. Keys left out take
// their defaults, unlike in the public API's schema (see Validate). The fault is a *DataError
// naming the property.
func (t *Type) CheckData(data map[string]any) error {
	props := t.AllProperties()
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k == TokenDataKey && t.OAuth() {
			if _, ok := data[k].(map[string]any); !ok && data[k] != true {
				return &DataError{Field: k, Reason: "value must be an object"}
			}
			continue
		}
		i := slices.IndexFunc(props, func(p Property) bool { return p.Name == k })
		if i < 0 {
			return &DataError{Field: k, Reason: fmt.Sprintf("is not a property of the credential type %q", t.Name)}
		}
		if expression(data[k]) {
			continue
		}
		if err := checkEditorValue(props[i], data[k]); err != nil {
			return err
		}
	}
	withDefaults := map[string]any{}
	for _, p := range props {
		withDefaults[p.Name] = p.Default
	}
	for k, v := range data {
		withDefaults[k] = v
	}
	for _, p := range props {
		if !p.Required || p.Type == "hidden" || !Displayed(p, withDefaults) {
			continue
		}
		if v := withDefaults[p.Name]; v == nil || v == "" {
			return &DataError{Field: p.Name, Reason: "is required"}
		}
	}
	return nil
}

func expression(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, "=")
}

// checkEditorValue checks one value's kind; json properties hold JSON text.
func checkEditorValue(p Property, v any) error {
	if p.Type == "json" {
		s, ok := v.(string)
		if !ok {
			return &DataError{Field: p.Name, Reason: "value must be a string of JSON"}
		}
		if s != "" && !json.Valid([]byte(s)) {
			return &DataError{Field: p.Name, Reason: "value must be valid JSON"}
		}
		return nil
	}
	if p.Type == "hidden" {
		return nil
	}
	return checkValue(p, v)
}

// Displayed tells whether the editor shows p for data (values of all properties, defaults
// filled in), as n8n's displayParameter does: every show condition holds and no hide condition
// does.
func Displayed(p Property, data map[string]any) bool {
	if p.DisplayOptions == nil {
		return true
	}
	for name, values := range p.DisplayOptions.Show {
		if !slices.ContainsFunc(values, func(want any) bool { return jsonEqual(want, data[name]) }) {
			return false
		}
	}
	for name, values := range p.DisplayOptions.Hide {
		if slices.ContainsFunc(values, func(want any) bool { return jsonEqual(want, data[name]) }) {
			return false
		}
	}
	return true
}

// Redact returns a copy of data for the editor: every password property that has a value is
// BlankValue, and oauthTokenData, when present, is true.
func (t *Type) Redact(data map[string]any) map[string]any {
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = v
	}
	for _, p := range t.AllProperties() {
		if v, ok := out[p.Name]; ok && p.Password() && v != nil && v != "" {
			out[p.Name] = BlankValue
		}
	}
	if _, ok := out[TokenDataKey]; ok {
		out[TokenDataKey] = true
	}
	return out
}

// KeepSecrets returns data with every BlankValue replaced by the value stored holds for the same
// key (dropped when stored has none), and oauthTokenData taken from stored when stored has it
// (the editor never sends it; the redacted true is dropped). stored may be nil.
func KeepSecrets(data, stored map[string]any) map[string]any {
	out := make(map[string]any, len(data)+1)
	for k, v := range data {
		if v == BlankValue {
			if old, ok := stored[k]; ok {
				out[k] = old
			}
			continue
		}
		out[k] = v
	}
	if out[TokenDataKey] == true {
		delete(out, TokenDataKey)
	}
	if token, ok := stored[TokenDataKey]; ok {
		out[TokenDataKey] = token
	}
	return out
}
