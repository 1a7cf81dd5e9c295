// Package queue is Flowmill's task queue on asynq: every task kind, payload and queue name, and
// the client and server wiring shared by the api, the worker and the scheduler. Pub/sub channels
// and the other Redis keys are package bus's; the connection is package redisconn's.
package queue

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// Queue names with their weights: a worker picks from critical six times as often as from low.
const (
	QueueCritical = "critical" // runs a person or a caller is waiting on: manual, webhook
	QueueDefault  = "default"  // trigger and retry runs
	QueueLow      = "low"      // maintenance and diagnostics
)

// Queues is the weighted queue set every worker serves.
var Queues = map[string]int{QueueCritical: 6, QueueDefault: 3, QueueLow: 1}

// QueueFor picks the queue of an execution by its mode: runs someone waits on go first.
func QueueFor(mode workflow.Mode) string {
	switch mode {
	case workflow.ModeManual, workflow.ModeWebhook:
		return QueueCritical
	default:
		return QueueDefault
	}
}

// Task kinds.
const (
	KindExecutionRun = "execution:run"
	KindDebugPing    = "debug:ping"
	// KindTriggerFire fires one tick of a schedule or poll trigger of an active workflow.
	KindTriggerFire = "trigger:fire"
)

// ExecutionRun asks a worker to run (or resume) a stored execution.
type ExecutionRun struct {
	ExecutionID int64 `json:"executionId"`
}

// TaskID is deterministic so an execution is never queued twice at once.
func (p ExecutionRun) TaskID() string { return "execution:" + strconv.FormatInt(p.ExecutionID, 10) }

// DebugPing proves the api → Redis → worker → push round trip: the worker writes its answer as
// the task result and, when SessionID is set, sends it to that editor session's push stream.
type DebugPing struct {
	ID        string `json:"id"`
	Message   string `json:"message"`
	SessionID string `json:"sessionId,omitempty"`
}

// TaskID is deterministic per ping.
func (p DebugPing) TaskID() string { return "ping:" + p.ID }

// Decode reads a task payload into v with a clear error.
func Decode(kind string, payload []byte, v any) error {
	if err := json.Unmarshal(payload, v); err != nil {
		return fmt.Errorf("%s payload: %w", kind, err)
	}
	return nil
}

// TriggerFire asks a worker to start one execution of an active workflow for a schedule tick, a
// poll or a workflow event. FireTime is the tick's time in Unix seconds.
type TriggerFire struct {
	WorkflowID string `json:"workflowId"`
	Node       string `json:"node"`
	FireTime   int64  `json:"fireTime"`
	// Event is the Workflow Trigger's event ("activate", "update"), Version the workflow
	// version the save that caused it wrote, EventTime its time in Unix milliseconds.
	Event     string `json:"event,omitempty"`
	Version   string `json:"version,omitempty"`
	EventTime int64  `json:"eventTime,omitempty"`
}

// TaskID is deterministic per tick, and per saved version for an event, so any number of
// schedulers or api processes queue each once.
func (p TriggerFire) TaskID() string {
	if p.Event != "" {
		return "trigger:" + p.WorkflowID + ":" + p.Node + ":" + p.Event + ":" + p.Version
	}
	return "trigger:" + p.WorkflowID + ":" + p.Node + ":" + strconv.FormatInt(p.FireTime, 10)
}
