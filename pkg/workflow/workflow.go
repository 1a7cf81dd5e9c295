// Package workflow holds the n8n-compatible workflow document (nodes, connections, settings,
// static data), its parsing and validation, parameter defaults resolved from node descriptions,
// and the run-data types shared by the engine, the store and the API.
package workflow

import (
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// Workflow is a workflow document as n8n exports it. Fields Flowmill does not know are kept in
// Extra and written back unchanged.
type Workflow struct {
	// ID is the workflow id; n8n may send it as a number, it is always kept as a string.
	ID          string
	Name        string
	Active      bool
	Nodes       []Node
	Connections Connections
	Settings    Settings
	// StaticData is the workflow's persistent node data ("global" and "node:<name>" keys).
	StaticData map[string]any
	// PinData is accepted and written back, but the engine never uses it.
	PinData map[string][]Item
	// Extra holds every other top-level field (tags, versionId, meta, …) as it was received.
	Extra map[string]json.RawMessage
}

// Node is one node of a workflow (n8n's INode). Fields Flowmill does not know are kept in Extra.
type Node struct {
	ID          string
	Name        string
	Type        string
	TypeVersion float64
	Position    []float64
	// Parameters as stored: values equal to their default may be missing.
	Parameters map[string]any
	// Credentials per credential type: an object {id, name}, or a plain name string.
	Credentials      map[string]any
	Disabled         bool
	Notes            string
	NotesInFlow      bool
	Color            string
	WebhookID        string
	AlwaysOutputData bool
	ExecuteOnce      bool
	ContinueOnFail   bool
	RetryOnFail      bool
	// MaxTries applies with RetryOnFail: 2 to 5, 0 means the default 3.
	MaxTries int
	// WaitBetweenTries applies with RetryOnFail, in milliseconds: 0 to 5000, 0 means 1000.
	WaitBetweenTries int
	Extra            map[string]json.RawMessage
}

// Settings are the workflow settings (timezone, errorWorkflow, saveDataErrorExecution,
// executionTimeout, …) kept as received.
type Settings map[string]any

// Timezone returns the workflow time zone, "" when unset or "DEFAULT".
func (s Settings) Timezone() string {
	tz, _ := s["timezone"].(string)
	if tz == "DEFAULT" {
		return ""
	}
	return tz
}

// ExecutionOrderV1 is the settings.executionOrder value of n8n 1.x's execution order
// (depth-first by branch). Any other value, and no value at all, is the v0 order.
const ExecutionOrderV1 = "v1"

// ExecutionOrder returns settings.executionOrder: "v1", or "v0" when unset or anything else
// (workflows from before the setting existed keep the order they were built with).
func (s Settings) ExecutionOrder() string {
	if v, _ := s["executionOrder"].(string); v == ExecutionOrderV1 {
		return ExecutionOrderV1
	}
	return "v0"
}

// ExecutionTimeout returns the execution timeout in seconds; -1 (or unset) means off.
func (s Settings) ExecutionTimeout() float64 {
	switch v := s["executionTimeout"].(type) {
	case float64:
		return v
	case json.Number:
		f, _ := v.Float64()
		return f
	}
	return -1
}

// Timeout is the one rule for an execution's time limit: the executionTimeout setting, else
// def, capped by max; 0 means no limit. A def or max of 0 or less means none (no default, no
// cap).
func (s Settings) Timeout(def, max time.Duration) time.Duration {
	secs := s.ExecutionTimeout()
	if secs <= 0 {
		secs = def.Seconds()
	}
	if secs <= 0 {
		return 0
	}
	if max > 0 {
		secs = min(secs, max.Seconds())
	}
	return time.Duration(secs * float64(time.Second))
}

// Node returns the node with the given name.
func (w *Workflow) Node(name string) (*Node, bool) {
	for i := range w.Nodes {
		if w.Nodes[i].Name == name {
			return &w.Nodes[i], true
		}
	}
	return nil, false
}

// NodeNames returns the node names in the order n8n enumerates them (JavaScript key order).
func (w *Workflow) NodeNames() []string {
	names := make([]string, len(w.Nodes))
	for i := range w.Nodes {
		names[i] = w.Nodes[i].Name
	}
	return JSKeyOrder(names)
}

// Clone returns a deep copy that shares nothing with w.
func (w *Workflow) Clone() *Workflow {
	b, err := json.Marshal(w)
	if err != nil {
		panic("workflow: clone: " + err.Error())
	}
	c, err := Parse(b)
	if err != nil {
		panic("workflow: clone: " + err.Error())
	}
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
