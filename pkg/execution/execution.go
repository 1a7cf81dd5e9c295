// Package execution is the run service shared by the api and the worker: the api creates,
// queues, stops, retries and waits for executions (Service); a worker claims and runs them with
// the engine, checkpointing after every node and reporting progress over push (Runner).
package execution

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// StartData is how an execution begins; it is stored with the execution so any worker can
// start it.
type StartData struct {
	StartNodes      []string         `json:"startNodes,omitempty"`
	DestinationNode string           `json:"destinationNode,omitempty"`
	RunData         workflow.RunData `json:"runData,omitempty"`
	StartNode       string           `json:"startNode,omitempty"`
	Input           []workflow.Item  `json:"input,omitempty"`
	// InputIndex is the start node's input Input goes to (see engine.Request.InputIndex).
	InputIndex int `json:"inputIndex,omitempty"`
	// Respond says how a webhook execution answers the caller waiting for it.
	Respond *trigger.Response `json:"respond,omitempty"`
	// Await says what the listener that started the execution waits for (see Service.Outcome);
	// the worker records the run's outcome for it.
	Await nodes.Await `json:"await,omitempty"`
}

// New describes an execution to create.
type New struct {
	// Workflow is the snapshot to run; its ID may be empty for an unsaved workflow.
	Workflow *workflow.Workflow
	// Snapshot is Workflow as JSON when the caller has it already; nil means encode Workflow.
	Snapshot  []byte
	Mode      workflow.Mode
	SessionID string
	// UserID is the user the run acts for (see store.Execution.UserID). Empty means the owner of
	// the saved workflow Workflow.ID, for runs of workflows loaded from the store (trigger,
	// webhook and error runs); the api sets it for manual runs, a retry keeps the original's.
	UserID string
	Start  StartData
	// RetryOf and State make a retry: the run continues from State.
	RetryOf *int64
	State   *engine.State
	// Stored, when set, is called once the execution is stored and before it is queued: what it
	// sends reaches the editor before any message of the run.
	Stored func(e *store.Execution)
	// Idempotency, when set, is the idempotency key claim of the call that starts the run: a
	// run of a saved workflow is recorded on it by the statement that stores it
	// (Idempotency.Recorded), otherwise the caller records it.
	Idempotency *store.IdempotencyClaim
}

// ServiceConfig is what a Service stands on; every field is required.
type ServiceConfig struct {
	// Store keeps executions; Queue carries them to workers; Redis carries stop requests and
	// finished notices.
	Store *store.Store
	Queue *queue.Client
	Redis *redis.Client
}

// validate reports the first missing dependency.
func (c ServiceConfig) validate() error {
	switch {
	case c.Store == nil:
		return errors.New("execution service: Store is required")
	case c.Queue == nil:
		return errors.New("execution service: Queue is required")
	case c.Redis == nil:
		return errors.New("execution service: Redis is required")
	}
	return nil
}

// Service is the api side of executions.
type Service struct {
	cfg ServiceConfig
	// here, when set, runs webhook executions in this process instead of queueing them.
	here *Runner
}

// NewService builds the api-side service on cfg, which it validates.
func NewService(cfg ServiceConfig) (*Service, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Service{cfg: cfg}, nil
}

// RunWebhooksOn makes Create run webhook executions on r, the runner of this very process (the
// embedded default), whenever it has a free slot: the caller's answer then needs no queue
// round trip. Set before the service is used.
func (s *Service) RunWebhooksOn(r *Runner) { s.here = r }

// Create stores an execution (status queued) and queues it; the returned execution has its id.
// The row is committed before the task is queued, so a worker always finds it; should Redis fail
// in between, the execution stays in the database, Create returns it with an error wrapping
// ErrNotQueued, and the reconciler queues it later. A webhook
// execution on a service set to RunWebhooksOn is instead stored already claimed by that runner
// and run at once, when the runner has room (see Runner.createHere).
func (s *Service) Create(ctx context.Context, n New) (*store.Execution, error) {
	snapshot := n.Snapshot
	if snapshot == nil {
		var err error
		if snapshot, err = json.Marshal(n.Workflow); err != nil {
			return nil, fmt.Errorf("encode workflow snapshot: %w", err)
		}
	}
	start, err := json.Marshal(n.Start)
	if err != nil {
		return nil, fmt.Errorf("encode start data: %w", err)
	}
	here := s.here != nil && n.Mode == workflow.ModeWebhook
	userID := n.UserID
	// A saved workflow's run with no user given acts for the workflow's owner: read in the
	// creating statement itself where it can be (store.CreateOwnedExecution).
	ownerInInsert := userID == "" && n.Workflow.ID != "" && n.RetryOf == nil
	if userID == "" && !ownerInInsert {
		if userID, err = WorkflowOwnerID(ctx, s.cfg.Store, n.Workflow.ID); err != nil {
			return nil, err
		}
	}
	e := &store.Execution{Status: workflow.StatusQueued, Mode: n.Mode, SessionID: n.SessionID, UserID: userID,
		WorkflowName: n.Workflow.Name, RetryOf: n.RetryOf}
	if n.Workflow.ID != "" {
		id := n.Workflow.ID
		e.WorkflowID = &id
	}
	data := &store.ExecutionData{WorkflowData: snapshot, StartData: start}
	if n.State != nil {
		if data.Data, err = json.Marshal(n.State); err != nil {
			return nil, fmt.Errorf("encode state: %w", err)
		}
	}
	if here {
		if handled, err := s.here.createHere(ctx, e, data, ownerInInsert, n.Stored); handled {
			if err != nil {
				return nil, err
			}
			return e, nil
		}
	}
	switch {
	case e.RetryOf != nil:
		err = s.cfg.Store.CreateRetry(ctx, e, data)
	case ownerInInsert && n.Idempotency != nil:
		err = s.cfg.Store.CreateOwnedExecutionWithKey(ctx, e, data, n.Idempotency)
	case ownerInInsert:
		err = s.cfg.Store.CreateOwnedExecution(ctx, e, data)
	default:
		err = s.cfg.Store.CreateExecution(ctx, e, data)
	}
	if err != nil {
		return nil, err
	}
	if n.Stored != nil {
		n.Stored(e)
	}
	if err := s.cfg.Queue.EnqueueExecution(ctx, queue.QueueFor(e.Mode), queue.ExecutionRun{ExecutionID: e.ID}); err != nil {
		return e, fmt.Errorf("execution %d: %w: %w", e.ID, ErrNotQueued, err)
	}
	return e, nil
}

