package execution

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// A run holds its execution by a claim token, random per claim: the lease, every checkpoint,
// the result and the release present it, so a second run of the same execution (another task,
// or another claim in this very process) can neither claim it while the lease lives nor write
// over the run that holds it.

// newClaimToken is a fresh claim token naming this worker, for the execution lease.
func (r *Runner) newClaimToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	id := r.cfg.WorkerID
	if len(id) > 100 {
		id = id[:100] // lease_owner holds 128 characters
	}
	return id + "/" + hex.EncodeToString(b[:])
}

// ClaimWorker is the worker id a claim token names (its heartbeat tells whether it lives).
func ClaimWorker(token string) string {
	if i := strings.LastIndexByte(token, '/'); i >= 0 {
		return token[:i]
	}
	return token
}

// lease keeps a run's claim alive: it renews it every third of its life, and records the node
// the run starts (nodes with effects, where a run can kill its worker) so a poison pill can be
// named. Losing the lease cancels the run.
type lease struct {
	nodes chan string
	stop  chan struct{}
	done  chan struct{}
}

// keepLease renews e's lease (held by the token e.LeaseOwner) and, when holder is not empty,
// the production slot held by holder, until the returned function is called or ctx ends.
func (r *Runner) keepLease(ctx context.Context, e *store.Execution, cancel context.CancelCauseFunc, holder string) *lease {
	l := &lease{nodes: make(chan string, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		t := time.NewTicker(r.cfg.LeaseTTL / 3)
		defer t.Stop()
		for {
			node := ""
			select {
			case <-l.stop:
				return
			case <-ctx.Done():
				return
			case node = <-l.nodes:
			case <-t.C:
			}
			ok, err := r.cfg.Store.RenewLease(ctx, e.ID, e.LeaseOwner, r.cfg.LeaseTTL, node)
			if err == nil && !ok {
				cancel(errLeaseLost)
				return
			}
			if r.slots != nil && holder != "" {
				_, _ = r.slots.Acquire(ctx, holder) // renews the hold
			}
		}
	}()
	return l
}

// started notes that the run starts node; the newest note replaces one not yet written.
func (l *lease) started(node string) {
	if l == nil {
		return
	}
	select {
	case <-l.nodes:
	default:
	}
	select {
	case l.nodes <- node:
	default:
	}
}

// end stops the renewals and waits for one under way.
func (l *lease) end() {
	close(l.stop)
	<-l.done
}

// crashPoisonPill ends an execution whose workers died MaxTakeovers times while running it:
// status crashed, with an error naming the node it was in, and nobody runs it again.
func (r *Runner) crashPoisonPill(ctx context.Context, e *store.Execution, d *store.ExecutionData) error {
	var state engine.State
	if len(d.Data) > 0 && string(d.Data) != "null" {
		_ = json.Unmarshal(d.Data, &state) // an unreadable checkpoint still crashes, without its run data
	}
	if state.ResultData.RunData == nil {
		state.ResultData.RunData = workflow.RunData{}
	}
	node := e.RunningNode
	if node == "" && len(state.ExecutionData.NodeExecutionStack) > 0 {
		node = state.ExecutionData.NodeExecutionStack[0].Node
	}
	msg := fmt.Sprintf("The execution was stopped after its worker died %d times while running it", e.Takeovers)
	if node != "" {
		msg = fmt.Sprintf("The execution was stopped after its worker died %d times while running node %q", e.Takeovers, node)
	}
	state.ResultData.Error = &workflow.ExecutionError{Name: "WorkflowOperationError", Message: msg, Node: node,
		Timestamp: time.Now().UnixMilli()}
	wf := &workflow.Workflow{}
	if parsed, err := r.snapshots.parse(d.WorkflowData); err == nil {
		wf = parsed
	}
	r.log.Error("execution crashed its worker too often; not run again", "execution", e.ID, "node", node, "takeovers", e.Takeovers)
	h := r.hooks(e, wf)
	h.answer = r.answererFor(e.ID, d.StartData)
	h.awaited = r.awaiterFor(e.ID, d.StartData)
	return r.finish(context.WithoutCancel(ctx), e, wf, &engine.Result{Status: workflow.StatusCrashed, Mode: e.Mode, State: &state}, h)
}
