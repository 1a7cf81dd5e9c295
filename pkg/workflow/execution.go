package workflow

// Status is the state of an execution. A stored execution goes new → queued → running
// (→ waiting →) success | error | canceled | crashed; a run of the engine ends in success, error,
// canceled or waiting.
type Status string

// Execution statuses.
const (
	// StatusNew: created, not yet handed to the queue.
	StatusNew Status = "new"
	// StatusQueued: waiting for a worker.
	StatusQueued Status = "queued"
	// StatusRunning: a worker holds its lease and runs it.
	StatusRunning Status = "running"
	// StatusWaiting: a node (Wait) put the execution to wait until its wait time or a call of
	// its resume webhook.
	StatusWaiting Status = "waiting"
	// StatusSuccess: finished without an error.
	StatusSuccess Status = "success"
	// StatusError: finished with an error, or timed out.
	StatusError Status = "error"
	// StatusCanceled: stopped on request.
	StatusCanceled Status = "canceled"
	// StatusCrashed: its worker went away and it could not be continued.
	StatusCrashed Status = "crashed"
)

// PendingStatuses are the statuses of executions that still have to run on a worker.
var PendingStatuses = []Status{StatusNew, StatusQueued, StatusRunning}

// TerminalStatuses never change again.
var TerminalStatuses = []Status{StatusSuccess, StatusError, StatusCanceled, StatusCrashed}

// Mode says what started an execution.
type Mode string

// Execution modes, n8n's WorkflowExecuteMode.
const (
	// ModeManual: run from the editor.
	ModeManual Mode = "manual"
	// ModeTrigger: started by a trigger node (schedule, poll, …).
	ModeTrigger Mode = "trigger"
	// ModeWebhook: started by a call of a production webhook.
	ModeWebhook Mode = "webhook"
	// ModeIntegrated: a sub-workflow run by Execute Workflow.
	ModeIntegrated Mode = "integrated"
	// ModeRetry: a retry of a failed execution.
	ModeRetry Mode = "retry"
	// ModeError: an error workflow run for a failed execution.
	ModeError Mode = "error"
	// ModeCLI: a stored workflow run from the command line (bin/worker execute --id).
	ModeCLI Mode = "cli"
)
