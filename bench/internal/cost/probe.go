// Package cost measures what an execution costs the processes of a benchmark: CPU time per
// process (from /proc: Flowmill's processes, the Postgres backends of the scenario's database,
// the benchmark's own Redis), Postgres statements, round trips and transactions, and Redis
// commands, as deltas over a measured span divided by the executions in it.
package cost

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// clockTicks is USER_HZ, the unit of utime and stime in /proc/<pid>/stat (100 on Linux).
const clockTicks = 100

// Config names what a Probe reads; every part is optional.
type Config struct {
	// Processes are Flowmill's processes by name (api, worker-0, scheduler, …).
	Processes map[string]int
	// DB reaches the scenario's database directly (not through PG); its Postgres backends'
	// CPU time and pg_stat_database's transactions are counted.
	DB *sql.DB
	// PG counts the statements Flowmill's processes send.
	PG *PGCounter
	// Redis is the benchmark's own Redis server.
	Redis *Redis
}

// Probe takes a reading at Begin and the deltas at End.
type Probe struct {
	cfg   Config
	redis *redis.Client

	begin   map[string]float64 // CPU ms by process at Begin
	pgBegin map[int]float64    // CPU ms by backend pid at Begin
	pgLast  map[int]float64    // CPU ms by backend pid at the last look
	xacts   int64
	pgc     PGCounts
	cmds    map[string]int64

	stop chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
}

// Report is what one measured span cost, per execution.
type Report struct {
	CPUMs          map[string]float64 `json:"cpu_ms_per_execution"`
	CPUMsTotal     float64            `json:"cpu_ms_per_execution_total"`
	PGStatements   float64            `json:"pg_statements_per_execution,omitempty"`
	PGRoundTrips   float64            `json:"pg_round_trips_per_execution,omitempty"`
	PGTransactions float64            `json:"pg_transactions_per_execution,omitempty"`
	RedisCommands  float64            `json:"redis_commands_per_execution,omitempty"`
	RSSMiB         map[string]float64 `json:"rss_mib"`
	Load1          float64            `json:"load_average_1m"`
	// Statements and Commands break the Postgres statements and Redis commands down (per
	// execution, the largest first); printed on a line of their own.
	Statements map[string]float64 `json:"-"`
	Commands   map[string]float64 `json:"-"`
}

// New makes a probe.
func New(cfg Config) *Probe {
	p := &Probe{cfg: cfg}
	if cfg.Redis != nil {
		p.redis = redis.NewClient(&redis.Options{Addr: strings.TrimPrefix(cfg.Redis.URL, "redis://")})
	}
	return p
}

// Close releases the probe's Redis connection.
func (p *Probe) Close() {
	if p.redis != nil {
		_ = p.redis.Close()
	}
}

// Begin takes the first reading and follows the database's backends until End (a backend that
// ends meanwhile keeps its last reading).
func (p *Probe) Begin(ctx context.Context) error {
	p.begin = map[string]float64{}
	for name, pid := range p.processes() {
		p.begin[name] = cpuMs(pid)
	}
	if p.cfg.DB != nil {
		backends, err := p.backends(ctx)
		if err != nil {
			return err
		}
		p.pgBegin, p.pgLast = backends, maps.Clone(backends)
		if p.xacts, err = p.transactions(ctx); err != nil {
			return err
		}
		p.stop = make(chan struct{})
		p.wg.Add(1)
		go p.follow(ctx)
	}
	if p.cfg.PG != nil {
		p.pgc = p.cfg.PG.Read()
	}
	if p.redis != nil {
		var err error
		if p.cmds, err = commandStats(ctx, p.redis); err != nil {
			return err
		}
	}
	return nil
}

