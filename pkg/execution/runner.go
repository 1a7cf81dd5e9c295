package execution

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/metrics"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

var (
	errStopRequested = errors.New("stop requested")
	errLeaseLost     = errors.New("lease lost to another worker")
)

// RunnerConfig is what a Runner stands on: its dependencies (all required but Host, whose zero
// value reaches no files and uses the default HTTP client) and the instance settings it runs
// executions under.
type RunnerConfig struct {
	Store     *store.Store
	Redis     *redis.Client
	Queue     *queue.Client
	Publisher *push.Publisher
	Metrics   *metrics.Metrics
	// Nodes is the node registry executions run with and Eval their expression evaluator, both
	// built once per process.
	Nodes *nodes.Registry
	Eval  *expr.Evaluator
	// Host is what nodes may reach: the files folder and the egress-checked HTTP client.
	Host nodes.Host
	// Env is what $env shows expressions (config.NodeEnvironment); nil shows nothing.
	Env map[string]string
	Log *slog.Logger

	// WorkerID names this worker in execution leases; required.
	WorkerID string
	// EncryptionKey decrypts the credentials nodes ask for; required.
	EncryptionKey string
	// LeaseTTL is how long a claim on a running execution lasts without renewal. Default 30s.
	LeaseTTL time.Duration
	// Concurrency is how many executions started in this process run at once. Default 10.
	Concurrency int
	// ProductionLimit is how many non-manual executions run at once across all workers; 0 or
	// less (the setting's -1) means no limit.
	ProductionLimit int
	// ShutdownTimeout is how long Stop waits for executions started in this process. Default 30s.
	ShutdownTimeout time.Duration
	// Timezone is the instance's default time zone for trigger nodes. Default America/New_York.
	Timezone string
	// PublicURL is the editor's address, ending in a slash, for links in error workflows.
	PublicURL string
	// Saving is what finished executions keep unless their workflow says otherwise.
	Saving Saving
	// Timeouts are the instance's default and maximum execution time limits.
	Timeouts Timeouts
	// MaxTakeovers is how many times an execution may be taken over from a worker that died
	// running it; the claim that would take it over once more ends it crashed instead. Default 3.
	MaxTakeovers int
}

// withDefaults fills the settings left zero.
func (c RunnerConfig) withDefaults() RunnerConfig {
	c.LeaseTTL = cmp.Or(c.LeaseTTL, 30*time.Second)
	c.Concurrency = cmp.Or(c.Concurrency, 10)
	c.ShutdownTimeout = cmp.Or(c.ShutdownTimeout, 30*time.Second)
	c.Timezone = cmp.Or(c.Timezone, "America/New_York")
	c.MaxTakeovers = cmp.Or(c.MaxTakeovers, 3)
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c
}

// validate reports the first missing dependency or impossible setting.
func (c RunnerConfig) validate() error {
	switch {
	case c.Store == nil, c.Redis == nil, c.Queue == nil, c.Publisher == nil, c.Metrics == nil, c.Nodes == nil, c.Eval == nil:
		return errors.New("execution runner: Store, Redis, Queue, Publisher, Metrics, Nodes and Eval are required")
	case c.WorkerID == "":
		return errors.New("execution runner: WorkerID is required")
	case c.EncryptionKey == "":
		return errors.New("execution runner: EncryptionKey is required")
	case c.LeaseTTL < 0, c.ShutdownTimeout < 0:
		return errors.New("execution runner: LeaseTTL and ShutdownTimeout must not be negative")
	case c.Concurrency < 0:
		return errors.New("execution runner: Concurrency must not be negative")
	case c.MaxTakeovers < 0:
		return errors.New("execution runner: MaxTakeovers must not be negative")
	}
	if _, err := time.LoadLocation(c.Timezone); err != nil {
		return fmt.Errorf("execution runner: Timezone: %w", err)
	}
	return nil
}

// Runner runs executions on a worker.
type Runner struct {
	cfg RunnerConfig
	// svc creates the executions a run starts (error workflows, trigger runs).
	svc *Service
	// base is the engine configuration; each run adds its own hooks, credentials, workflow
	// loader and sub-workflow records, those of the user it acts for.
	base engine.Options
	subs *subWorkflows
	// cipher decrypts the credentials nodes ask for.
	cipher *credential.Cipher
	// tokens keeps OAuth2 tokens usable (fetch, refresh once); nil without an HTTP client.
	tokens *credential.Tokens
	log    *slog.Logger

	mu sync.Mutex
	// running holds the cancel functions of the runs of each execution in this process: usually
	// one, two while a task queued again for a stalled run meets the run itself.
	running map[int64][]*context.CancelCauseFunc
	// early holds stop requests heard for executions this process did not run yet (id → when),
	// so a run started just after its execution was stored sees a stop asked in between
	// without asking Redis for the stop mark. Entries last as long as the mark (a minute).
	early     map[int64]time.Time
	snapshots snapshots
	// slots enforces the production concurrency limit; nil when there is none.
	slots *semaphore
	// here runs executions started in this process without the queue (see local.go).
	here *localRuns
	// answered, when set, hands webhook answers to a request waiting in this process; it reports
	// whether one was waiting (otherwise the answer goes through Redis).
	answered func(WebhookAnswer) bool

	stops    *bus.Subscriber
	stopOnce sync.Once
}

