package benchstack

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/flowmill/flowmill/pkg/queue/queuetest"
	"github.com/flowmill/flowmill/pkg/store/storetest"
)

// ClusterConfig describes a scaled stack that the calling program runs itself.
type ClusterConfig struct {
	// Bin is the folder with the api, worker and scheduler binaries.
	Bin string
	// Workers is the number of worker processes; default 2.
	Workers int
	// PostgresVia and RedisVia are host:port addresses the processes dial instead of the
	// servers' own (a proxy in front of them); empty means the servers' own. The cluster itself
	// creates and drops its database directly.
	PostgresVia, RedisVia string
	// Env holds extra KEY=VALUE settings for every process; they win over the cluster's own.
	Env []string
	// Logs is the folder for the processes' logs and data; empty means a temporary folder that
	// Stop removes.
	Logs string
	// StopGrace is how long Stop waits after SIGTERM before it kills; default 20s.
	StopGrace time.Duration
	// Pprof gives every process a loopback FLOWMILL_PPROF_ADDR of its own; PprofAddrs lists them.
	Pprof bool
}

// Exit is a process of the cluster that ended.
type Exit struct {
	Role  string // api, worker or scheduler
	Index int    // the worker's index; 0 for the others
	Err   error  // what Wait returned
	// Killed is true when the cluster ended it (KillWorker or Stop).
	Killed bool
}

// Cluster is a scaled stack (a fresh Postgres database and Redis database, one api, workers and
// a scheduler from Bin) owned by the calling program, unlike Start, which runs bin/stack: the
// caller can kill and restart each worker and chooses the address each process reaches Postgres
// and Redis at. The environment matches bin/stack's (e2e/stack).
type Cluster struct {
	// URL is the api's base URL, ending in a slash.
	URL string
	// DatabaseURL and RedisURL reach the cluster's database and Redis database directly.
	DatabaseURL, RedisURL string
	// Logs is the folder with one log file per process.
	Logs string

	cfg      ClusterConfig
	env      []string
	apiExtra []string // the api's port and public URL
	cleanup  []func()
	exits    chan Exit

	mu       sync.Mutex
	procs    map[string]*proc  // by role and index: "api", "scheduler", "worker-1"
	pprof    map[string]string // FLOWMILL_PPROF_ADDR by the same keys, when cfg.Pprof
	stopping bool
	wg       sync.WaitGroup
}

type proc struct {
	cmd    *exec.Cmd
	killed bool
	done   chan struct{}
}

// Launch creates the database and takes a Redis database, starts every process and returns
// once the api is ready (which needs a worker's heartbeat too). Exits reports every process
// that ends while the cluster runs. The caller must Stop the cluster.
func Launch(ctx context.Context, cfg ClusterConfig) (c *Cluster, err error) {
	if cfg.Workers == 0 {
		cfg.Workers = 2
	}
	if cfg.StopGrace == 0 {
		cfg.StopGrace = 20 * time.Second
	}
	c = &Cluster{cfg: cfg, procs: map[string]*proc{}, exits: make(chan Exit, 64)}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	dbURL, drop, err := storetest.CreateDatabase(ctx, storetest.PostgresURL())
	if err != nil {
		return c, err
	}
	c.cleanup = append(c.cleanup, drop)
	redisURL, release, err := queuetest.LockDB(ctx, queuetest.URL(), time.Minute)
	if err != nil {
		return c, err
	}
	c.cleanup = append(c.cleanup, release)
	c.DatabaseURL, c.RedisURL = dbURL, redisURL
	if c.Logs = cfg.Logs; c.Logs == "" {
		if c.Logs, err = os.MkdirTemp("", "flowmill-cluster-"); err != nil {
			return c, err
		}
		dir := c.Logs
		c.cleanup = append(c.cleanup, func() { _ = os.RemoveAll(dir) })
	} else if err := os.MkdirAll(c.Logs, 0o755); err != nil {
		return c, err
	}
	procDB, err := via(dbURL, cfg.PostgresVia)
	if err != nil {
		return c, err
	}
	procRedis, err := via(redisURL, cfg.RedisVia)
	if err != nil {
		return c, err
	}
	c.env = append(os.Environ(),
		"FLOWMILL_DATABASE_URL="+procDB,
		"FLOWMILL_REDIS_URL="+procRedis,
		"FLOWMILL_ENCRYPTION_KEY=stack-encryption-key-0123456789",
		"FLOWMILL_DATA_DIR="+filepath.Join(c.Logs, "data"),
		"FLOWMILL_EGRESS_ALLOW=127.0.0.1/32",
	)
	c.env = append(c.env, cfg.Env...)

	port, err := freePort()
	if err != nil {
		return c, err
	}
	c.URL = fmt.Sprintf("http://127.0.0.1:%d/", port)
	c.apiExtra = []string{fmt.Sprintf("FLOWMILL_PORT=%d", port), "FLOWMILL_PUBLIC_URL=" + c.URL, "FLOWMILL_LISTEN_ADDRESS=127.0.0.1"}
	if err := c.start("api", 0); err != nil {
		return c, err
	}
	for i := range cfg.Workers {
		if err := c.StartWorker(i); err != nil {
			return c, err
		}
	}
	if err := c.start("scheduler", 0); err != nil {
		return c, err
	}
	if err := waitReady(ctx, c.URL, 60*time.Second); err != nil {
		return c, fmt.Errorf("%w (logs in %s)", err, c.Logs)
	}
	return c, nil
}

