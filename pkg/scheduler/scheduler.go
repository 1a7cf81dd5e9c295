// Package scheduler runs Flowmill's timed background work: queueing orphaned executions again,
// and (as they are added) schedules, wait resumption and pruning. Any number of replicas may
// run; each piece of work is made idempotent by deterministic task ids.
package scheduler

import (
	"context"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/queue"
)

// Scheduler owns the timed loops.
type Scheduler struct {
	in         *infra.Infra
	ID         string
	reconciler *queue.Reconciler
	heartbeat  *queue.Heartbeat
}

// New builds a scheduler on in.
func New(in *infra.Infra) *Scheduler {
	id := infra.InstanceName()
	return &Scheduler{
		in:         in,
		ID:         id,
		reconciler: queue.NewReconciler(in.Store, in.Queue, in.Config.ReconcileInterval, in.Log),
		heartbeat:  queue.NewHeartbeat(in.Redis, queue.RoleScheduler, id, in.Config.HeartbeatInterval, in.Log),
	}
}

// Start begins every loop.
func (s *Scheduler) Start(ctx context.Context) error {
	if err := s.heartbeat.Start(ctx); err != nil {
		return err
	}
	if err := s.reconciler.Start(ctx); err != nil {
		s.heartbeat.Stop()
		return err
	}
	s.in.Log.Info("scheduler started", "id", s.ID)
	return nil
}

// Stop ends every loop. Safe to call twice.
func (s *Scheduler) Stop() {
	s.reconciler.Stop()
	s.heartbeat.Stop()
}