// End takes the last reading and divides the deltas by executions.
func (p *Probe) End(ctx context.Context, executions int) (Report, error) {
	n := float64(max(executions, 1))
	r := Report{CPUMs: map[string]float64{}, RSSMiB: map[string]float64{}}
	for name, pid := range p.processes() {
		r.CPUMs[name] = round((cpuMs(pid) - p.begin[name]) / n)
		r.RSSMiB[name] = round(rssMiB(pid))
	}
	if p.cfg.DB != nil {
		close(p.stop)
		p.wg.Wait()
		if err := p.look(ctx); err != nil {
			return r, err
		}
		var ms float64
		for pid, last := range p.pgLast {
			ms += last - p.pgBegin[pid]
		}
		r.CPUMs["postgres"] = round(ms / n)
		x, err := p.transactions(ctx)
		if err != nil {
			return r, err
		}
		r.PGTransactions = round(float64(x-p.xacts) / n)
	}
	if p.cfg.PG != nil {
		now := p.cfg.PG.Read()
		r.PGStatements = round(float64(now.Statements-p.pgc.Statements) / n)
		r.PGRoundTrips = round(float64(now.RoundTrips-p.pgc.RoundTrips) / n)
		r.Statements = map[string]float64{}
		for text, c := range now.ByText {
			if d := c - p.pgc.ByText[text]; d > 0 {
				r.Statements[text] = round(float64(d) / n)
			}
		}
	}
	if p.redis != nil {
		now, err := commandStats(ctx, p.redis)
		if err != nil {
			return r, err
		}
		now["info"]-- // the probe's own
		r.Commands = map[string]float64{}
		var total int64
		for name, c := range now {
			if d := c - p.cmds[name]; d > 0 && name != "info" {
				total += d
				r.Commands[name] = round(float64(d) / n)
			}
		}
		r.RedisCommands = round(float64(total) / n)
	}
	for _, ms := range r.CPUMs {
		r.CPUMsTotal += ms
	}
	r.CPUMsTotal = round(r.CPUMsTotal)
	r.Load1 = load1()
	return r, nil
}

// Top returns the n largest entries of a breakdown, the largest first.
func Top(m map[string]float64, n int) []Entry {
	var out []Entry
	for k, v := range m {
		out = append(out, Entry{k, v})
	}
	slices.SortFunc(out, func(a, b Entry) int {
		if a.PerExecution != b.PerExecution {
			if a.PerExecution > b.PerExecution {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out[:min(n, len(out))]
}

// Entry is one line of a breakdown.
type Entry struct {
	Name         string  `json:"name"`
	PerExecution float64 `json:"per_execution"`
}

func (p *Probe) processes() map[string]int {
	procs := maps.Clone(p.cfg.Processes)
	if procs == nil {
		procs = map[string]int{}
	}
	if p.cfg.Redis != nil {
		procs["redis"] = p.cfg.Redis.PID
	}
	return procs
}

func (p *Probe) follow(ctx context.Context) {
	defer p.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			_ = p.look(ctx)
		}
	}
}

// look records the CPU time of every backend of the database now; new ones started at 0.
func (p *Probe) look(ctx context.Context) error {
	now, err := p.backends(ctx)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for pid, ms := range now {
		p.pgLast[pid] = ms
	}
	return nil
}

// backends reads the CPU time of the database's Postgres backends other than the probe's own.
func (p *Probe) backends(ctx context.Context) (map[int]float64, error) {
	rows, err := p.cfg.DB.QueryContext(ctx,
		`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		return nil, fmt.Errorf("list backends: %w", err)
	}
	defer rows.Close()
	out := map[int]float64{}
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			return nil, err
		}
		out[pid] = cpuMs(pid)
	}
	return out, rows.Err()
}

func (p *Probe) transactions(ctx context.Context) (int64, error) {
	// The statistics snapshot of a transaction is cached: clear it to read the current one.
	if _, err := p.cfg.DB.ExecContext(ctx, `SELECT pg_stat_clear_snapshot()`); err != nil {
		return 0, err
	}
	var x int64
	err := p.cfg.DB.QueryRowContext(ctx,
		`SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`).Scan(&x)
	return x, err
}

// cpuMs is the user plus system CPU time of a process in milliseconds; 0 when it is gone.
func cpuMs(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	k, _ := strconv.ParseFloat(f[12], 64)
	return (u + k) * 1000 / clockTicks
}

// rssMiB is a process's resident set size.
func rssMiB(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

func load1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	v, _ := strconv.ParseFloat(strings.Fields(string(b))[0], 64)
	return v
}

func round(v float64) float64 {
	return float64(int64(v*1000+0.5)) / 1000
}