// ErrNotQueued is Create's error when the execution was stored but could not be queued (Redis
// unreachable): the execution is returned with it, and the reconciler queues it once Redis is
// back, so it runs later. Callers must not create it again.
var ErrNotQueued = errors.New("stored but not queued")

// RetryAfter is what callers are told to wait (Retry-After) when an answer cannot be given now
// because the database or Redis is unreachable, or an execution's outcome is not known yet.
const RetryAfter = 5 * time.Second

// ErrNotStoppable means the execution has already finished.
var ErrNotStoppable = errors.New("execution is not running or waiting")

// stopMarkTTL is how long a stop request waits for a run of its execution to start.
const stopMarkTTL = time.Minute

// Stop cancels an execution wherever it is: a queued or waiting one is marked canceled at
// once; a running one is told to stop through Redis and the worker running it cancels it
// between nodes or inside a script. It returns the execution once it has stopped, or after
// timeout with whatever status it has then.
func (s *Service) Stop(ctx context.Context, id int64, timeout time.Duration) (*store.Execution, error) {
	e, err := s.cfg.Store.GetExecution(ctx, id)
	if err != nil {
		return nil, err
	}
	switch e.Status {
	case workflow.StatusNew, workflow.StatusQueued, workflow.StatusWaiting:
		ok, err := s.cfg.Store.TransitionExecution(ctx, id, workflow.StatusCanceled, workflow.StatusNew, workflow.StatusQueued, workflow.StatusWaiting)
		if err != nil {
			return nil, err
		}
		if ok {
			s.announceFinished(ctx, id)
			return s.cfg.Store.GetExecution(ctx, id)
		}
		return s.Stop(ctx, id, timeout) // it moved on meanwhile: look again
	case workflow.StatusRunning:
	default:
		return nil, ErrNotStoppable
	}
	done := s.subscribeFinished(ctx, id)
	defer done.close()
	if err := s.cfg.Redis.Set(ctx, bus.KeyStopPrefix+IDString(id), "1", stopMarkTTL).Err(); err != nil {
		return nil, fmt.Errorf("mark execution %d to stop: %w", id, err)
	}
	if err := bus.StopRequests.Publish(ctx, s.cfg.Redis, id); err != nil {
		return nil, fmt.Errorf("ask workers to stop execution %d: %w", id, err)
	}
	// A running execution whose worker is gone holds an expired lease: nobody will answer, so
	// cancel it here.
	if e.LeaseExpiresAt != nil && e.LeaseExpiresAt.Before(time.Now()) {
		if _, err := s.cfg.Store.TransitionExecution(ctx, id, workflow.StatusCanceled, workflow.StatusRunning); err != nil {
			return nil, err
		}
	}
	stopped, err := done.wait(ctx, s.cfg.Store, id, timeout)
	if err == nil && stopped.Status == workflow.StatusWaiting {
		// The run reached a Wait node before the worker heard the request: cancel the wait.
		return s.Stop(ctx, id, timeout)
	}
	return stopped, err
}

// Wait returns the execution once it has finished (or is waiting), or after timeout. Retries
// and runs asked to stop announce their end, so Wait answers at once for those; for any other
// execution it looks every second.
func (s *Service) Wait(ctx context.Context, id int64, timeout time.Duration) (*store.Execution, error) {
	done := s.subscribeFinished(ctx, id)
	defer done.close()
	return done.wait(ctx, s.cfg.Store, id, timeout)
}

func (s *Service) announceFinished(ctx context.Context, id int64) {
	_ = bus.Finished.Publish(ctx, s.cfg.Redis, id)
}

// IDString renders an execution id as the API and push messages carry it.
func IDString(id int64) string { return strconv.FormatInt(id, 10) }
