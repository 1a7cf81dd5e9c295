// Package listener runs the long-lived listener triggers (nodes.Type.Listen: MQTT and other
// subscriptions) of active workflows. Every scheduler process runs a Manager; for each listener
// node of an active workflow exactly one of them holds a lease in Redis and runs the
// subscription, the others wait to take the lease over should its holder die.
package listener

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/trigger"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// Lease timings. A holder renews every LeaseRenew; the lease lapses LeaseTTL after the last
// renewal, so a dead holder's listener is taken over within about LeaseTTL+LeaseRenew.
const (
	LeaseTTL   = 5 * time.Second
	LeaseRenew = time.Second
)

// retryDelay is how long a listener that failed waits before subscribing again.
const retryDelay = 5 * time.Second

// The causes that end a listener's context at once (see nodes.ErrStopping for the other).
var (
	errLeaseLost = errors.New("listener lease lost")
	errAbandoned = errors.New("listener abandoned")
)

// Config is what a Manager stands on.
type Config struct {
	// Store, Redis, Service (stores and queues the executions), Nodes and Eval are required.
	Store   *store.Store
	Redis   *redis.Client
	Service *execution.Service
	Nodes   *nodes.Registry
	Eval    *expr.Evaluator
	// Cipher decrypts the credentials listeners use, those the workflow's owner may see.
	Cipher *credential.Cipher
	// Credentials, when set, replaces that lookup (tests).
	Credentials func(workflowID string) nodes.CredentialsFunc
	// Host is what listeners may reach (the egress policy).
	Host nodes.Host
	// Log may be nil (discarded).
	Log *slog.Logger
	// TTL and Renew default to LeaseTTL and LeaseRenew.
	TTL, Renew time.Duration
}

// Manager starts and stops the listeners of active workflows as they are activated, changed
// and deactivated.
type Manager struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	running map[string]*holder // workflow id + "\x00" + node → its listener

	wake chan struct{}
	sub  *bus.Subscriber
	// stopping counts the holders of changed workflows still stopping.
	stopping sync.WaitGroup
	// finished hears the ends of runs listeners wait for (see run.Outcome).
	finished *bus.Subscriber
	waiters  waiters
	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// New builds a Manager on cfg.
func New(cfg Config) (*Manager, error) {
	if cfg.Store == nil || cfg.Redis == nil || cfg.Service == nil || cfg.Nodes == nil || cfg.Eval == nil {
		return nil, errors.New("listener: Store, Redis, Service, Nodes and Eval are required")
	}
	cfg.TTL = cmp.Or(cfg.TTL, LeaseTTL)
	cfg.Renew = cmp.Or(cfg.Renew, LeaseRenew)
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Manager{cfg: cfg, log: cfg.Log.With("component", "listeners"), running: map[string]*holder{},
		wake: make(chan struct{}, 1)}, nil
}

// Start subscribes to activation notices and starts the listeners of the active workflows.
func (m *Manager) Start(ctx context.Context) error {
	m.sub = bus.Activations.Subscribe(m.cfg.Redis, func(string) {
		select {
		case m.wake <- struct{}{}:
		default:
		}
	}, bus.SubscriberConfig{Logger: m.log})
	if err := m.sub.Start(ctx); err != nil {
		return err
	}
	m.finished = bus.Finished.Subscribe(m.cfg.Redis, m.waiters.notice, bus.SubscriberConfig{Logger: m.log})
	if err := m.finished.Start(ctx); err != nil {
		m.sub.Stop()
		return err
	}
	ctx, m.cancel = context.WithCancel(context.WithoutCancel(ctx))
	m.done = make(chan struct{})
	go m.loop(ctx)
	return nil
}

// Stop ends every listener and releases its lease, so another scheduler takes it at once. Safe
// to call twice, and before Start.
func (m *Manager) Stop() { m.stop(true) }

func (m *Manager) stop(release bool) {
	m.stopOnce.Do(func() {
		if m.cancel == nil {
			return
		}
		// Holders learn whether to release before their context ends.
		m.mu.Lock()
		for _, h := range m.running {
			h.setAbandon(!release)
		}
		m.mu.Unlock()
		m.cancel()
		m.sub.Stop()
		<-m.done
		m.mu.Lock()
		hs := m.running
		m.running = map[string]*holder{}
		m.mu.Unlock()
		for _, h := range hs {
			h.stop(release)
		}
		m.stopping.Wait()
		m.finished.Stop()
	})
}

