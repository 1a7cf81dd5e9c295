package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
)

// maxInlineBinary is the longest base64 `data` of a binary entry GET /rest/executions/:id sends
// inline (characters); longer data is left out and fetched with GET /rest/data/:id.
const maxInlineBinary = 65536

// binaryIDPrefix starts every binary data id.
const binaryIDPrefix = "execution:"

// binaryRef locates one binary entry in the run data of a saved execution. Its string form,
// the binary data id, is
// execution:{executionId}:{nodeName}:{runIndex}:{outputIndex}:{itemIndex}:{binaryKey}, with the
// node name and binary key percent-encoded.
type binaryRef struct {
	ExecutionID int64
	Node        string
	Run         int
	Output      int
	Item        int
	Key         string
}

func (r binaryRef) String() string {
	return fmt.Sprintf("%s%d:%s:%d:%d:%d:%s", binaryIDPrefix, r.ExecutionID, escapeIDPart(r.Node), r.Run, r.Output, r.Item, escapeIDPart(r.Key))
}

// escapeIDPart percent-encodes every character but ASCII letters, digits and -_.~ (a space is
// %20), so that the part holds no colon.
func escapeIDPart(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// parseBinaryRef reads a binary data id.
func parseBinaryRef(id string) (binaryRef, error) {
	rest, ok := strings.CutPrefix(id, binaryIDPrefix)
	parts := strings.Split(rest, ":")
	if !ok || len(parts) != 6 {
		return binaryRef{}, fmt.Errorf("a binary data id has the form %s{executionId}:{nodeName}:{runIndex}:{outputIndex}:{itemIndex}:{binaryKey}", binaryIDPrefix)
	}
	var r binaryRef
	var err error
	if r.ExecutionID, err = strconv.ParseInt(parts[0], 10, 64); err != nil || r.ExecutionID <= 0 {
		return binaryRef{}, fmt.Errorf("the execution id %q is not a number", parts[0])
	}
	for i, dst := range []*int{&r.Run, &r.Output, &r.Item} {
		n, err := strconv.Atoi(parts[2+i])
		if err != nil || n < 0 {
			return binaryRef{}, fmt.Errorf("the index %q is not a number", parts[2+i])
		}
		*dst = n
	}
	if r.Node, err = url.PathUnescape(parts[1]); err != nil || r.Node == "" {
		return binaryRef{}, fmt.Errorf("the node name %q is not percent-encoded", parts[1])
	}
	if r.Key, err = url.PathUnescape(parts[5]); err != nil || r.Key == "" {
		return binaryRef{}, fmt.Errorf("the binary key %q is not percent-encoded", parts[5])
	}
	return r, nil
}

// getBinaryData answers the base64 data of one binary entry of a saved execution, to callers
// who may see that execution.
func (s *server) getBinaryData(c fiber.Ctx) error {
	id := c.Params("id")
	if !strings.HasPrefix(id, binaryIDPrefix) {
		// The id was sent percent-encoded as one path segment.
		if unescaped, err := url.PathUnescape(id); err == nil {
			id = unescaped
		}
	}
	ref, err := parseBinaryRef(id)
	if err != nil {
		return badRequest("Invalid binary data id: " + err.Error())
	}
	if err := s.checkExecutionVisible(c, ref.ExecutionID); err != nil {
		return err
	}
	d, err := s.in.Store.GetExecutionData(c.Context(), ref.ExecutionID)
	if err != nil {
		return executionNotFound(ref.ExecutionID, err)
	}
	data, ok := findBinary(d.Data, ref)
	if !ok {
		return notFound(fmt.Sprintf("Binary data %q could not be found in execution %d", ref.Key, ref.ExecutionID))
	}
	return respond(c, data)
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

// findBinary returns the base64 data the reference points at.
func findBinary(state []byte, r binaryRef) (string, bool) {
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

// rawObject is a JSON object whose members stay undecoded.
type rawObject = map[string]json.RawMessage

// externalizeBinaries replaces, in a saved execution state, the base64 data of every binary
// entry of the run data longer than maxInlineBinary characters by "" and gives the entry the id
// GET /rest/data/:id answers it under. Everything else is kept; a state without such data is
// returned as it is.
func externalizeBinaries(state []byte, executionID int64) ([]byte, error) {
	if len(state) <= maxInlineBinary {
		return state, nil
	}
	var top, result rawObject
	var runData map[string][]rawObject
	if json.Unmarshal(state, &top) != nil || json.Unmarshal(top["resultData"], &result) != nil ||
		json.Unmarshal(result["runData"], &runData) != nil {
		return state, nil
	}
	changed := false
	for node, runs := range runData {
		for run, task := range runs {
			data, ok, err := externalizeTask(task["data"], binaryRef{ExecutionID: executionID, Node: node, Run: run})
			if err != nil {
				return nil, err
			}
			if ok {
				task["data"] = data
				changed = true
			}
		}
	}
	if !changed {
		return state, nil
	}
	var err error
	if result["runData"], err = json.Marshal(runData); err != nil {
		return nil, fmt.Errorf("encode run data: %w", err)
	}
	if top["resultData"], err = json.Marshal(result); err != nil {
		return nil, fmt.Errorf("encode result data: %w", err)
	}
	return json.Marshal(top)
}

// externalizeTask does externalizeBinaries for the data of one run; ok says whether it changed.
func externalizeTask(raw json.RawMessage, ref binaryRef) (json.RawMessage, bool, error) {
	if len(raw) <= maxInlineBinary {
		return raw, false, nil
	}
	var data rawObject
	var main [][]rawObject
	if json.Unmarshal(raw, &data) != nil || json.Unmarshal(data["main"], &main) != nil {
		return raw, false, nil
	}
	changed := false
	for output, items := range main {
		for i, item := range items {
			if len(item["binary"]) <= maxInlineBinary {
				continue
			}
			var binary map[string]rawObject
			if json.Unmarshal(item["binary"], &binary) != nil {
				continue
			}
			itemChanged := false
			for key, entry := range binary {
				var b64 string
				if len(entry["data"]) <= maxInlineBinary || json.Unmarshal(entry["data"], &b64) != nil || len(b64) <= maxInlineBinary {
					continue
				}
				at := ref
				at.Output, at.Item, at.Key = output, i, key
				id, _ := json.Marshal(at.String())
				entry["data"], entry["id"] = json.RawMessage(`""`), id
				itemChanged = true
			}
			if itemChanged {
				b, err := json.Marshal(binary)
				if err != nil {
					return nil, false, fmt.Errorf("encode binary data: %w", err)
				}
				item["binary"] = b
				changed = true
			}
		}
	}
	if !changed {
		return raw, false, nil
	}
	var err error
	if data["main"], err = json.Marshal(main); err != nil {
		return nil, false, fmt.Errorf("encode run data: %w", err)
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil, false, fmt.Errorf("encode run data: %w", err)
	}
	return b, true, nil
}