// NewRunner builds the engine a worker runs executions with, on cfg (defaults applied, then
// validated).
func NewRunner(cfg RunnerConfig) (*Runner, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	r := &Runner{cfg: cfg, log: cfg.Log.With("component", "runner"), running: map[int64][]*context.CancelCauseFunc{}}
	var err error
	if r.svc, err = NewService(ServiceConfig{Store: cfg.Store, Queue: cfg.Queue, Redis: cfg.Redis}); err != nil {
		return nil, err
	}
	r.base = engine.Options{
		Registry:  cfg.Nodes,
		Evaluator: cfg.Eval,
		Logger:    r.log,
		Env:       cfg.Env,
		Host:      cfg.Host,
	}
	r.subs = &subWorkflows{r: r, active: map[string]*subRun{}}
	if r.cipher, err = credential.NewCipher(cfg.EncryptionKey); err != nil {
		return nil, err
	}
	if cfg.Host.HTTP != nil {
		if r.tokens, err = credential.NewTokens(credential.TokensConfig{Store: cfg.Store, Cipher: r.cipher, HTTP: cfg.Host.HTTP}); err != nil {
			return nil, err
		}
	}
	if _, err := engine.New(r.base); err != nil {
		return nil, err
	}
	if cfg.ProductionLimit > 0 {
		r.slots = newSemaphore(cfg.Redis, bus.KeyProductionSlots, cfg.ProductionLimit, cfg.LeaseTTL)
	}
	r.here = newLocalRuns(cfg.Concurrency, cfg.ShutdownTimeout)
	r.stops = bus.StopRequests.Subscribe(cfg.Redis, func(id int64) { r.cancel(id, errStopRequested) },
		bus.SubscriberConfig{Logger: r.log})
	return r, nil
}

// Start listens for stop requests.
func (r *Runner) Start(ctx context.Context) error {
	return r.stops.Start(ctx)
}

// Stop lets executions started in this process finish within the shutdown timeout (the rest
// release their lease for another worker), then ends the stop-request listener. Safe to call
// twice.
func (r *Runner) Stop() {
	r.stopOnce.Do(func() {
		r.here.stop()
		r.stops.Stop()
	})
}

// earlyStops bounds the stop requests kept for executions not running here; past it expired
// and then arbitrary ones are dropped (a run claimed from the queue still finds the stop mark
// in Redis).
const earlyStops = 10000

func (r *Runner) cancel(id int64, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	runs := r.running[id]
	for _, c := range runs {
		(*c)(cause)
	}
	if len(runs) > 0 || !errors.Is(cause, errStopRequested) {
		return
	}
	now := time.Now()
	if r.early == nil {
		r.early = map[int64]time.Time{}
	}
	if len(r.early) >= earlyStops {
		for k, at := range r.early {
			if now.Sub(at) > stopMarkTTL || len(r.early) >= earlyStops {
				delete(r.early, k)
			}
		}
	}
	r.early[id] = now
}

// track makes stop requests for id reach c, including one heard in the last minute before
// id ran here; the returned function ends the tracking.
func (r *Runner) track(id int64, c context.CancelCauseFunc) func() {
	r.mu.Lock()
	entry := &c
	r.running[id] = append(r.running[id], entry)
	if at, ok := r.early[id]; ok {
		delete(r.early, id)
		if time.Since(at) <= stopMarkTTL {
			c(errStopRequested)
		}
	}
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		runs := slices.DeleteFunc(r.running[id], func(e *context.CancelCauseFunc) bool { return e == entry })
		if len(runs) == 0 {
			delete(r.running, id)
		} else {
			r.running[id] = runs
		}
		r.mu.Unlock()
	}
}

// tracked is a context for a run of execution id that stop requests for it cancel; end cancels
// it and ends the tracking.
func (r *Runner) tracked(parent context.Context, id int64) (ctx context.Context, cancel context.CancelCauseFunc, end func()) {
	ctx, cancel = context.WithCancelCause(parent)
	untrack := r.track(id, cancel)
	return ctx, cancel, func() {
		untrack()
		cancel(nil)
	}
}

