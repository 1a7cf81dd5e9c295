package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// State is everything needed to continue an execution elsewhere: n8n's IRunExecutionData plus
// the order of node runs. It is plain JSON; a worker saves it after every node (see
// Hook.NodeExecuteAfter) and Engine.Resume continues from it without re-running finished nodes.
type State struct {
	StartData     StartData     `json:"startData"`
	ResultData    ResultData    `json:"resultData"`
	ExecutionData ExecutionData `json:"executionData"`
	// NodeExecutionOrder lists the node runs in the order they started.
	NodeExecutionOrder []string `json:"nodeExecutionOrder"`
	// LastExecutionTry is "<node>:<runIndex>" of the last node put back for missing input; it
	// backs the endless-loop guard.
	LastExecutionTry string `json:"lastExecutionTry,omitempty"`
	// WaitTill is set while the execution waits (n8n's waitTill): the waiting node is first in
	// the queue and its last run record is the one made when it started waiting.
	WaitTill *time.Time `json:"waitTill,omitempty"`
}

// StartData limits a run: the destination node and the nodes allowed to run (nil: all).
type StartData struct {
	DestinationNode string   `json:"destinationNode,omitempty"`
	RunNodeFilter   []string `json:"runNodeFilter,omitempty"`
}

// ResultData is the result so far.
type ResultData struct {
	RunData          workflow.RunData         `json:"runData"`
	LastNodeExecuted string                   `json:"lastNodeExecuted,omitempty"`
	Error            *workflow.ExecutionError `json:"error,omitempty"`
}

// ExecutionData is what is left to do: the FIFO queue of nodes to run and the inputs of
// multi-input nodes still waiting for their other inputs.
type ExecutionData struct {
	ContextData        map[string]any `json:"contextData"`
	NodeExecutionStack []ExecuteData  `json:"nodeExecutionStack"`
	// Waiting is written as n8n's waitingExecution and waitingExecutionSource.
	Waiting Waiting `json:"-"`
}

// ExecuteData is one queued node run: the node name, its input items per input index (nil: the
// input has not received data) and where each input came from (nil Source: a start node).
type ExecuteData struct {
	Node   string             `json:"node"`
	Data   Inputs             `json:"data"`
	Source *SourceConnections `json:"source"`
}

// Inputs are the items per input index.
type Inputs struct {
	Main [][]workflow.Item `json:"main"`
}

// SourceConnections say which node output fed each input.
type SourceConnections struct {
	Main []*workflow.SourceData `json:"main"`
}

// waitingEntry is one pending run of a multi-input node.
type waitingEntry struct {
	Main   [][]workflow.Item
	Source []*workflow.SourceData
}

// Waiting holds, per node (in the order the nodes started waiting) and per run index, the inputs
// received so far. The order matters: n8n runs the first waiting node that can run.
type Waiting struct {
	order []string
	nodes map[string]map[int]*waitingEntry
}

func (w *Waiting) get(node string) map[int]*waitingEntry { return w.nodes[node] }

func (w *Waiting) create(node string) map[int]*waitingEntry {
	if w.nodes == nil {
		w.nodes = map[string]map[int]*waitingEntry{}
	}
	m := map[int]*waitingEntry{}
	w.nodes[node] = m
	w.order = append(w.order, node)
	return m
}

func (w *Waiting) deleteRun(node string, runIndex int) {
	m := w.nodes[node]
	delete(m, runIndex)
	if len(m) == 0 {
		delete(w.nodes, node)
		w.order = slices.DeleteFunc(w.order, func(s string) bool { return s == node })
	}
}

// Nodes returns the waiting node names in order.
func (w *Waiting) Nodes() []string { return slices.Clone(w.order) }

// Len is the number of waiting nodes.
func (w *Waiting) Len() int { return len(w.order) }

func (w *Waiting) runIndexes(node string) []int {
	var idx []int
	for k := range w.nodes[node] {
		idx = append(idx, k)
	}
	slices.Sort(idx)
	return idx
}

