package nodes

import (
	"context"
	"errors"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// ListenFunc is a listener trigger's subscription; see Type.Listen.
type ListenFunc func(ctx context.Context, ex *Execution, emit Emit) error

// ErrStopping is the cause (context.Cause) of a listener's context when its workflow was
// deactivated or saved anew, or its scheduler stops: the listener may finish the work in flight
// for a while before it returns (the RabbitMQ Trigger waits for the runs it started). Any other
// end (the lease lost, the process killed) wants it to return at once.
var ErrStopping = errors.New("the listener is stopping")

// Emit starts one execution with items as the listener node's output. It returns once the
// execution is stored and queued (it runs on any worker); with await AwaitNone the returned Run
// is nil, otherwise the listener waits on it before it acknowledges its message.
type Emit func(items []workflow.Item, await Await) (Run, error)

// Await is what a listener waits for after emitting: nothing, the end of the execution, or
// also a node of the run asking for the message to be acknowledged (AcknowledgeMessage).
type Await int

const (
	// AwaitNone: emit returns once the execution is stored and queued.
	AwaitNone Await = iota
	// AwaitEnd: the run's outcome is its end (success, error, crashed or canceled). A run that
	// waits (Wait node) has not ended yet.
	AwaitEnd
	// AwaitAcknowledge: the run's outcome is the first node asking to acknowledge the message
	// (Outcome.Acknowledged), or its end.
	AwaitAcknowledge
)

// Run is an execution a listener started and waits for.
type Run interface {
	// ID is the execution's id.
	ID() int64
	// Outcome blocks until the run's outcome is known (see Await), or ctx ends (its error).
	Outcome(ctx context.Context) (Outcome, error)
}

// Outcome is how a run that a listener waits for went.
type Outcome struct {
	// Status is how the run ended: success, error, crashed or canceled. Empty when
	// Acknowledged came first, or when the run ended and its record is gone (deleted) without
	// saying how.
	Status workflow.Status `json:"status,omitempty"`
	// Acknowledged is set when a node of the run asked for the message to be acknowledged
	// before the run ended (only with AwaitAcknowledge).
	Acknowledged bool `json:"acknowledged,omitempty"`
}

// acknowledgeKey is the node context key AcknowledgeMessage records.
const acknowledgeKey = "acknowledgeTriggerMessage"

// AcknowledgeMessage asks the listener trigger that started the run to acknowledge its message
// now (the RabbitMQ node's Delete From Queue). It is recorded in the node's context data, where
// the worker reads it once the node ran; in a run nobody waits for that way it does nothing.
func (ex *Execution) AcknowledgeMessage() { ex.Context()[acknowledgeKey] = true }

// MessageAcknowledged reports whether a node's context data records AcknowledgeMessage.
func MessageAcknowledged(nodeContext map[string]any) bool {
	v, _ := nodeContext[acknowledgeKey].(bool)
	return v
}

// FirstEvent is the run of a listener trigger from the editor: it listens until the first
// event and outputs its items.
func FirstEvent(ctx context.Context, ex *Execution, listen ListenFunc) ([][]workflow.Item, error) {
	var first []workflow.Item
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	err := listen(ctx, ex, func(items []workflow.Item, _ Await) (Run, error) {
		if first == nil {
			first = items
		}
		stop()
		return nil, nil
	})
	if first != nil {
		return [][]workflow.Item{first}, nil
	}
	if err == nil {
		err = ctx.Err()
	}
	return nil, err
}
