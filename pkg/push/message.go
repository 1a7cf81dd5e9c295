// Package push carries execution progress to editors: any process publishes a message for an
// editor session on Redis, and every api replica hands it to that session's SSE stream if the
// session is connected there.
package push

import "encoding/json"

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

// envelope is a message on the Redis channel: the target session (empty for every session) and
// the already-encoded message, so api replicas forward bytes without decoding them.
type envelope struct {
	SessionID string          `json:"s"`
	Message   json.RawMessage `json:"m"`
}