type executionDataJSON struct {
	ContextData            map[string]any  `json:"contextData"`
	NodeExecutionStack     []ExecuteData   `json:"nodeExecutionStack"`
	WaitingExecution       json.RawMessage `json:"waitingExecution"`
	WaitingExecutionSource json.RawMessage `json:"waitingExecutionSource"`
}

// MarshalJSON writes n8n's shape: waitingExecution {node: {runIndex: {main}}} and
// waitingExecutionSource {node: {runIndex: {main}}}, nodes in waiting order.
func (d ExecutionData) MarshalJSON() ([]byte, error) {
	var data, src bytes.Buffer
	data.WriteByte('{')
	src.WriteByte('{')
	for i, node := range d.Waiting.order {
		if i > 0 {
			data.WriteByte(',')
			src.WriteByte(',')
		}
		k, _ := json.Marshal(node)
		dm, sm := map[string]Inputs{}, map[string]SourceConnections{}
		for run, e := range d.Waiting.nodes[node] {
			key := strconv.Itoa(run)
			dm[key] = Inputs{Main: e.Main}
			sm[key] = SourceConnections{Main: e.Source}
		}
		db, err := json.Marshal(dm)
		if err != nil {
			return nil, err
		}
		sb, _ := json.Marshal(sm)
		data.Write(k)
		data.WriteByte(':')
		data.Write(db)
		src.Write(k)
		src.WriteByte(':')
		src.Write(sb)
	}
	data.WriteByte('}')
	src.WriteByte('}')
	stack := d.NodeExecutionStack
	if stack == nil {
		stack = []ExecuteData{}
	}
	ctx := d.ContextData
	if ctx == nil {
		ctx = map[string]any{}
	}
	return json.Marshal(executionDataJSON{ContextData: ctx, NodeExecutionStack: stack,
		WaitingExecution: data.Bytes(), WaitingExecutionSource: src.Bytes()})
}

// UnmarshalJSON reads the shape MarshalJSON writes.
func (d *ExecutionData) UnmarshalJSON(b []byte) error {
	var raw executionDataJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*d = ExecutionData{ContextData: raw.ContextData, NodeExecutionStack: raw.NodeExecutionStack}
	if len(raw.WaitingExecution) == 0 || bytes.Equal(raw.WaitingExecution, []byte("null")) {
		return nil
	}
	order, err := workflow.ObjectKeys(raw.WaitingExecution)
	if err != nil {
		return fmt.Errorf("waitingExecution: %w", err)
	}
	var data map[string]map[string]Inputs
	if err := json.Unmarshal(raw.WaitingExecution, &data); err != nil {
		return fmt.Errorf("waitingExecution: %w", err)
	}
	var src map[string]map[string]SourceConnections
	if len(raw.WaitingExecutionSource) > 0 {
		if err := json.Unmarshal(raw.WaitingExecutionSource, &src); err != nil {
			return fmt.Errorf("waitingExecutionSource: %w", err)
		}
	}
	for _, node := range order {
		m := d.Waiting.create(node)
		for key, in := range data[node] {
			run, err := strconv.Atoi(key)
			if err != nil {
				return fmt.Errorf("waitingExecution %q: run index %q", node, key)
			}
			e := &waitingEntry{Main: in.Main, Source: src[node][key].Main}
			for len(e.Source) < len(e.Main) {
				e.Source = append(e.Source, nil)
			}
			m[run] = e
		}
	}
	return nil
}

// PrepareRetry readies a failed state to run again from the failed node: the failed node's last
// run record and the error are removed, so the node runs again from its saved input.
func (s *State) PrepareRetry() {
	if s.ResultData.Error == nil {
		return
	}
	last := s.ResultData.LastNodeExecuted
	if runs := s.ResultData.RunData[last]; len(runs) > 0 && runs[len(runs)-1].Error != nil {
		s.ResultData.RunData[last] = runs[:len(runs)-1]
		if len(s.ResultData.RunData[last]) == 0 {
			delete(s.ResultData.RunData, last)
		}
		if n := len(s.NodeExecutionOrder); n > 0 && s.NodeExecutionOrder[n-1] == last {
			s.NodeExecutionOrder = s.NodeExecutionOrder[:n-1]
		}
	}
	s.ResultData.Error = nil
	s.LastExecutionTry = ""
}
