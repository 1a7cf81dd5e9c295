// Package scheduler runs Flowmill's timed background work: queueing orphaned executions again,
// resuming waiting executions, pruning old ones, and firing the schedule and poll triggers of
// active workflows. Any number of replicas may run; each piece of work is made idempotent by
// deterministic task ids.
package scheduler

import (
	"context"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/trigger"
)

// Scheduler owns the timed loops.
type Scheduler struct {
	in        *infra.Infra
	ID        string
	heartbeat *bus.Heartbeat
	// loops start in this order and stop in reverse.
	loops []infra.Component
}

// New builds a scheduler on in.
func New(in *infra.Infra) (*Scheduler, error) {
	id := infra.InstanceName()
	triggers, err := trigger.NewFirer(in, trigger.FirerOptions{})
	if err != nil {
		return nil, err
	}
	return &Scheduler{
		in:        in,
		ID:        id,
		heartbeat: bus.NewHeartbeat(in.Redis, bus.RoleScheduler, id, in.Config.HeartbeatInterval, in.Log),
		loops: []infra.Component{
			execution.NewReconciler(in.Store, in.Queue, in.Config.ReconcileInterval, in.Log),
			execution.NewResumer(in),
			execution.NewPruner(in),
			triggers,
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
	s.in.Log.Info("scheduler started", "id", s.ID)
	return nil
}

// Stop ends every loop. Safe to call twice.
func (s *Scheduler) Stop() {
	for i := len(s.loops) - 1; i >= 0; i-- {
		s.loops[i].Stop()
	}
	s.heartbeat.Stop()
}
