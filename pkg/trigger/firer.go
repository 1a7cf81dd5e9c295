package trigger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/metrics"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/queue"
	"github.com/flowmill/flowmill/pkg/recurrence"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// CheckInterval is how often the scheduler compares the active workflows with what it fires,
// besides reacting to activation notices at once: a lost notice delays a change by at most this.
const CheckInterval = time.Second

// LateLimit is how late a tick may fire. The scheduler wakes for each tick; one it finds older
// than this (the process was paused, or no scheduler ran) is skipped, and at most one tick per
// trigger fires per wake, so missed ticks never fire in a burst.
const LateLimit = 30 * time.Second

// Firer fires the schedule and poll triggers of active workflows: at each tick it queues a
// trigger:fire task whose id names the workflow, node and tick, so any number of schedulers
// queue each tick once.
type Firer struct {
	cfg FirerConfig
	reg *nodes.Registry
	ev  *expr.Evaluator
	log *slog.Logger
	// Now is the clock; tests replace it before Start.
	Now func() time.Time

	mu       sync.Mutex
	versions map[string]string // workflow id → version id loaded
	ticks    map[string][]*tick

	wake     chan struct{}
	sub      *bus.Subscriber
	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// tick is one rule of one trigger node.
type tick struct {
	workflowID, node string
	rule             recurrence.Rule
	loc              *time.Location
	// anchor is when the workflow was activated: interval rules count from it.
	anchor time.Time
	next   time.Time
	last   time.Time
}

// FirerConfig is what a Firer stands on.
type FirerConfig struct {
	// Store, Redis (activation notices, trigger errors) and Queue are required.
	Store *store.Store
	Redis *redis.Client
	Queue *queue.Client
	// Nodes is the node registry trigger nodes are read with and Eval the evaluator of their
	// parameters, both required: the instance's, built once per process. Tests pass a registry
	// with node types of their own; the workers running those workflows need the same types.
	Nodes *nodes.Registry
	Eval  *expr.Evaluator
	// Timezone is the instance's default time zone for rules of workflows that set none.
	// Default America/New_York.
	Timezone string
	// Log may be nil (discarded).
	Log *slog.Logger
	// Metrics counts the ticks fired and skipped; nil counts nothing.
	Metrics *metrics.Metrics
}

func (c FirerConfig) withDefaults() FirerConfig {
	c.Timezone = cmp.Or(c.Timezone, "America/New_York")
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	return c
}

func (c FirerConfig) validate() error {
	if c.Store == nil || c.Redis == nil || c.Queue == nil || c.Nodes == nil || c.Eval == nil {
		return errors.New("trigger firer: Store, Redis, Queue, Nodes and Eval are required")
	}
	if _, err := time.LoadLocation(c.Timezone); err != nil {
		return fmt.Errorf("trigger firer: Timezone: %w", err)
	}
	return nil
}

// NewFirer builds the trigger firer on cfg (defaults applied, then validated).
func NewFirer(cfg FirerConfig) (*Firer, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Firer{cfg: cfg, reg: cfg.Nodes, ev: cfg.Eval,
		log: cfg.Log.With("component", "triggers"), Now: time.Now,
		versions: map[string]string{}, ticks: map[string][]*tick{}, wake: make(chan struct{}, 1)}, nil
}

// Start subscribes to activation notices, loads the active workflows and starts firing.
func (s *Firer) Start(ctx context.Context) error {
	s.sub = bus.Activations.Subscribe(s.cfg.Redis, func(string) {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}, bus.SubscriberConfig{Logger: s.log})
	if err := s.sub.Start(ctx); err != nil {
		return err
	}
	ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	s.done = make(chan struct{})
	go s.loop(ctx)
	return nil
}

// Stop ends firing. Safe to call twice, and before Start.
func (s *Firer) Stop() {
	s.stopOnce.Do(func() {
		if s.cancel == nil {
			return
		}
		s.cancel()
		s.sub.Stop()
		<-s.done
	})
}

func (s *Firer) loop(ctx context.Context) {
	defer close(s.done)
	if err := s.reload(ctx); err != nil && ctx.Err() == nil {
		s.log.Warn("load active workflows", "err", err)
	}
	lastCheck := s.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		now := s.Now()
		timer.Reset(max(min(s.nextTick().Sub(now), lastCheck.Add(CheckInterval).Sub(now)), 0))
		notified := false
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
			notified = true
		case <-timer.C:
		}
		if notified || s.Now().Sub(lastCheck) >= CheckInterval {
			lastCheck = s.Now()
			if err := s.reload(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("load active workflows", "err", err)
			}
		}
		s.fireDue(ctx)
	}
}

// nextTick is the earliest time a trigger fires; far ahead when none is loaded.
func (s *Firer) nextTick() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := s.Now().Add(time.Hour)
	for _, ts := range s.ticks {
		for _, t := range ts {
			if t.next.Before(next) {
				next = t.next
			}
		}
	}
	return next
}

// fireDue queues every tick that has come, then moves each past now.
func (s *Firer) fireDue(ctx context.Context) {
	now := s.Now()
	var due []*tick
	s.mu.Lock()
	for _, ts := range s.ticks {
		for _, t := range ts {
			if !t.next.After(now) {
				due = append(due, t)
			}
		}
	}
	s.mu.Unlock()
	for _, t := range due {
		at := t.next
		late := now.Sub(at) > LateLimit
		if late {
			s.cfg.Metrics.Tick(metrics.TickSkipped)
		}
		if !late && t.filtered() {
			t.last = s.lastFired(ctx, t)
		}
		if !late && t.rule.Due(t.last, at, t.loc) {
			err := s.cfg.Queue.EnqueueTrigger(ctx, queue.TriggerFire{WorkflowID: t.workflowID, Node: t.node, FireTime: at.Unix()})
			if err != nil {
				s.log.Warn("queue trigger", "workflow", t.workflowID, "node", t.node, "err", err)
			} else {
				s.cfg.Metrics.Tick(metrics.TickFired)
			}
			t.last = at
			if t.filtered() {
				s.setLastFired(ctx, t, at)
			}
		}
		s.mu.Lock()
		t.next = t.after(now)
		s.mu.Unlock()
	}
}

