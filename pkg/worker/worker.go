// Package worker is the task-processing side of Flowmill: an asynq server with every task
// handler registered, and a heartbeat. The worker binary runs it alone; the api runs it
// in-process in the embedded default. It is the composition root of the worker role: it alone
// turns the process's infra and settings into the explicit configuration of the runner.
package worker

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/metrics"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/push"
	"github.com/flowmill/flowmill/pkg/queue"
)

// Worker processes queued tasks.
type Worker struct {
	log       *slog.Logger
	metrics   *metrics.Metrics
	publisher *push.Publisher
	// concurrency is how many tasks it takes at once, for the start-up log.
	concurrency int
	ID          string
	server      *queue.Server
	heartbeat   *bus.Heartbeat
	runner      *execution.Runner
}

// Options adjust a Worker; the zero value is what worker processes run.
type Options struct {
	// Nodes is the node registry executions run with; nil means the instance's node types
	// (infra's, built once per process). Tests pass a registry with node types of their own.
	Nodes *nodes.Registry
}

// RunnerConfig is the configuration of the execution runner of a worker with id on in: the
// process's dependencies and the instance settings of executions.
func RunnerConfig(in *infra.Infra, id string) execution.RunnerConfig {
	cfg := in.Config
	return execution.RunnerConfig{
		Store: in.Store, Redis: in.Redis, Queue: in.Queue, Publisher: in.Publisher, Metrics: in.Metrics,
		Nodes: in.Nodes, Eval: in.Eval, Log: in.Log, Env: config.NodeEnvironment(),
		Host:            infra.NodeHost(cfg, in.Files),
		WorkerID:        id,
		EncryptionKey:   cfg.EncryptionKey,
		LeaseTTL:        cfg.ExecutionLeaseTTL,
		Concurrency:     cfg.WorkerConcurrency,
		ProductionLimit: cfg.ConcurrencyProductionLimit,
		ShutdownTimeout: cfg.ShutdownTimeout,
		Timezone:        cfg.Timezone,
		PublicURL:       cfg.PublicURL,
		Saving:          execution.Saving{OnSuccess: cfg.SaveDataOnSuccess, OnError: cfg.SaveDataOnError, Manual: cfg.SaveManualExecutions},
		Timeouts: execution.Timeouts{Default: time.Duration(cfg.ExecutionsTimeout) * time.Second,
			Max: time.Duration(cfg.ExecutionsTimeoutMax) * time.Second},
		MaxTakeovers: cfg.ExecutionMaxTakeovers,
	}
}

// New builds a worker on in; the id names it in heartbeats and execution leases.
func New(in *infra.Infra) (*Worker, error) { return NewWithOptions(in, Options{}) }

// NewWithOptions builds a worker on in as New does, adjusted by opts.
func NewWithOptions(in *infra.Infra, opts Options) (*Worker, error) {
	id := infra.InstanceName()
	cfg := in.Config
	w := &Worker{
		log: in.Log, metrics: in.Metrics, publisher: in.Publisher, concurrency: cfg.WorkerConcurrency,
		ID: id,
		server: queue.NewServer(in.Redis, queue.ServerConfig{
			Concurrency:     cfg.WorkerConcurrency,
			PollInterval:    cfg.QueuePollInterval,
			ShutdownTimeout: cfg.ShutdownTimeout,
			Logger:          in.Log,
		}),
		heartbeat: bus.NewHeartbeat(in.Redis, bus.RoleWorker, id, cfg.HeartbeatInterval, in.Log),
	}
	rc := RunnerConfig(in, id)
	rc.Nodes = cmp.Or(opts.Nodes, rc.Nodes)
	var err error
	if w.runner, err = execution.NewRunner(rc); err != nil {
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
	w.log.Info("worker started", "id", w.ID, "concurrency", w.concurrency)
	return nil
}

// Stop stops taking tasks, lets running ones finish within the shutdown timeout (the rest go
// back to the queue) and withdraws the heartbeat. Safe to call twice.
func (w *Worker) Stop() {
	w.heartbeat.Stop()
	w.server.Stop()
	w.runner.Stop()
}
