package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/flowmill/flowmill/pkg/bus"
)

// ServerConfig configures a worker's task server.
type ServerConfig struct {
	// Concurrency is how many tasks run at once. Default 10.
	Concurrency int
	// PollInterval is how long the server waits before looking at the queues again after it
	// found them empty while tasks are arriving. Default 10ms; asynq's own 1s default would add
	// ~0.5s median latency to every run.
	PollInterval time.Duration
	// IdleRecheck is the longest an idle server goes without asking Redis for tasks: between
	// looks it waits for a wake-up (bus.QueueWake, sent by an enqueue onto an empty queue, or
	// its own forwarder moving a scheduled or retried task), so it costs no CPU. A wake-up that
	// is lost delays a task by at most this long. Default 1s.
	IdleRecheck time.Duration
	// ShutdownTimeout is how long Stop lets running tasks finish before handing them back to
	// the queue. Default 30s.
	ShutdownTimeout time.Duration
	Logger          *slog.Logger
}

// Server runs task handlers. Register every handler before Start.
type Server struct {
	srv      *asynq.Server
	mux      *asynq.ServeMux
	stopOnce sync.Once
	// gate, own and wakeups spare an idle server polling (idle.go), and own takes and ends
	// tasks with fewer commands than asynq (lean.go); nil when rdb is not a single-node client.
	gate    *idleGate
	own     *redis.Client
	wakeups *bus.Subscriber
}

// NewServer builds a server on rdb serving the weighted Queues.
func NewServer(rdb redis.UniversalClient, cfg ServerConfig) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{mux: asynq.NewServeMux()}
	taskRdb := rdb
	if c, ok := rdb.(*redis.Client); ok {
		// The gate hooks a client of the server's own (same settings, own pool), so the
		// process's other Redis traffic does not pass through it.
		opts := *c.Options()
		s.own = redis.NewClient(&opts)
		names := make([]string, 0, len(Queues))
		for q := range Queues {
			names = append(names, q)
		}
		s.gate = newIdleGate(names, durOr(cfg.IdleRecheck, time.Second))
		s.own.AddHook(s.gate)
		s.own.AddHook(leanScripts{})
		s.wakeups = bus.QueueWake.Subscribe(rdb, s.gate.wake, bus.SubscriberConfig{Logger: cfg.Logger})
		taskRdb = s.own
	}
	s.srv = asynq.NewServerFromRedisClient(taskRdb, asynq.Config{
		Concurrency:              cfgOr(cfg.Concurrency, 10),
		TaskCheckInterval:        durOr(cfg.PollInterval, 10*time.Millisecond),
		DelayedTaskCheckInterval: time.Second,
		ShutdownTimeout:          durOr(cfg.ShutdownTimeout, 30*time.Second),
		Queues:                   Queues,
		RetryDelayFunc:           retryDelay,
		IsFailure:                func(err error) bool { var d *DeferError; return !errors.As(err, &d) },
		Logger:                   asynqLogger{cfg.Logger.With("component", "queue")},
		LogLevel:                 asynq.WarnLevel,
	})
	return s
}

// Handle registers the handler of one task kind.
func (s *Server) Handle(kind string, h func(ctx context.Context, payload []byte) error) {
	s.mux.HandleFunc(kind, func(ctx context.Context, t *asynq.Task) error { return h(ctx, t.Payload()) })
}

// HandleTask registers a handler that needs the task itself (for its result writer).
func (s *Server) HandleTask(kind string, h asynq.HandlerFunc) { s.mux.HandleFunc(kind, h) }

// NameFrom is the queue of the task a handler is running, from the handler's context;
// QueueDefault outside a task.
func NameFrom(ctx context.Context) string {
	if q, ok := asynq.GetQueueName(ctx); ok {
		return q
	}
	return QueueDefault
}

// Start begins processing in the background.
func (s *Server) Start() error {
	if s.wakeups != nil {
		if err := s.wakeups.Start(context.Background()); err != nil {
			return fmt.Errorf("start task server: %w", err)
		}
	}
	if err := s.srv.Start(s.mux); err != nil {
		s.stopWaking()
		return fmt.Errorf("start task server: %w", err)
	}
	return nil
}

// Stop stops taking tasks, waits up to ShutdownTimeout for running ones and hands the rest back
// to the queue. Safe to call twice.
func (s *Server) Stop() {
	s.stopOnce.Do(func() {
		if s.gate != nil {
			s.gate.close() // a held dequeue returns, so the processor sees the shutdown
		}
		s.srv.Shutdown()
		s.stopWaking()
	})
}

func (s *Server) stopWaking() {
	if s.wakeups != nil {
		s.wakeups.Stop()
		_ = s.own.Close()
	}
}

// retryDelay is how long a task handed back waits: what a deferral asks for, else a second per
// earlier retry up to ten (handlers are idempotent, so a quick retry is safe).
func retryDelay(n int, err error, _ *asynq.Task) time.Duration {
	var d *DeferError
	if errors.As(err, &d) {
		return d.Delay
	}
	return time.Duration(min(n+1, 10)) * time.Second
}

func cfgOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func durOr(v, def time.Duration) time.Duration {
	if v > 0 {
		return v
	}
	return def
}

// asynqLogger routes asynq's log lines into slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(fmt.Sprint(args...)) }
