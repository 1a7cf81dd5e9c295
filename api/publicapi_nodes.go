package main

import (
	"bytes"
	"encoding/json"
)

// nodeDefaults are the fields a node of a public API body may leave out, with the values n8n
// gives them.
var nodeDefaults = []struct {
	key   string
	value string
}{
	{"typeVersion", "1"},
	{"position", "[0,0]"},
	{"parameters", "{}"},
}

// withNodeDefaults adds the fields of nodeDefaults that a node lacks, at the end of its object,
// leaving every other byte of the nodes as sent. The OpenAPI check has already made nodes a list
// of objects; anything else is passed on for the workflow check to refuse.
func withNodeDefaults(raw json.RawMessage) (json.RawMessage, error) {
	var nodes []json.RawMessage
	if !given(raw) || json.Unmarshal(raw, &nodes) != nil {
		return raw, nil
	}
	changed := false
	for i, n := range nodes {
		var fields map[string]json.RawMessage
		if json.Unmarshal(n, &fields) != nil {
			return raw, nil
		}
		for _, d := range nodeDefaults {
			if _, ok := fields[d.key]; ok {
				continue
			}
			n = appendField(n, d.key, d.value)
			changed = true
		}
		nodes[i] = n
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(nodes)
}

// appendField adds "key":value as the last member of the JSON object obj.
func appendField(obj json.RawMessage, key, value string) json.RawMessage {
	body := bytes.TrimSpace(obj)
	body = bytes.TrimSpace(body[:len(body)-1]) // drop the closing brace
	sep := ","
	if len(body) == 1 { // only the opening brace: an empty object
		sep = ""
	}
	out := append([]byte{}, body...)
	out = append(out, sep+`"`+key+`":`+value+"}"...)
	return out
}
