package infra

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Checks runs the readiness checks every process shares: the database is reachable and
// migrated, and Redis answers. Each check's name maps to "ok" or its failure; ok is false when
// any failed.
func (in *Infra) Checks(ctx context.Context) (checks map[string]string, ok bool) {
	checks = map[string]string{}
	ok = true
	check := func(name string, err error) {
		if err != nil {
			checks[name] = err.Error()
			ok = false
			return
		}
		checks[name] = "ok"
	}
	err := in.Store.Ping(ctx)
	if err == nil {
		err = in.Store.Migrated(ctx)
	}
	check("database", err)
	check("redis", in.Redis.Ping(ctx).Err())
	return checks, ok
}

// HealthListener serves /healthz, /healthz/readiness and /metrics for a worker or scheduler
// process on FLOWMILL_LISTEN_ADDRESS:FLOWMILL_HEALTH_PORT. Readiness answers 200 once the
// process's component has started (Ready) and while the database and Redis answer, 503 before,
// on a failed check and from Stopping on. /metrics answers 404 with FLOWMILL_METRICS=false.
type HealthListener struct {
	in       *Infra
	process  string
	srv      *http.Server
	ready    atomic.Bool
	stopping atomic.Bool
	done     chan struct{}
	stopOnce sync.Once
	// Addr is the address it listens on, once started.
	Addr string
}

// NewHealthListener builds the listener of a process named process (worker, scheduler) on in.
func NewHealthListener(in *Infra, process string) *HealthListener {
	l := &HealthListener{in: in, process: process, done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
	})
	mux.HandleFunc("GET /healthz/readiness", l.readiness)
	if in.Config.MetricsEnabled {
		mux.Handle("GET /metrics", in.Metrics.Handler())
	} else {
		mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, http.StatusNotFound, map[string]any{"message": "Metrics are turned off (FLOWMILL_METRICS=false)"})
		})
	}
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	return l
}

func (l *HealthListener) readiness(w http.ResponseWriter, r *http.Request) {
	switch {
	case l.stopping.Load():
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "draining",
			"checks": map[string]string{"shutdown": "the process is stopping"}})
		return
	case !l.ready.Load():
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "error",
			"checks": map[string]string{l.process: "starting"}})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks, ok := l.in.Checks(ctx)
	checks[l.process] = "ok"
	status, code := "ok", http.StatusOK
	if !ok {
		status, code = "error", http.StatusServiceUnavailable
	}
	writeJSON(w, code, map[string]any{"status": status, "checks": checks})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

// Start listens and serves in the background.
func (l *HealthListener) Start(context.Context) error {
	cfg := l.in.Config
	addr := net.JoinHostPort(cfg.ListenAddress, strconv.Itoa(cfg.HealthPort))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("FLOWMILL_HEALTH_PORT: listen on %s: %w", addr, err)
	}
	l.Addr = ln.Addr().String()
	go func() {
		defer close(l.done)
		if err := l.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			l.in.Log.Warn("health listener", "err", err)
		}
	}()
	l.in.Log.Info("health and metrics listener", "addr", l.Addr)
	return nil
}

// Ready marks the process's component started: readiness may answer 200.
func (l *HealthListener) Ready() { l.ready.Store(true) }

// Stopping makes readiness answer 503 "draining" from now on.
func (l *HealthListener) Stopping() { l.stopping.Store(true) }

// Stop closes the listener. Safe to call twice.
func (l *HealthListener) Stop() {
	l.stopOnce.Do(func() {
		l.stopping.Store(true)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = l.srv.Shutdown(ctx)
		if l.Addr != "" {
			<-l.done
		}
	})
}
