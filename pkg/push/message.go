// Package push carries execution progress to editors: any process publishes a message for an
// editor session on Redis, and every api replica hands it to that session's SSE stream if the
// session is connected there.
package push

// Message types, as the editor knows them.
const (
	TypeExecutionStarted    = "executionStarted"
	TypeNodeExecuteBefore   = "nodeExecuteBefore"
	TypeNodeExecuteAfter    = "nodeExecuteAfter"
	TypeExecutionFinished   = "executionFinished"
	TypeTestWebhookReceived = "testWebhookReceived"
	TypeTestWebhookDeleted  = "testWebhookDeleted"
	TypeSendConsoleMessage  = "sendConsoleMessage"
)

// Message is what an SSE client receives as one `data:` line.
type Message struct {
	Type string `json:"type"`
	Data any    `json:"data"`
}

// ExecutionStarted is the data of an executionStarted message.
type ExecutionStarted struct {
	ExecutionID  string `json:"executionId"`
	Mode         string `json:"mode"`
	StartedAt    string `json:"startedAt"`
	WorkflowID   string `json:"workflowId"`
	WorkflowName string `json:"workflowName,omitempty"`
	RetryOf      string `json:"retryOf,omitempty"`
}

// NodeExecuteBefore is the data of a nodeExecuteBefore message.
type NodeExecuteBefore struct {
	ExecutionID string `json:"executionId"`
	NodeName    string `json:"nodeName"`
}

// NodeExecuteAfter is the data of a nodeExecuteAfter message; Data is the node run's task data.
type NodeExecuteAfter struct {
	ExecutionID string `json:"executionId"`
	NodeName    string `json:"nodeName"`
	Data        any    `json:"data"`
}

// ExecutionFinished is the data of an executionFinished message; Data is the whole run (n8n's
// IRun: data, finished, mode, startedAt, stoppedAt, waitTill).
type ExecutionFinished struct {
	ExecutionID string `json:"executionId"`
	Data        any    `json:"data"`
	RetryOf     string `json:"retryOf,omitempty"`
}

// ConsoleMessage is the data of a sendConsoleMessage message.
type ConsoleMessage struct {
	Source   string `json:"source"`
	Messages []any  `json:"messages"`
}