func (m *Manager) loop(ctx context.Context) {
	defer close(m.done)
	t := time.NewTicker(trigger.CheckInterval)
	defer t.Stop()
	for {
		if err := m.reload(ctx); err != nil && ctx.Err() == nil {
			m.log.Warn("load active workflows", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-m.wake:
		case <-t.C:
		}
	}
}

// reload starts the listeners of workflows activated or changed since the last look and stops
// those of workflows deactivated or changed.
func (m *Manager) reload(ctx context.Context) error {
	versions, err := m.cfg.Store.ActiveWorkflowVersions(ctx)
	if err != nil {
		return err
	}
	m.mu.Lock()
	var stale []*holder
	var changed []string
	have := map[string]bool{}
	for key, h := range m.running {
		if versions[h.workflowID] != h.version {
			stale = append(stale, h)
			delete(m.running, key)
			continue
		}
		have[h.workflowID] = true
	}
	m.mu.Unlock()
	// A stopped listener may take a while to finish its work in flight (nodes.ErrStopping):
	// the others are not held up meanwhile, and a new version competes for the lease at once.
	for _, h := range stale {
		m.stopping.Go(func() { h.stop(true) })
	}
	for id := range versions {
		if !have[id] {
			changed = append(changed, id)
		}
	}
	slices.Sort(changed)
	for _, id := range changed {
		if ctx.Err() != nil {
			return nil
		}
		m.startWorkflow(ctx, id, versions[id])
	}
	return nil
}

// startWorkflow starts a holder for each enabled listener node of the workflow. A workflow with
// none is looked at again only when its version changes.
func (m *Manager) startWorkflow(ctx context.Context, id, version string) {
	m.mu.Lock()
	if _, seen := m.running[id+"\x00"]; seen {
		m.mu.Unlock()
		return
	}
	m.mu.Unlock()
	doc, err := m.cfg.Store.WorkflowDocument(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			m.log.Warn("read workflow", "workflow", id, "err", err)
		}
		return
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		m.log.Warn("read workflow", "workflow", id, "err", err)
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// A placeholder remembers a workflow with no listener at this version.
	m.running[id+"\x00"] = &holder{workflowID: id, version: version}
	for i := range wf.Nodes {
		n := &wf.Nodes[i]
		if n.Disabled {
			continue
		}
		t, ok := m.cfg.Nodes.Get(n.Type, n.TypeVersion)
		if !ok || t.Listen == nil {
			continue
		}
		h := &holder{m: m, workflowID: id, version: version, wf: wf, node: n, typ: t,
			key: bus.KeyListenerLeasePrefix + id + ":" + n.Name, token: store.NewUUID()}
		hctx, cancel := context.WithCancel(ctx)
		h.cancel, h.done = cancel, make(chan struct{})
		m.running[id+"\x00"+n.Name] = h
		go h.run(hctx)
	}
}

// holder competes for one listener's lease and runs the listener while it holds it.
type holder struct {
	m                   *Manager
	workflowID, version string
	wf                  *workflow.Workflow
	node                *workflow.Node
	typ                 *nodes.Type
	key, token          string

	cancel context.CancelFunc
	done   chan struct{}
	// abandon makes stop leave the lease to lapse instead of releasing it.
	abandon bool
	// failed is set while the workflow shows this listener's last failure.
	failed atomic.Bool
	mu     sync.Mutex
}

// stop ends the listener; release gives the lease back at once.
func (h *holder) stop(release bool) {
	if h.cancel == nil {
		return
	}
	h.setAbandon(!release)
	h.cancel()
	<-h.done
}

func (h *holder) setAbandon(v bool) {
	h.mu.Lock()
	h.abandon = v
	h.mu.Unlock()
}

var (
	// renewScript extends the lease only while it still holds this holder's token.
	renewScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`)
	// releaseScript deletes the lease only while it still holds this holder's token.
	releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`)
)

func (h *holder) run(ctx context.Context) {
	defer close(h.done)
	rdb := h.m.cfg.Redis
	for ctx.Err() == nil {
		ok, err := rdb.SetNX(ctx, h.key, h.token, h.m.cfg.TTL).Result()
		if err != nil && ctx.Err() == nil {
			h.m.log.Warn("take listener lease", "workflow", h.workflowID, "node", h.node.Name, "err", err)
		}
		if ok {
			h.hold(ctx)
			continue
		}
		select {
		case <-ctx.Done():
		case <-time.After(h.m.cfg.Renew):
		}
	}
}

