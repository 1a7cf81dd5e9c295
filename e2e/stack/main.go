// Command stack starts the scaled Flowmill stack for end-to-end tests and benchmarks: a fresh
// Postgres database, a free Redis database, one or more api processes, N workers and one or
// more schedulers, all from bin/. It prints one JSON line with the api URLs once every api is ready,
// then runs until it receives SIGINT/SIGTERM (or, with -stop-on-stdin-close, until its standard
// input closes), and cleans up.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "stack:", err)
		os.Exit(1)
	}
}

type ready struct {
	URLs        []string `json:"urls"`
	RedisURL    string   `json:"redisUrl"`
	DatabaseURL string   `json:"databaseUrl"`
	Logs        string   `json:"logs"`
}

// envFlags collects repeated -env KEY=VALUE flags.
type envFlags []string

func (e *envFlags) String() string { return strings.Join(*e, ",") }
func (e *envFlags) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

func run() error {
	bin := flag.String("bin", "bin", "folder with the api, worker and scheduler binaries")
	apis := flag.Int("apis", 1, "api processes")
	workers := flag.Int("workers", 2, "worker processes")
	schedulers := flag.Int("schedulers", 1, "scheduler processes (listener triggers run in one of them)")
	port := flag.Int("port", 0, "port of the first api (0 = a free one)")
	logs := flag.String("logs", "", "folder for process logs (default a temporary one)")
	var extraEnv envFlags
	flag.Var(&extraEnv, "env", "KEY=VALUE setting for every process (repeatable)")
	watchStdin := flag.Bool("stop-on-stdin-close", false, "also stop when standard input closes (for a parent that may die)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() { _, _ = io.Copy(io.Discard, os.Stdin); stop() }()
	}

	dbURL, drop, err := storetest.CreateDatabase(ctx, storetest.PostgresURL())
	if err != nil {
		return err
	}
	defer drop()
	redisURL, release, err := queuetest.LockDB(ctx, queuetest.URL(), time.Minute)
	if err != nil {
		return err
	}
	defer release()
	if *logs == "" {
		if *logs, err = os.MkdirTemp("", "flowmill-stack-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(*logs, 0o755); err != nil {
		return err
	}
	env := append(os.Environ(),
		"FLOWMILL_DATABASE_URL="+dbURL,
		"FLOWMILL_REDIS_URL="+redisURL,
		"FLOWMILL_ENCRYPTION_KEY=stack-encryption-key-0123456789",
		"FLOWMILL_DATA_DIR="+filepath.Join(*logs, "data"),
		// The specs serve workflow files for "Import from URL" on this machine, which the strict
		// egress profile refuses by default.
		"FLOWMILL_EGRESS_ALLOW=127.0.0.1/32",
		// No load balancer routes around these apis: they stop without a readiness drain.
		"FLOWMILL_SHUTDOWN_DRAIN=0s",
	)
	env = append(env, extraEnv...)
	var procs []*exec.Cmd
	defer func() { stopAll(procs) }()
	start := func(name string, extra ...string) error {
		f, err := os.Create(filepath.Join(*logs, fmt.Sprintf("%s-%d.log", name, len(procs))))
		if err != nil {
			return err
		}
		cmd := exec.Command(filepath.Join(*bin, name))
		cmd.Env = append(append([]string{}, env...), extra...)
		cmd.Stdout, cmd.Stderr = f, f
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("start %s: %w", name, err)
		}
		procs = append(procs, cmd)
		return nil
	}
	var urls []string
	for i := range *apis {
		p := *port
		if p == 0 || i > 0 {
			if p, err = freePort(); err != nil {
				return err
			}
		}
		u := fmt.Sprintf("http://127.0.0.1:%d/", p)
		urls = append(urls, u)
		if err := start("api", fmt.Sprintf("FLOWMILL_PORT=%d", p), "FLOWMILL_PUBLIC_URL="+u); err != nil {
			return err
		}
	}
	for range *workers {
		if err := start("worker"); err != nil {
			return err
		}
	}
	for range *schedulers {
		if err := start("scheduler"); err != nil {
			return err
		}
	}
	for _, u := range urls {
		if err := waitReady(ctx, u); err != nil {
			return fmt.Errorf("%w (logs in %s)", err, *logs)
		}
	}
	line, _ := json.Marshal(ready{URLs: urls, RedisURL: redisURL, DatabaseURL: dbURL, Logs: *logs})
	fmt.Println(string(line))
	<-ctx.Done()
	return nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func waitReady(ctx context.Context, base string) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		res, err := http.Get(base + "healthz/readiness")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return errors.New(strings.TrimSuffix(base, "/") + " did not become ready within 60s")
}

// stopAll sends SIGTERM to every process and waits; stragglers are killed after 20s.
func stopAll(procs []*exec.Cmd) {
	for _, p := range procs {
		_ = p.Process.Signal(syscall.SIGTERM)
	}
	done := make(chan struct{})
	go func() {
		for _, p := range procs {
			_ = p.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		for _, p := range procs {
			_ = p.Process.Kill()
		}
	}
}
