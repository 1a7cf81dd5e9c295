package binaryref

import (
	"encoding/json"
	"fmt"
)

// rawObject is a JSON object whose members stay undecoded.
type rawObject = map[string]json.RawMessage

// Externalize replaces, in a saved execution state, the base64 data of every binary entry of
// the run data longer than MaxInline characters by "" and gives the entry its Ref's id as "id".
// Everything else is kept; a state without such data (or one that is not a run state) is
// returned as it is.
func Externalize(state []byte, executionID int64) ([]byte, error) {
	if len(state) <= MaxInline {
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
			data, ok, err := externalizeTask(task["data"], Ref{ExecutionID: executionID, Node: node, Run: run})
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

// externalizeTask does Externalize for the data of one run; ok says whether it changed.
func externalizeTask(raw json.RawMessage, ref Ref) (json.RawMessage, bool, error) {
	if len(raw) <= MaxInline {
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
			if len(item["binary"]) <= MaxInline {
				continue
			}
			var binary map[string]rawObject
			if json.Unmarshal(item["binary"], &binary) != nil {
				continue
			}
			itemChanged := false
			for key, entry := range binary {
				var b64 string
				if len(entry["data"]) <= MaxInline || json.Unmarshal(entry["data"], &b64) != nil || len(b64) <= MaxInline {
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
