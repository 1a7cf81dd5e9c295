// Package worker is the task-processing side of Flowmill: an asynq server with every task
// handler registered, and a heartbeat. The worker binary runs it alone; the api runs it
// in-process in the embedded default.
package worker

import (
	"context"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/queue"
)

// Worker processes queued tasks.
type Worker struct {
	in        *infra.Infra
	ID        string
	server    *queue.Server
	heartbeat *bus.Heartbeat
	runner    *execution.Runner
}

// Options adjust a Worker; the zero value is what worker processes run.
type Options struct {
	// Nodes is the node registry executions run with; nil means the instance's node types
	// (core.ForInstance). Tests pass a registry with node types of their own.
	Nodes *nodes.Registry
}

// New builds a worker on in; the id names it in heartbeats and execution leases.
func New(in *infra.Infra) (*Worker, error) { return NewWithOptions(in, Options{}) }

// NewWithOptions builds a worker on in as New does, adjusted by opts.
func NewWithOptions(in *infra.Infra, opts Options) (*Worker, error) {
	id := infra.InstanceName()
	cfg := in.Config
	w := &Worker{
		in: in,
		ID: id,
		server: queue.NewServer(in.Redis, queue.ServerConfig{
			Concurrency:     cfg.WorkerConcurrency,
			PollInterval:    cfg.QueuePollInterval,
			ShutdownTimeout: cfg.ShutdownTimeout,
			Logger:          in.Log,
		}),
		heartbeat: bus.NewHeartbeat(in.Redis, bus.RoleWorker, id, cfg.HeartbeatInterval, in.Log),
	}
	var err error
	if w.runner, err = execution.NewRunner(in, id, execution.RunnerOptions{Nodes: opts.Nodes}); err != nil {
		return nil, err
	}
	w.register()
	return w, nil
}

// Runner is the worker's execution runner, for an api running in the same process.
func (w *Worker) Runner() *execution.Runner { return w.runner }

// Start begins taking tasks and reporting heartbeats.
func (w *Worker) Start(ctx context.Context) error {
	if err := w.runner.Start(ctx); err != nil {
		return err
	}
	if err := w.server.Start(); err != nil {
		w.runner.Stop()
		return err
	}
	if err := w.heartbeat.Start(ctx); err != nil {
		w.server.Stop()
		return err
	}
	w.in.Log.Info("worker started", "id", w.ID, "concurrency", w.in.Config.WorkerConcurrency)
	return nil
}

// Stop stops taking tasks, lets running ones finish within the shutdown timeout (the rest go
// back to the queue) and withdraws the heartbeat. Safe to call twice.
func (w *Worker) Stop() {
	w.heartbeat.Stop()
	w.server.Stop()
	w.runner.Stop()
}
