package workflow

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MarshalJSON writes one entry as a lone object, several as a list.
func (p PairedItems) MarshalJSON() ([]byte, error) {
	if len(p) == 1 {
		return json.Marshal(p[0])
	}
	return json.Marshal([]PairedItem(p))
}

// UnmarshalJSON accepts an object, a list of objects or numbers, or a bare number.
func (p *PairedItems) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		*p = nil
		return nil
	}
	switch b[0] {
	case '[':
		var raw []json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return err
		}
		out := make(PairedItems, 0, len(raw))
		for _, r := range raw {
			one, err := parsePairedItem(r)
			if err != nil {
				return err
			}
			out = append(out, one)
		}
		*p = out
	default:
		one, err := parsePairedItem(b)
		if err != nil {
			return err
		}
		*p = PairedItems{one}
	}
	return nil
}

func parsePairedItem(b []byte) (PairedItem, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var pi PairedItem
		err := json.Unmarshal(b, &pi)
		return pi, err
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return PairedItem{}, fmt.Errorf("pairedItem: want an object or a number: %w", err)
	}
	return PairedItem{Item: n}, nil
}
