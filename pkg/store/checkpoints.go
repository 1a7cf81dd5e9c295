package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"gorm.io/gorm"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// A running execution's checkpoint is its last full state in execution_data.data (the base,
// written by SaveExecutionState) plus the deltas appended since, one execution_checkpoints row per
// checkpoint: the node runs finished since the previous checkpoint and the rest of the state
// without run data. A checkpoint so costs what the nodes since the last one produced, not a copy
// of all run data. Every read of execution_data (GetExecutionData, ClaimExecution) returns the
// base with its deltas applied, so readers see one full state as before; the final result of a
// run replaces the base and removes the deltas.

// CheckpointDelta is one execution_checkpoints row: From is the number of node runs (entries of
// nodeExecutionOrder) before it, Runs the node runs since, in order, and State the whole state
// but its runData and nodeExecutionOrder.
type CheckpointDelta struct {
	From  int             `json:"from"`
	Runs  []CheckpointRun `json:"runs"`
	State json.RawMessage `json:"state"`
}

// CheckpointRun is one node run of a delta: the node and its run record (n8n's ITaskData).
type CheckpointRun struct {
	Node string          `json:"node"`
	Task json.RawMessage `json:"task"`
}

// AppendExecutionCheckpoint adds a delta to a running execution's checkpoint, as long as owner
// still holds its lease; false means the lease was lost and the caller must stop. One statement.
// A delta that is not durable commits on Postgres without waiting for the disk (as a claim
// does); the next durable write of the run flushes it with itself.
func (s *Store) AppendExecutionCheckpoint(ctx context.Context, id int64, owner string, delta JSON, durable bool) (bool, error) {
	var n int64
	if s.Dialect == Postgres && !durable {
		res := s.DB.WithContext(ctx).Exec(`WITH async AS (SELECT set_config('synchronous_commit', 'off', true))
		INSERT INTO execution_checkpoints (execution_id, data) SELECT ?, ? FROM async WHERE EXISTS
		(SELECT 1 FROM executions WHERE id = ? AND status = ? AND lease_owner = ?)`, id, delta, id, workflow.StatusRunning, owner)
		if res.Error != nil {
			return false, fmt.Errorf("checkpoint execution %d: %w", id, res.Error)
		}
		return res.RowsAffected == 1, nil
	}
	err := s.writeOne(ctx, func(tx *gorm.DB) error {
		res := tx.Exec(`INSERT INTO execution_checkpoints (execution_id, data) SELECT ?, ? WHERE EXISTS
		(SELECT 1 FROM executions WHERE id = ? AND status = ? AND lease_owner = ?)`, id, delta, id, workflow.StatusRunning, owner)
		n = res.RowsAffected
		return res.Error
	})
	if err != nil {
		return false, fmt.Errorf("checkpoint execution %d: %w", id, err)
	}
	return n == 1, nil
}

// checkpointDeltas returns the deltas of execution id in the order they were written.
func (s *Store) checkpointDeltas(ctx context.Context, id int64) ([]JSON, error) {
	var rows []JSON
	err := s.DB.WithContext(ctx).Raw(`SELECT data FROM execution_checkpoints WHERE execution_id = ? ORDER BY seq`, id).
		Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("read checkpoints of execution %d: %w", id, err)
	}
	return rows, nil
}

// ApplyCheckpointDeltas returns the state base with the deltas applied, in order. A delta applies when it starts
// where the state ends (its From is the state's number of node runs); any other is left over
// from before the base was last written and is skipped.
func ApplyCheckpointDeltas(base JSON, deltas []JSON) (JSON, error) {
	if len(deltas) == 0 || len(base) == 0 || bytes.Equal(base, []byte("null")) {
		return base, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(base, &top); err != nil {
		return nil, fmt.Errorf("checkpoint base: %w", err)
	}
	var order []string
	if raw := top["nodeExecutionOrder"]; len(raw) > 0 {
		if err := json.Unmarshal(raw, &order); err != nil {
			return nil, fmt.Errorf("checkpoint base: nodeExecutionOrder: %w", err)
		}
	}
	runKeys, runData, err := readRunData(top["resultData"])
	if err != nil {
		return nil, err
	}
	var last json.RawMessage
	for _, raw := range deltas {
		var d CheckpointDelta
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("checkpoint delta: %w", err)
		}
		if d.From != len(order) {
			continue
		}
		for _, r := range d.Runs {
			if _, ok := runData[r.Node]; !ok {
				runKeys = append(runKeys, r.Node)
			}
			runData[r.Node] = append(runData[r.Node], r.Task)
			order = append(order, r.Node)
		}
		last = d.State
	}
	if last == nil {
		return base, nil
	}
	var state map[string]json.RawMessage
	if err := json.Unmarshal(last, &state); err != nil {
		return nil, fmt.Errorf("checkpoint delta state: %w", err)
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(state["resultData"], &result); err != nil {
		return nil, fmt.Errorf("checkpoint delta state: resultData: %w", err)
	}
	result["runData"] = writeRunData(runKeys, runData)
	if state["resultData"], err = json.Marshal(result); err != nil {
		return nil, err
	}
	if state["nodeExecutionOrder"], err = json.Marshal(order); err != nil {
		return nil, err
	}
	out, err := json.Marshal(state)
	return JSON(out), err
}

// readRunData reads resultData.runData keeping the order of its nodes.
func readRunData(resultData json.RawMessage) ([]string, map[string][]json.RawMessage, error) {
	runData := map[string][]json.RawMessage{}
	if len(resultData) == 0 {
		return nil, runData, nil
	}
	var result struct {
		RunData json.RawMessage `json:"runData"`
	}
	if err := json.Unmarshal(resultData, &result); err != nil {
		return nil, nil, fmt.Errorf("checkpoint base: resultData: %w", err)
	}
	if len(result.RunData) == 0 || bytes.Equal(result.RunData, []byte("null")) {
		return nil, runData, nil
	}
	keys, err := workflow.ObjectKeys(result.RunData)
	if err != nil {
		return nil, nil, fmt.Errorf("checkpoint base: runData: %w", err)
	}
	if err := json.Unmarshal(result.RunData, &runData); err != nil {
		return nil, nil, fmt.Errorf("checkpoint base: runData: %w", err)
	}
	return keys, runData, nil
}

func writeRunData(keys []string, runData map[string][]json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteString(":[")
		for j, t := range runData[k] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.Write(t)
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.Bytes()
}
