package infra

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// profiler serves Go's runtime profiles (FLOWMILL_PPROF_ADDR) on a loopback listener of its own,
// apart from the api's routes and middleware; config.Validate refuses a non-loopback address.
type profiler struct {
	srv *http.Server
	ln  net.Listener
}

// startProfiler listens on addr and serves /debug/pprof/ there; the address it bound (addr may
// name port 0) is logged.
func startProfiler(addr string, log *slog.Logger) (*profiler, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("FLOWMILL_PPROF_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	p := &profiler{ln: ln, srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		if err := p.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("profile listener stopped", "err", err)
		}
	}()
	log.Info("serving runtime profiles", "url", "http://"+ln.Addr().String()+"/debug/pprof/")
	return p, nil
}

// ProfileAddr is the address the runtime profiles are served on (FLOWMILL_PPROF_ADDR with the
// port it bound); empty when none are served.
func (in *Infra) ProfileAddr() string {
	if in.profiler == nil {
		return ""
	}
	return in.profiler.ln.Addr().String()
}

func (p *profiler) stop() { _ = p.srv.Close() }
