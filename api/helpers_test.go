package main

import (
	"encoding/json"

	"github.com/flowmill/flowmill/pkg/push"
)

func pushMessage(typ string, data any) push.Message { return push.Message{Type: typ, Data: data} }

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// runDataJSON is an execution's run data as GET /rest/executions/:id answers it: per node, its
// runs with the JSON items of their main outputs.
type runDataJSON map[string][]struct {
	Data struct {
		Main [][]struct {
			JSON map[string]any `json:"json"`
		} `json:"main"`
	} `json:"data"`
}