// Handle is the execution:run task handler. It is idempotent: an execution some run holds
// (this process's included), or one that already ended, is left alone. Waiting for a slot or
// for the database hands the task back to the queue under its own id (queue.Defer).
func (r *Runner) Handle(ctx context.Context, payload []byte) error {
	var p queue.ExecutionRun
	if err := queue.Decode(queue.KindExecutionRun, payload, &p); err != nil {
		return err
	}
	release, err := r.here.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	token := r.newClaimToken()
	holder := ""
	if r.slots != nil {
		limited, err := r.countsAgainstLimit(ctx, p.ExecutionID)
		if err != nil {
			return err
		}
		if limited {
			ok, err := r.slots.Acquire(ctx, token)
			if err != nil {
				return err
			}
			if !ok {
				return queue.Defer(SlotRetryDelay, "every production slot is taken")
			}
			holder = token
			defer func() { _ = r.slots.Release(context.WithoutCancel(ctx), token) }()
		}
	}
	// Listening for a stop before claiming means a stop asked once the execution runs reaches
	// this run; one asked before found it pending and canceled it in the database.
	runCtx, cancel, end := r.tracked(ctx, p.ExecutionID)
	defer end()
	c, err := r.cfg.Store.ClaimExecution(ctx, p.ExecutionID, token, r.cfg.LeaseTTL)
	if errors.Is(err, store.ErrNotClaimable) {
		return nil
	}
	if err != nil {
		// A passing database failure (such as a full connection table) must not strand the
		// execution until the reconciler's next pass: try again shortly.
		r.log.Warn("claim execution; trying again", "execution", p.ExecutionID, "err", err)
		return queue.Defer(ClaimRetryDelay, "the claim failed: "+err.Error())
	}
	if c.TakenOver {
		r.cfg.Metrics.TookOver()
	}
	if c.Execution.Takeovers >= r.cfg.MaxTakeovers {
		return r.crashPoisonPill(ctx, c.Execution, c.Data)
	}
	// An execution that had started before may have been asked to stop while nobody ran it.
	return r.run(ctx, runCtx, cancel, c.Execution, c.Data, c.Resumed, holder)
}

// SlotRetryDelay is how long an execution over the production concurrency limit waits in the
// queue before it tries again.
const SlotRetryDelay = 500 * time.Millisecond

// ClaimRetryDelay is how long an execution whose claim failed on a database error waits in the
// queue before it tries again.
const ClaimRetryDelay = 200 * time.Millisecond

