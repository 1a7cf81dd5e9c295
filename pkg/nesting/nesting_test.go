package nesting

import (
	"strings"
	"testing"
)

func nestedJSON(n int) []byte {
	return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
}

func TestJSONAcceptsMaxAndRefusesDeeper(t *testing.T) {
	if err := JSON(nestedJSON(Max)); err != nil {
		t.Fatalf("depth %d: %v", Max, err)
	}
	if err := JSON(nestedJSON(Max + 1)); !IsTooDeep(err) {
		t.Fatalf("depth %d: got %v", Max+1, err)
	}
	if err := JSON(nestedJSON(1_000_000)); !IsTooDeep(err) {
		t.Fatalf("depth 1e6: got %v", err)
	}
}

func TestJSONIgnoresBracketsInStrings(t *testing.T) {
	s := `{"a":"` + strings.Repeat(`[{\"`, 2*Max) + `"}`
	if err := JSON([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

func TestValueWithoutRecursion(t *testing.T) {
	deep := func(n int) any {
		var v any = map[string]any{}
		for range n - 1 {
			v = map[string]any{"a": v}
		}
		return v
	}
	if err := Value(deep(Max)); err != nil {
		t.Fatalf("depth %d: %v", Max, err)
	}
	if err := Value(deep(Max + 1)); !IsTooDeep(err) {
		t.Fatalf("depth %d: got %v", Max+1, err)
	}
	if err := Value(deep(1_000_000)); !IsTooDeep(err) {
		t.Fatalf("depth 1e6: got %v", err)
	}
	if !strings.Contains(ErrTooDeep.Error(), "nesting is deeper than 1,000 levels") {
		t.Fatal(ErrTooDeep)
	}
}