// hold runs the listener while the lease is renewed; it returns once the lease is lost or ctx
// ends, releasing the lease in the latter case unless abandoned.
func (h *holder) hold(ctx context.Context) {
	rdb := h.m.cfg.Redis
	// The listener's context ends with a cause that tells it whether it may finish the work
	// in flight: nodes.ErrStopping when the holder is stopped (not abandoned), errLeaseLost or
	// errAbandoned otherwise.
	lctx, lost := context.WithCancelCause(context.WithoutCancel(ctx))
	defer lost(nil)
	stopWatch := context.AfterFunc(ctx, func() {
		h.mu.Lock()
		abandon := h.abandon
		h.mu.Unlock()
		if abandon {
			lost(errAbandoned)
		} else {
			lost(nodes.ErrStopping)
		}
	})
	defer stopWatch()
	h.m.log.Info("listener started", "workflow", h.workflowID, "node", h.node.Name)
	go func() {
		t := time.NewTicker(h.m.cfg.Renew)
		defer t.Stop()
		for {
			select {
			case <-lctx.Done():
				return
			case <-t.C:
			}
			n, err := renewScript.Run(lctx, rdb, []string{h.key}, h.token, h.m.cfg.TTL.Milliseconds()).Int()
			if err == nil && n == 0 {
				h.m.log.Warn("listener lease lost", "workflow", h.workflowID, "node", h.node.Name)
				lost(errLeaseLost)
				return
			}
		}
	}()
	for lctx.Err() == nil {
		err := h.typ.Listen(lctx, h.execution(), func(items []workflow.Item, await nodes.Await) (nodes.Run, error) {
			return h.emit(lctx, items, await)
		})
		if lctx.Err() != nil {
			break
		}
		if err == nil {
			err = errors.New("the listener stopped")
		}
		h.m.log.Warn("listener failed", "workflow", h.workflowID, "node", h.node.Name, "err", err)
		_ = trigger.SetError(context.WithoutCancel(ctx), rdb, h.workflowID, fmt.Sprintf("Node %q: %v", h.node.Name, err))
		h.failed.Store(true)
		select {
		case <-lctx.Done():
		case <-time.After(retryDelay):
		}
	}
	lost(nil)
	h.mu.Lock()
	abandon := h.abandon
	h.mu.Unlock()
	if !abandon {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		releaseScript.Run(c, rdb, []string{h.key}, h.token)
		cancel()
	}
}

// emit turns one message into one execution (stored, then queued). It refuses once the lease
// is no longer this holder's, so a holder that was paused past its lease never fires
// alongside the one that took over. With an await it returns the run to wait for.
func (h *holder) emit(ctx context.Context, items []workflow.Item, await nodes.Await) (nodes.Run, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if v, err := h.m.cfg.Redis.Get(c, h.key).Result(); err != nil || v != h.token {
		return nil, fmt.Errorf("listener lease lost: %v", cmp.Or[error](err, errors.New("held by another scheduler")))
	}
	e, err := h.m.cfg.Service.Create(c, execution.New{Workflow: h.wf, Mode: workflow.ModeTrigger,
		Start: execution.StartData{StartNode: h.node.Name, Input: items, Await: await}})
	if errors.Is(err, execution.ErrNotQueued) {
		// Stored: the reconciler queues it.
		err = nil
	}
	if err != nil {
		return nil, err
	}
	if h.failed.CompareAndSwap(true, false) {
		// Listening again: the workflow no longer shows the failure.
		_ = trigger.ClearError(c, h.m.cfg.Redis, h.workflowID)
	}
	if await == nodes.AwaitNone {
		return nil, nil
	}
	return run{m: h.m, id: e.ID}, nil
}

// execution is the node context a listener runs in: its parameters with defaults, the
// workflow's credentials and the instance's egress policy.
func (h *holder) execution() *nodes.Execution {
	resolved := *h.node
	if params, err := workflow.ResolveParameters(h.typ.Description.Properties, h.node.Parameters, h.node.TypeVersion); err == nil {
		resolved.Parameters = params
	}
	var creds nodes.CredentialsFunc
	if h.m.cfg.Credentials != nil {
		creds = h.m.cfg.Credentials(h.workflowID)
	} else if h.m.cfg.Cipher != nil {
		creds = credential.ForWorkflow(h.m.cfg.Store, h.m.cfg.Cipher, h.workflowID)
	}
	wf := h.wf
	return nodes.NewExecution(nodes.ExecutionConfig{Node: &resolved, Type: h.typ, Mode: workflow.ModeTrigger,
		Evaluator: h.m.cfg.Eval, Logger: h.m.log.With("node", h.node.Name), Credentials: creds,
		Expr: expr.Context{Workflow: expr.WorkflowInfo{ID: wf.ID, Name: wf.Name, Active: wf.Active},
			Timezone: wf.Settings.Timezone(), Execution: expr.ExecutionInfo{Mode: workflow.ModeTrigger}},
		Flow: nodes.FlowConfig{Now: time.Now}, Host: h.m.cfg.Host})
}

// Holding reports whether this manager runs the listener of workflow id's node now.
func (m *Manager) Holding(workflowID, node string) bool {
	m.mu.Lock()
	h := m.running[workflowID+"\x00"+node]
	m.mu.Unlock()
	if h == nil {
		return false
	}
	v, err := m.cfg.Redis.Get(context.Background(), h.key).Result()
	return err == nil && v == h.token
}

// Kill stops every listener without releasing the leases, as a crashed process leaves them:
// another manager takes them over only once they lapse.
func (m *Manager) Kill() { m.stop(false) }