// countsAgainstLimit tells whether an execution needs a production slot: every pending one but
// manual runs.
func (r *Runner) countsAgainstLimit(ctx context.Context, id int64) (bool, error) {
	e, err := r.cfg.Store.GetExecution(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return e.Mode != workflow.ModeManual && slices.Contains(workflow.PendingStatuses, e.Status), nil
}

// run executes a claimed execution (e.LeaseOwner is the claim token) under runCtx, which cancel
// ends and which is already tracked for stop requests; checkStop says to look for a stop request
// that was only left as a mark; slot is the production slot holder to keep renewing, if any.
func (r *Runner) run(taskCtx, runCtx context.Context, cancel context.CancelCauseFunc, e *store.Execution, d *store.ExecutionData, checkStop bool, slot string) error {
	id := e.ID
	wf, err := r.snapshots.parse(d.WorkflowData)
	if err != nil {
		return r.fail(taskCtx, e, fmt.Errorf("The stored workflow cannot be read: %w", err))
	}
	if checkStop {
		if n, err := r.cfg.Redis.Exists(taskCtx, bus.KeyStopPrefix+IDString(id)).Result(); err == nil && n > 0 {
			cancel(errStopRequested)
		}
	}
	if limit := r.cfg.Timeouts.of(wf.Settings); limit > 0 {
		var stop context.CancelFunc
		runCtx, stop = context.WithTimeout(runCtx, limit)
		defer stop()
	}
	lease := r.keepLease(runCtx, e, cancel, slot)
	defer lease.end()

	hooks := r.hooks(e, wf)
	hooks.lease = lease
	// The start data is read once, for the answer and for the run.
	var start StartData
	var startErr error
	if len(d.StartData) > 0 {
		if err := json.Unmarshal(d.StartData, &start); err != nil {
			startErr = fmt.Errorf("the start data cannot be read: %w", err)
		}
	}
	if startErr == nil {
		hooks.answer = r.answererOf(id, start.Respond)
		hooks.awaited = r.awaiterOf(id, start.Await)
	}
	// A node's answer that no final write took still goes out.
	defer hooks.answer.flush(taskCtx)
	hooks.started(taskCtx)
	res, err := r.execute(runCtx, e, d, wf, hooks, &start, startErr)
	if err != nil {
		hooks.answer.flush(taskCtx)
		return r.fail(taskCtx, e, err)
	}
	switch cause := context.Cause(runCtx); {
	case errors.Is(cause, errLeaseLost):
		r.log.Warn("execution taken over by another worker", "execution", id)
		return nil
	case taskCtx.Err() != nil:
		// The worker is shutting down: hand the execution back; its last checkpoint lets the
		// next worker continue without re-running finished nodes.
		if err := r.cfg.Store.ReleaseLease(context.WithoutCancel(taskCtx), id, e.LeaseOwner); err != nil {
			r.log.Warn("release lease", "execution", id, "err", err)
		}
		return taskCtx.Err()
	}
	// A node interrupted by a stop or the time limit reports its own error; the execution's
	// outcome is the stop or the timeout.
	hooks.stopAsked = errors.Is(context.Cause(runCtx), errStopRequested)
	switch {
	case hooks.stopAsked:
		res.Status = workflow.StatusCanceled
		setRunError(res, "ExecutionCancelledError", "The execution was canceled")
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		res.Status = workflow.StatusError
		setRunError(res, "WorkflowOperationError", fmt.Sprintf("The execution timed out after %v", r.cfg.Timeouts.of(wf.Settings)))
	}
	return r.finish(context.WithoutCancel(taskCtx), e, wf, res, hooks)
}

// execute starts the run from its start data (start, or startErr when it could not be read),
// or continues it from its saved state.
func (r *Runner) execute(ctx context.Context, e *store.Execution, d *store.ExecutionData, wf *workflow.Workflow, h *hooks, start *StartData, startErr error) (*engine.Result, error) {
	idStr := IDString(e.ID)
	if len(d.Data) > 0 && string(d.Data) != "null" {
		var state engine.State
		if err := json.Unmarshal(d.Data, &state); err != nil {
			return nil, fmt.Errorf("the saved execution state cannot be read: %w", err)
		}
		eng, err := r.engineWith(h)
		if err != nil {
			return nil, err
		}
		return eng.Resume(ctx, wf, &state, e.Mode, idStr)
	}
	if startErr != nil {
		return nil, startErr
	}
	eng, err := r.engineWith(h)
	if err != nil {
		return nil, err
	}
	res, err := eng.Run(ctx, engine.Request{
		Workflow: wf, Mode: e.Mode, ExecutionID: idStr,
		StartNode: start.StartNode, Input: start.Input, InputIndex: start.InputIndex, DestinationNode: start.DestinationNode,
		StartNodes: start.StartNodes, RunData: start.RunData,
	})
	var se *engine.StartError
	if errors.As(err, &se) {
		return nil, se
	}
	return res, err
}

// engineWith is an engine that reports to h.
func (r *Runner) engineWith(h *hooks) (*engine.Engine, error) {
	opts := r.base
	// Whatever the engine and its nodes log names the execution and workflow it belongs to.
	opts.Logger = r.log.With("execution", h.id, "workflow", h.wf.ID)
	opts.Hooks = []engine.Hook{h}
	opts.Params = r.snapshots.paramsOf(h.wf)
	opts.Credentials, opts.Workflows, opts.SubWorkflows = r.actingFor(h.e.UserID)
	if h.answer != nil {
		opts.Hooks = append(opts.Hooks, h.answer)
	}
	if h.awaited != nil {
		opts.Hooks = append(opts.Hooks, h.awaited)
	}
	return engine.New(opts)
}

// actingFor is what a run acting for userID uses: that user's credentials, the stored
// workflows that user may run, and sub-workflow records that start from that user.
func (r *Runner) actingFor(userID string) (nodes.CredentialsFunc, nodes.WorkflowLoader, engine.SubWorkflowRecorder) {
	creds := credential.ForUserID(r.cfg.Store, r.cipher, userID)
	if r.tokens != nil {
		creds = r.tokens.ForUserID(userID)
	}
	return creds, storeLoader{s: r.cfg.Store, userID: userID}, subWorkflowsFor{s: r.subs, userID: userID}
}

// workflowCredentials are the credentials of saved workflow workflowID's owner (trigger runs).
func (r *Runner) workflowCredentials(workflowID string) nodes.CredentialsFunc {
	if r.tokens != nil {
		return r.tokens.ForWorkflow(workflowID)
	}
	return credential.ForWorkflow(r.cfg.Store, r.cipher, workflowID)
}

// setRunError replaces the run's error, keeping the node it happened in.
func setRunError(res *engine.Result, name, msg string) {
	ee := &workflow.ExecutionError{Name: name, Message: msg, Timestamp: time.Now().UnixMilli()}
	if prev := res.State.ResultData.Error; prev != nil {
		ee.Node = prev.Node
	}
	res.State.ResultData.Error = ee
}
