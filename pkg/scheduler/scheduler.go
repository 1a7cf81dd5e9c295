// Package scheduler runs Flowmill's timed background work: queueing orphaned executions again,
// resuming waiting executions, pruning old ones, and firing the schedule and poll triggers of
// active workflows. Any number of replicas may run; each piece of work is made idempotent by
// deterministic task ids. It is the composition root of the scheduler role: it alone turns the
// process's infra and settings into the explicit configuration of each loop.
package scheduler

import (
	"context"
	"log/slog"
	"time"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/credential"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/listener"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// Scheduler owns the timed loops.
type Scheduler struct {
	log       *slog.Logger
	ID        string
	heartbeat *bus.Heartbeat
	// loops start in this order and stop in reverse.
	loops []infra.Component
}

// FirerConfig is the configuration of the trigger firer of a process on in.
func FirerConfig(in *infra.Infra) trigger.FirerConfig {
	return trigger.FirerConfig{Store: in.Store, Redis: in.Redis, Queue: in.Queue, Nodes: in.Nodes, Eval: in.Eval,
		Timezone: in.Config.Timezone, Log: in.Log, Metrics: in.Metrics}
}

// New builds a scheduler on in.
func New(in *infra.Infra) (*Scheduler, error) {
	cfg := in.Config
	id := infra.InstanceName()
	triggers, err := trigger.NewFirer(FirerConfig(in))
	if err != nil {
		return nil, err
	}
	resumer, err := execution.NewResumer(execution.ResumerConfig{Store: in.Store, Queue: in.Queue,
		Interval: cfg.WaitPollInterval, Log: in.Log})
	if err != nil {
		return nil, err
	}
	pruner, err := execution.NewPruner(execution.PrunerConfig{Store: in.Store, Enabled: cfg.PruneEnabled,
		MaxAge: time.Duration(cfg.PruneMaxAge) * time.Hour, MaxCount: cfg.PruneMaxCount,
		Interval: cfg.PruneInterval, AnswerAge: cfg.IdempotencyTTL, Log: in.Log})
	if err != nil {
		return nil, err
	}
	listeners, err := NewListeners(in)
	if err != nil {
		return nil, err
	}
	return &Scheduler{
		log:       in.Log,
		ID:        id,
		heartbeat: bus.NewHeartbeat(in.Redis, bus.RoleScheduler, id, cfg.HeartbeatInterval, in.Log),
		loops: []infra.Component{
			execution.NewReconciler(in.Store, in.Queue, cfg.ReconcileInterval, in.Log),
			resumer,
			pruner,
			triggers,
			listeners,
		},
	}, nil
}

// Start begins every loop.
func (s *Scheduler) Start(ctx context.Context) error {
	if err := s.heartbeat.Start(ctx); err != nil {
		return err
	}
	for i, l := range s.loops {
		if err := l.Start(ctx); err != nil {
			for j := i - 1; j >= 0; j-- {
				s.loops[j].Stop()
			}
			s.heartbeat.Stop()
			return err
		}
	}
	s.log.Info("scheduler started", "id", s.ID)
	return nil
}

// Stop ends every loop. Safe to call twice.
func (s *Scheduler) Stop() {
	for i := len(s.loops) - 1; i >= 0; i-- {
		s.loops[i].Stop()
	}
	s.heartbeat.Stop()
}

// NewListeners builds the listener-trigger manager of a process on in.
func NewListeners(in *infra.Infra) (*listener.Manager, error) {
	svc, err := execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis})
	if err != nil {
		return nil, err
	}
	// Without a key (a process that never stored credentials) listeners get none.
	cipher, _ := credential.NewCipher(in.Config.EncryptionKey)
	return listener.New(listener.Config{Store: in.Store, Redis: in.Redis, Service: svc, Nodes: in.Nodes,
		Eval: in.Eval, Cipher: cipher, Host: infra.NodeHost(in.Config, in.Files), Log: in.Log})
}
