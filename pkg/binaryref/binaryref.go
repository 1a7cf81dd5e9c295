// Package binaryref locates binary data inside the run data of a saved execution: the binary
// data id execution:{executionId}:{nodeName}:{runIndex}:{outputIndex}:{itemIndex}:{binaryKey},
// its parsing, the lookup of the data it names, and moving large binaries out of a saved
// execution state so they are fetched apart (GET /rest/data/:id).
package binaryref

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// MaxInline is the longest base64 `data` of a binary entry Externalize keeps inline
// (characters); longer data is replaced by its Ref.
const MaxInline = 65536

// Prefix starts every binary data id.
const Prefix = "execution:"

// Ref locates one binary entry in the run data of a saved execution. Its string form, the
// binary data id, is
// execution:{executionId}:{nodeName}:{runIndex}:{outputIndex}:{itemIndex}:{binaryKey}, with the
// node name and binary key percent-encoded.
type Ref struct {
	ExecutionID int64
	Node        string
	Run         int
	Output      int
	Item        int
	Key         string
}

// String returns the binary data id of r.
func (r Ref) String() string {
	return fmt.Sprintf("%s%d:%s:%d:%d:%d:%s", Prefix, r.ExecutionID, EscapePart(r.Node), r.Run, r.Output, r.Item, EscapePart(r.Key))
}

// EscapePart percent-encodes every character but ASCII letters, digits and -_.~ (a space is
// %20), so that a part of an id holds no colon.
func EscapePart(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// Parse reads a binary data id. The execution id must be positive, the indexes not negative,
// the node name and key percent-encoded and not empty.
func Parse(id string) (Ref, error) {
	rest, ok := strings.CutPrefix(id, Prefix)
	parts := strings.Split(rest, ":")
	if !ok || len(parts) != 6 {
		return Ref{}, fmt.Errorf("a binary data id has the form %s{executionId}:{nodeName}:{runIndex}:{outputIndex}:{itemIndex}:{binaryKey}", Prefix)
	}
	var r Ref
	var err error
	if r.ExecutionID, err = strconv.ParseInt(parts[0], 10, 64); err != nil || r.ExecutionID <= 0 {
		return Ref{}, fmt.Errorf("the execution id %q is not a number", parts[0])
	}
	for i, dst := range []*int{&r.Run, &r.Output, &r.Item} {
		n, err := strconv.Atoi(parts[2+i])
		if err != nil || n < 0 {
			return Ref{}, fmt.Errorf("the index %q is not a number", parts[2+i])
		}
		*dst = n
	}
	if r.Node, err = url.PathUnescape(parts[1]); err != nil || r.Node == "" {
		return Ref{}, fmt.Errorf("the node name %q is not percent-encoded", parts[1])
	}
	if r.Key, err = url.PathUnescape(parts[5]); err != nil || r.Key == "" {
		return Ref{}, fmt.Errorf("the binary key %q is not percent-encoded", parts[5])
	}
	return r, nil
}

// runDataBinaries is the part of a saved execution state that holds binary data.
type runDataBinaries struct {
	ResultData struct {
		RunData map[string][]struct {
			Data *struct {
				Main [][]struct {
					Binary map[string]struct {
						Data string `json:"data"`
					} `json:"binary"`
				} `json:"main"`
			} `json:"data"`
		} `json:"runData"`
	} `json:"resultData"`
}

// Find returns the base64 data r points at in a saved execution state; false when the state
// holds no such entry.
func Find(state []byte, r Ref) (string, bool) {
	var s runDataBinaries
	if len(state) == 0 || json.Unmarshal(state, &s) != nil {
		return "", false
	}
	runs := s.ResultData.RunData[r.Node]
	if r.Run >= len(runs) || runs[r.Run].Data == nil {
		return "", false
	}
	main := runs[r.Run].Data.Main
	if r.Output >= len(main) || r.Item >= len(main[r.Output]) {
		return "", false
	}
	b, ok := main[r.Output][r.Item].Binary[r.Key]
	return b.Data, ok
}
