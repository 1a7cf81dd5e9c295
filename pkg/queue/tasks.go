// Package queue holds every task kind, payload, queue name and Redis key of Flowmill, and the
// asynq client and server wiring shared by the api, the worker and the scheduler.
package queue

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Queue names with their weights: a worker picks from critical six times as often as from low.
const (
	QueueCritical = "critical" // runs a person or a caller is waiting on: manual, webhook
	QueueDefault  = "default"  // trigger and retry runs
	QueueLow      = "low"      // maintenance and diagnostics
)

// Queues is the weighted queue set every worker serves.
var Queues = map[string]int{QueueCritical: 6, QueueDefault: 3, QueueLow: 1}

// Task kinds.
const (
	KindExecutionRun = "execution:run"
	KindDebugPing    = "debug:ping"
)

// Redis keys and channels outside asynq's own.
const (
	// KeyHeartbeatPrefix + role + ":" + instance id holds a process's last heartbeat.
	KeyHeartbeatPrefix = "flowmill:heartbeat:"
	// ChannelPush carries push messages from any process to every api replica.
	ChannelPush = "flowmill:push"
	// ChannelStop carries ids of executions to cancel to every worker.
	ChannelStop = "flowmill:execution:stop"
	// KeyStopPrefix + execution id marks a stop request for a minute, for a worker that claims
	// the execution just after the message on ChannelStop went out.
	KeyStopPrefix = "flowmill:execution:stop:"
	// ChannelFinished carries ids of executions that just finished (or started waiting), for
	// api processes waiting on them.
	ChannelFinished = "flowmill:execution:finished"
	// KeyRateLimitPrefix + rule + ":" + subject counts attempts within a rate-limit window.
	KeyRateLimitPrefix = "flowmill:ratelimit:"
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

// Trigger and webhook keys.
const (
	// KindTriggerFire fires one tick of a schedule or poll trigger of an active workflow.
	KindTriggerFire = "trigger:fire"
	// ChannelActivation carries the id of a workflow whose activation changed (activated,
	// deactivated, updated while active, deleted), so schedulers and api caches reload it.
	ChannelActivation = "flowmill:activation"
	// KeyActivationErrors is a hash: workflow id → JSON {time, error: {message}} of the last
	// failure to start its triggers.
	KeyActivationErrors = "flowmill:activation:errors"
	// ChannelWebhookResponse carries the answers of webhook executions to the api waiting for
	// them; KeyWebhookResponsePrefix + execution id keeps a copy for a minute, for an api that
	// missed the message.
	ChannelWebhookResponse   = "flowmill:webhook:response"
	KeyWebhookResponsePrefix = "flowmill:webhook:response:"
	// KeyTestWebhookPrefix starts every key of test webhooks (see pkg/webhook/tests.go).
	KeyTestWebhookPrefix = "flowmill:test-webhook:"
)

// TriggerFire asks a worker to start one execution of an active workflow for a schedule tick or
// a poll. FireTime is the tick's time in Unix seconds.
type TriggerFire struct {
	WorkflowID string `json:"workflowId"`
	Node       string `json:"node"`
	FireTime   int64  `json:"fireTime"`
}

// TaskID is deterministic per tick, so any number of schedulers queue each tick once.
func (p TriggerFire) TaskID() string {
	return "trigger:" + p.WorkflowID + ":" + p.Node + ":" + strconv.FormatInt(p.FireTime, 10)
}
