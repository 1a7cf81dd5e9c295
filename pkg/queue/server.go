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
)

// ServerConfig configures a worker's task server.
type ServerConfig struct {
	// Concurrency is how many tasks run at once. Default 10.
	Concurrency int
	// PollInterval is how often an idle server checks the queues. Default 10ms; asynq's own 1s
	// default would add ~0.5s median latency to every run.
	PollInterval time.Duration
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
}

// NewServer builds a server on rdb serving the weighted Queues.
func NewServer(rdb redis.UniversalClient, cfg ServerConfig) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{
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
	return &Server{srv: srv, mux: asynq.NewServeMux()}
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
	if err := s.srv.Start(s.mux); err != nil {
		return fmt.Errorf("start task server: %w", err)
	}
	return nil
}

// Stop stops taking tasks, waits up to ShutdownTimeout for running ones and hands the rest back
// to the queue. Safe to call twice.
func (s *Server) Stop() { s.stopOnce.Do(s.srv.Shutdown) }

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
