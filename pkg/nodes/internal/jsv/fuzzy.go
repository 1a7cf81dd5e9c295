package jsv

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// FuzzyEqual is the fuzzy field comparison (fuzzyCompare) of n8n's Merge and Compare Datasets
// nodes. Values of one type compare as Equal; null, undefined, "" and [] all match each other; a
// number matches its String(); an object matches a string holding it as JSON; true matches
// "true" in any case, "1" and 1, false matches "false", "0" and 0. Anything else compares as
// Equal.
func FuzzyEqual(a, b any) bool {
	ta, tb := TypeOf(a), TypeOf(b)
	if a != nil && b != nil && ta == tb {
		return Equal(a, b)
	}
	if fuzzyFalsy(a) && fuzzyFalsy(b) {
		return true
	}
	switch {
	case ta == "number" && tb == "string":
		return ToString(a) == b.(string)
	case ta == "string" && tb == "number":
		return a.(string) == ToString(b)
	case a != nil && ta == "object" && tb == "string":
		return parsedEqual(b.(string), a)
	case b != nil && ta == "string" && tb == "object":
		return parsedEqual(a.(string), b)
	case ta == "boolean" && (tb == "string" || tb == "number"):
		return boolMatches(a.(bool), b)
	case tb == "boolean" && (ta == "string" || ta == "number"):
		return boolMatches(b.(bool), a)
	}
	return Equal(a, b)
}

// fuzzyFalsy is what n8n's fuzzy compare counts as empty: null, undefined, "" and []. Unlike
// JavaScript falsiness, 0 and false are not empty.
func fuzzyFalsy(v any) bool {
	switch x := v.(type) {
	case nil, workflow.Undefined:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	}
	return false
}

// boolMatches: true matches "true" (any case), 1 and "1"; false matches "false", 0 and "0".
func boolMatches(b bool, v any) bool {
	if s, ok := v.(string); ok {
		if strings.ToLower(s) == strconv.FormatBool(b) {
			return true
		}
		return (b && s == "1") || (!b && s == "0")
	}
	f, _ := workflow.Number(v)
	return (b && f == 1) || (!b && f == 0)
}

func parsedEqual(s string, v any) bool {
	var parsed any
	if err := json.Unmarshal([]byte(s), &parsed); err != nil {
		return false
	}
	return Equal(parsed, v)
}
