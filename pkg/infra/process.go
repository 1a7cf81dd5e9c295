package infra

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/store"
)

// Component is a background part of a process with a start/stop pair.
type Component interface {
	Start(ctx context.Context) error
	Stop()
}

// RunProcess is the whole life of the worker and scheduler binaries: load the configuration,
// open the infrastructure, start the component, wait for SIGINT/SIGTERM, stop the component,
// close the infrastructure. It refuses the embedded default: those processes only make sense
// next to an external Redis, which the api then shares with them.
func RunProcess(name string, args []string, build func(*Infra) (Component, error)) error {
	cfg, err := config.Load(args, os.Getenv)
	if err != nil {
		return err
	}
	if cfg.Embedded() {
		return fmt.Errorf("FLOWMILL_REDIS_URL is not set: a separate %s needs the Redis the api uses (in the embedded default the api runs the %s itself)", name, name)
	}
	if cfg.SQLite() {
		return fmt.Errorf("FLOWMILL_DATABASE_URL is not set: a separate %s needs the Postgres database the api uses", name)
	}
	log := cfg.Logger(os.Stderr).With("process", name)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in, err := Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer in.Close()
	// The health listener comes up first, so a probe sees a starting process as not ready
	// rather than as dead, and goes last, so readiness reports the stop while it happens.
	var health *HealthListener
	if cfg.HealthPort != 0 {
		health = NewHealthListener(in, name)
		if err := health.Start(ctx); err != nil {
			return err
		}
		defer health.Stop()
	}
	c, err := build(in)
	if err != nil {
		return err
	}
	if err := c.Start(ctx); err != nil {
		return err
	}
	if health != nil {
		health.Ready()
	}
	<-ctx.Done()
	log.Info("shutting down", "timeout", cfg.ShutdownTimeout)
	if health != nil {
		health.Stopping()
	}
	c.Stop()
	return nil
}

// OneLine flattens an error message onto one line (driver errors often span several), for the
// last words of a process that cannot start.
func OneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// InstanceName names this process in heartbeats and execution leases: host, pid and a random
// suffix, so a restarted process with a reused pid is still a different instance.
func InstanceName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), store.NewID()[:6])
}