// filtered reports whether the rule skips some of its cron's firings (week intervals,
// recurrences), which depends on when it last fired.
func (t *tick) filtered() bool {
	r := t.rule
	return r.WeeksInterval > 1 || (r.Recurrence != nil && r.Recurrence.Size > 1)
}

// lastFiredTTL bounds how long a rule's last firing is kept once nothing fires it.
const lastFiredTTL = 400 * 24 * time.Hour

// lastFiredKey names a rule's last firing in Redis; the key holds the rule itself, so an edited
// rule starts afresh (as n8n clears its recurrence state when the schedule changes).
func (t *tick) lastFiredKey() string {
	r := t.rule
	sig := fmt.Sprintf("%s|%d", r.Cron, r.WeeksInterval)
	if r.Recurrence != nil {
		sig += fmt.Sprintf("|%s/%d", r.Recurrence.Unit, r.Recurrence.Size)
	}
	return bus.KeyTriggerLastPrefix + t.workflowID + ":" + t.node + ":" + sig
}

// lastFired is the later of the tick's own last firing and the one every scheduler shares, so
// a scheduler started or restarted since keeps the rule's spacing.
func (s *Firer) lastFired(ctx context.Context, t *tick) time.Time {
	v, err := s.cfg.Redis.Get(ctx, t.lastFiredKey()).Int64()
	if err != nil {
		return t.last
	}
	if shared := time.Unix(v, 0); shared.After(t.last) {
		return shared
	}
	return t.last
}

func (s *Firer) setLastFired(ctx context.Context, t *tick, at time.Time) {
	if err := s.cfg.Redis.Set(ctx, t.lastFiredKey(), at.Unix(), lastFiredTTL).Err(); err != nil {
		s.log.Warn("record trigger firing", "workflow", t.workflowID, "node", t.node, "err", err)
	}
}

// after is the first firing time strictly after now.
func (t *tick) after(now time.Time) time.Time {
	if t.rule.Cron == "" {
		// Interval rules count from the activation, so every scheduler agrees on the ticks.
		if t.rule.Every <= 0 {
			return now.Add(100 * 365 * 24 * time.Hour)
		}
		k := now.Sub(t.anchor)/t.rule.Every + 1
		if now.Before(t.anchor) {
			k = 1
		}
		return t.anchor.Add(k * t.rule.Every)
	}
	next := t.rule.Next(now, t.loc)
	if next.IsZero() {
		return now.Add(100 * 365 * 24 * time.Hour)
	}
	return next
}

// reload loads the active workflows that changed since the last look and drops the ones that are
// no longer active.
func (s *Firer) reload(ctx context.Context) error {
	versions, err := s.cfg.Store.ActiveWorkflowVersions(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	for id := range s.versions {
		if _, ok := versions[id]; !ok {
			delete(s.versions, id)
			delete(s.ticks, id)
		}
	}
	var changed []string
	for id, v := range versions {
		if s.versions[id] != v {
			changed = append(changed, id)
		}
	}
	s.mu.Unlock()
	slices.Sort(changed)
	for _, id := range changed {
		w, err := s.cfg.Store.GetWorkflow(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		ticks, err := s.load(w)
		if err != nil {
			s.log.Warn("triggers of an active workflow cannot start", "workflow", id, "err", err)
			_ = SetError(ctx, s.cfg.Redis, id, err.Error())
		} else {
			_ = ClearError(ctx, s.cfg.Redis, id)
		}
		s.mu.Lock()
		s.versions[id] = w.VersionID
		s.ticks[id] = ticks
		s.mu.Unlock()
	}
	return nil
}

// load reads a workflow's schedule and poll triggers. It also checks the whole workflow, so an
// active workflow that can no longer start (a node type removed since) shows a warning.
func (s *Firer) load(w *store.Workflow) ([]*tick, error) {
	doc, err := s.cfg.Store.WorkflowDocument(context.Background(), w.ID)
	if err != nil {
		return nil, err
	}
	wf, err := workflow.Parse(doc)
	if err != nil {
		return nil, err
	}
	if _, err := Check(wf, s.reg, s.ev); err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(cmp.Or(wf.Settings.Timezone(), s.cfg.Timezone))
	if err != nil {
		return nil, fmt.Errorf("time zone of the workflow: %w", err)
	}
	now := s.Now()
	var out []*tick
	for i := range wf.Nodes {
		n := &wf.Nodes[i]
		if n.Disabled {
			continue
		}
		// A type or version this instance does not know has no rules to fire (activation
		// refuses such a workflow; one activated before keeps its other triggers).
		t, ok := s.reg.Get(n.Type, n.TypeVersion)
		if !ok {
			continue
		}
		rules, _ := Rules(n, t)
		for _, r := range rules {
			tk := &tick{workflowID: w.ID, node: n.Name, rule: r, loc: loc, anchor: w.UpdatedAt}
			tk.next = tk.after(now)
			out = append(out, tk)
		}
	}
	return out, nil
}