// Exits reports each process that ends before Stop, killed or not.
func (c *Cluster) Exits() <-chan Exit { return c.exits }

// StartWorker starts worker i (0 ≤ i < Workers), appending to its log; an error if it runs.
func (c *Cluster) StartWorker(i int) error {
	if i < 0 || i >= c.cfg.Workers {
		return fmt.Errorf("no worker %d in a cluster of %d", i, c.cfg.Workers)
	}
	return c.start("worker", i)
}

// Restart starts a process that ended again, as a supervisor would (same role, index, settings
// and, for the api, address).
func (c *Cluster) Restart(e Exit) error { return c.start(e.Role, e.Index) }

// KillWorker ends worker i with SIGKILL, as a crash or an out-of-memory kill would, and waits
// until it is gone.
func (c *Cluster) KillWorker(i int) error {
	c.mu.Lock()
	p := c.procs[key("worker", i)]
	if p == nil {
		c.mu.Unlock()
		return fmt.Errorf("worker %d is not running", i)
	}
	p.killed = true
	_ = p.cmd.Process.Kill()
	c.mu.Unlock()
	<-p.done
	return nil
}

// Stop ends every process (SIGTERM, then SIGKILL after StopGrace), drops the database, frees the
// Redis database and removes a temporary log folder. Safe to call twice.
func (c *Cluster) Stop() {
	c.mu.Lock()
	c.stopping = true
	var live []*proc
	for _, p := range c.procs {
		p.killed = true
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		live = append(live, p)
	}
	c.mu.Unlock()
	deadline := time.After(c.cfg.StopGrace)
	for _, p := range live {
		select {
		case <-p.done:
		case <-deadline:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}
	c.wg.Wait()
	for i := len(c.cleanup) - 1; i >= 0; i-- {
		c.cleanup[i]()
	}
	c.cleanup = nil
}

func key(role string, i int) string {
	if role == "worker" {
		return fmt.Sprintf("worker-%d", i)
	}
	return role
}

func (c *Cluster) start(role string, i int) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := key(role, i)
	if c.stopping {
		return errors.New("the cluster is stopping")
	}
	if c.procs[k] != nil {
		return fmt.Errorf("%s is running", k)
	}
	f, err := os.OpenFile(filepath.Join(c.Logs, k+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(filepath.Join(c.cfg.Bin, role))
	cmd.Env = append([]string{}, c.env...)
	if role == "api" {
		cmd.Env = append(cmd.Env, c.apiExtra...)
	}
	if c.cfg.Pprof {
		if c.pprof[k] == "" {
			port, err := freePort()
			if err != nil {
				_ = f.Close()
				return err
			}
			if c.pprof == nil {
				c.pprof = map[string]string{}
			}
			c.pprof[k] = fmt.Sprintf("127.0.0.1:%d", port)
		}
		cmd.Env = append(cmd.Env, "FLOWMILL_PPROF_ADDR="+c.pprof[k])
	}
	cmd.Stdout, cmd.Stderr = f, f
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return fmt.Errorf("start %s: %w", k, err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	c.procs[k] = p
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		err := cmd.Wait()
		_ = f.Close()
		c.mu.Lock()
		delete(c.procs, k)
		killed, stopping := p.killed, c.stopping
		c.mu.Unlock()
		close(p.done)
		if !stopping {
			select {
			case c.exits <- Exit{Role: role, Index: i, Err: err, Killed: killed}:
			default: // nobody reads: the exit is in the log anyway
			}
		}
	}()
	return nil
}

// via replaces the host:port of a database or Redis URL with addr; empty addr keeps it.
func via(raw, addr string) (string, error) {
	if addr == "" {
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	u.Host = addr
	return u.String(), nil
}

// TargetAddr is the host:port of a database or Redis URL: where a proxy in front of it dials.
func TargetAddr(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if u.Port() == "" {
		return "", fmt.Errorf("%s names no port", u.Redacted())
	}
	return u.Host, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls the api's readiness until it answers 200.
func waitReady(ctx context.Context, base string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		res, err := http.Get(base + "healthz/readiness")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s did not become ready within %v", strings.TrimSuffix(base, "/"), limit)
}

// PIDs returns the process id of every running process by name ("api", "scheduler",
// "worker-0", …), for a benchmark that reads their CPU time and memory from /proc.
func (c *Cluster) PIDs() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	pids := make(map[string]int, len(c.procs))
	for k, p := range c.procs {
		pids[k] = p.cmd.Process.Pid
	}
	return pids
}

// PprofAddrs returns the profile address (FLOWMILL_PPROF_ADDR) of every process by the names
// PIDs uses; empty unless ClusterConfig.Pprof.
func (c *Cluster) PprofAddrs() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]string, len(c.pprof))
	for k, a := range c.pprof {
		out[k] = a
	}
	return out
}
