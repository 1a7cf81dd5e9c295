// Command api serves the Flowmill editor, REST API, push stream and webhooks. With no Redis URL
// configured it also runs the worker and the scheduler in-process (the embedded default).
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/flowmill/flowmill/pkg/cli"
	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/scheduler"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/webapp"
)

func main() {
	os.Exit(cli.Main(cli.Program{Name: "api", Version: version, Serve: run,
		Summary: "the editor, REST and public API, push stream and webhooks; with no FLOWMILL_REDIS_URL also the worker and scheduler (the embedded default)"},
		os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string) error {
	cfg, err := config.Load(args, os.Getenv)
	if err != nil {
		return err
	}
	log := cfg.Logger(os.Stderr).With("process", "api")
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	in, err := infra.Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer in.Close()
	log.Info("configuration", "settings", cfg.Redacted())

	dist, err := fs.Sub(webapp.Dist, "dist")
	if err != nil {
		return err
	}
	srv, err := newServer(in, dist)
	if err != nil {
		return err
	}

	// Shutdown order, the reverse of start: HTTP intake, then the in-process worker (finishing
	// or handing back running work), then the scheduler; infra closes last (deferred above).
	var w *worker.Worker
	var sch *scheduler.Scheduler
	if cfg.Embedded() {
		if w, err = worker.New(in); err != nil {
			return err
		}
		srv.runWebhooksHere(w.Runner())
		if err := w.Start(ctx); err != nil {
			return err
		}
		defer w.Stop()
		if sch, err = scheduler.New(in); err != nil {
			return err
		}
		if err := sch.Start(ctx); err != nil {
			return err
		}
		defer sch.Stop()
		log.Info("embedded mode: SQLite in the data folder, in-process Redis, worker and scheduler inside this process",
			"dataDir", cfg.DataDir,
			"scaleOut", "set FLOWMILL_DATABASE_URL and FLOWMILL_REDIS_URL and start bin/worker and bin/scheduler processes")
	} else {
		log.Info("scaled mode: executions run on worker processes", "database", "postgres")
	}

	ln, err := net.Listen("tcp", cfg.Addr())
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr(), err)
	}
	served, err := srv.start(ctx, ln)
	if err != nil {
		return err
	}
	log.Info("Flowmill is ready", "url", cfg.PublicURL)
	// One plain line on stdout whatever the log level: what `make run` shows once built.
	fmt.Printf("Flowmill ready on %s\n", cfg.PublicURL)
	srv.announceSetup(ctx)

	select {
	case err := <-served:
		if err != nil && !errors.Is(err, net.ErrClosed) {
			return err
		}
	case <-ctx.Done():
		// A second signal during the drain ends it at once.
		again, stopAgain := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stopAgain()
		log.Info("draining: readiness answers 503, requests are still served", "drain", cfg.ShutdownDrain)
		srv.drain(again, cfg.ShutdownDrain)
		log.Info("shutting down", "timeout", cfg.ShutdownTimeout)
		if err := srv.shutdown(cfg.ShutdownTimeout); err != nil {
			log.Warn("http shutdown", "err", err)
		}
	}
	return nil
}
