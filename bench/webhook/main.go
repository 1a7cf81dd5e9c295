// Command webhook measures production webhooks end to end: an active workflow Webhook → Set →
// IF → Respond to Webhook (response mode responseNode) is called by N concurrent clients for a
// fixed time, with execution data saved and with saving off, in the embedded default and against
// the scaled stack (api + workers). One JSON line per scenario: requests per second, p50/p99
// latency and errors, and what an execution cost: CPU milliseconds per process (api, workers,
// scheduler, the Postgres backends of the scenario's database, the benchmark's own Redis),
// Postgres statements, round trips and transactions and Redis commands (bench/internal/cost),
// the resident memory of each process and the load average; then, per scenario, a line with the
// statements and commands an execution sends, the most frequent first.
//
//	go run ./bench/webhook -bin bin -duration 20s -concurrency 1,10,50 -modes embedded,scaled
//
// With -cpuprofile DIR every process serves its runtime profiles on a loopback port
// (FLOWMILL_PPROF_ADDR) and a CPU profile of each, taken over the load of each scenario, is
// written to DIR/<mode>-<saving>-c<concurrency>-<process>.pprof (go tool pprof -top FILE).
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/bench/internal/cost"
)

const workflow = `{"name":"bench webhook","nodes":[
 {"name":"Webhook","type":"n8n-nodes-base.webhook","typeVersion":1,"position":[0,0],"webhookId":"bench","parameters":{"path":"bench","httpMethod":"POST","responseMode":"responseNode"}},
 {"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"number":[{"name":"n","value":"={{ $json.body.n }}"}]}}},
 {"name":"IF","type":"n8n-nodes-base.if","typeVersion":1,"position":[400,0],"parameters":{"conditions":{"number":[{"value1":"={{$json.n}}","operation":"larger","value2":0}]}}},
 {"name":"Respond","type":"n8n-nodes-base.respondToWebhook","typeVersion":1,"position":[600,0],"parameters":{"respondWith":"json","responseBody":"={{ JSON.stringify({n: $json.n}) }}"}}],
 "connections":{"Webhook":{"main":[[{"node":"Set","type":"main","index":0}]]},"Set":{"main":[[{"node":"IF","type":"main","index":0}]]},
  "IF":{"main":[[{"node":"Respond","type":"main","index":0}]]}}}`

type result struct {
	Scenario    string  `json:"scenario"`
	Mode        string  `json:"mode"`
	Saving      bool    `json:"saving"`
	Concurrency int     `json:"concurrency"`
	Requests    int     `json:"requests"`
	Errors      int     `json:"errors"`
	PerSecond   float64 `json:"requests_per_second"`
	P50Ms       float64 `json:"p50_ms"`
	P99Ms       float64 `json:"p99_ms"`
	DurationS   float64 `json:"duration_s"`
	// ExecutionsKept is the execution count the executions list reports after the load (an
	// estimate on a large Postgres table); DatabaseMiB the embedded SQLite file with its WAL.
	ExecutionsKept int `json:"executions_kept"`
	// PickupP50Ms and PickupP99Ms (scaled mode, saving on) are the times from the api storing an
	// execution to a worker claiming it (the enqueue, the worker's wake-up or dequeue, the
	// claim), from the executions' created_at and started_at.
	PickupP50Ms             float64 `json:"pickup_p50_ms,omitempty"`
	PickupP99Ms             float64 `json:"pickup_p99_ms,omitempty"`
	ExecutionsKeptEstimated bool    `json:"executions_kept_estimated,omitempty"`
	DatabaseMiB             float64 `json:"database_mib,omitempty"`
	cost.Report
}

// target is a running Flowmill: its base URL, what the cost probe reads, and how to stop it.
// profileDir is the -cpuprofile folder; empty means no profiles.
var profileDir string

type target struct {
	base   string
	probe  cost.Config
	stop   func()
	sqlite string // the embedded database file
	// pprof is each process's profile address, by the probe's process names (with -cpuprofile).
	pprof map[string]string
}

func main() {
	bin := flag.String("bin", "bin", "folder with the Flowmill binaries and bin/stack")
	duration := flag.Duration("duration", 20*time.Second, "load time per scenario")
	levels := flag.String("concurrency", "1,10,50", "concurrent clients, comma-separated")
	modes := flag.String("modes", "embedded,scaled", "embedded and/or scaled")
	workers := flag.Int("workers", 2, "worker processes in scaled mode")
	pruneMax := flag.Int("prune-max-count", 0, "FLOWMILL_EXECUTIONS_DATA_PRUNE_MAX_COUNT (0: the default)")
	pruneEvery := flag.Duration("prune-interval", 0, "FLOWMILL_EXECUTIONS_DATA_PRUNE_INTERVAL (0: the default)")
	flag.StringVar(&profileDir, "cpuprofile", "", "folder for a CPU profile of each process per scenario (empty: none)")
	flag.Parse()
	env := []string{"FLOWMILL_LOG_LEVEL=warn", "FLOWMILL_WORKER_CONCURRENCY=50"}
	if *pruneMax > 0 {
		env = append(env, "FLOWMILL_EXECUTIONS_DATA_PRUNE_MAX_COUNT="+strconv.Itoa(*pruneMax))
	}
	if *pruneEvery > 0 {
		env = append(env, "FLOWMILL_EXECUTIONS_DATA_PRUNE_INTERVAL="+pruneEvery.String())
	}
	if err := run(*bin, *duration, *levels, *modes, *workers, env); err != nil {
		fmt.Fprintln(os.Stderr, "bench webhook:", err)
		os.Exit(1)
	}
}

func run(bin string, duration time.Duration, levels, modes string, workers int, env []string) error {
	var conc []int
	for _, s := range strings.Split(levels, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("bad -concurrency %q", levels)
		}
		conc = append(conc, n)
	}
	for _, mode := range strings.Split(modes, ",") {
		t, err := start(bin, strings.TrimSpace(mode), workers, env)
		if err != nil {
			return err
		}
		err = scenarios(t, mode, duration, conc)
		t.stop()
		if err != nil {
			return err
		}
	}
	return nil
}

// start runs Flowmill in one mode; the scaled stack is a measured one (cost.Launch).
func start(bin, mode string, workers int, env []string) (*target, error) {
	ctx := context.Background()
	switch mode {
	case "scaled":
		cl, err := cost.Launch(ctx, benchstack.ClusterConfig{Bin: bin, Workers: workers,
			Env: append(env, "FLOWMILL_SHUTDOWN_DRAIN=0s"), Pprof: profileDir != ""})
		if err != nil {
			return nil, err
		}
		t := &target{base: cl.URL, stop: cl.Stop, probe: cl.Probe, pprof: cl.PprofAddrs()}
		if err := waitProfilers(t.pprof); err != nil {
			cl.Stop()
			return nil, err
		}
		return t, nil
	case "embedded":
		dir, err := os.MkdirTemp("", "flowmill-bench-")
		if err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		cmd := exec.Command(filepath.Join(bin, "api"))
		cmd.Env = append(os.Environ(), append(env, "FLOWMILL_DATABASE_URL=", "FLOWMILL_REDIS_URL=",
			"FLOWMILL_DATA_DIR="+dir, "FLOWMILL_PORT="+strconv.Itoa(port))...)
		var pprof map[string]string
		if profileDir != "" {
			pl, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return nil, err
			}
			pprof = map[string]string{"api": pl.Addr().String()}
			pl.Close()
			cmd.Env = append(cmd.Env, "FLOWMILL_PPROF_ADDR="+pprof["api"])
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		stop := func() {
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
			os.RemoveAll(dir)
		}
		t := &target{base: fmt.Sprintf("http://127.0.0.1:%d/", port), stop: stop, sqlite: filepath.Join(dir, "database.sqlite"), pprof: pprof,
			probe: cost.Config{Processes: map[string]int{"api": cmd.Process.Pid}}}
		for deadline := time.Now().Add(30 * time.Second); ; {
			if res, err := http.Get(t.base + "healthz/readiness"); err == nil {
				res.Body.Close()
				if res.StatusCode == 200 {
					if err := waitProfilers(t.pprof); err != nil {
						stop()
						return nil, err
					}
					return t, nil
				}
			}
			if time.Now().After(deadline) {
				stop()
				return nil, fmt.Errorf("the embedded api did not become ready")
			}
			time.Sleep(50 * time.Millisecond) // polling a starting process; no signal to wait on
		}
	}
	return nil, fmt.Errorf("unknown mode %q", mode)
}

func scenarios(t *target, mode string, duration time.Duration, conc []int) error {
	base := t.base
	// The REST calls need a session: GET /rest/login signs in as the default owner of a fresh
	// instance. Webhook calls need none.
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	if _, err := benchstack.REST(context.Background(), client, base, "GET", "rest/login", ""); err != nil {
		return err
	}
	id, err := benchstack.REST(context.Background(), client, base, "POST", "rest/workflows", workflow)
	if err != nil {
		return err
	}
	for _, saving := range []bool{true, false} {
		save := map[bool]string{true: "all", false: "none"}[saving]
		body := fmt.Sprintf(`{"active":true,"settings":{"saveDataSuccessExecution":%q,"saveDataErrorExecution":%q}}`, save, save)
		if _, err := benchstack.REST(context.Background(), client, base, "PATCH", "rest/workflows/"+id, body); err != nil {
			return err
		}
		for _, c := range conc {
			probe := cost.New(t.probe)
			if err := probe.Begin(context.Background()); err != nil {
				return err
			}
			began := time.Now().UTC()
			profiled := profile(t.pprof, duration, fmt.Sprintf("%s-%s-c%d", mode, save, c))
			r := load(base+"webhook/bench", c, duration)
			if err := profiled(); err != nil {
				return err
			}
			r.Mode, r.Saving = mode, saving
			var err error
			r.Report, err = probe.End(context.Background(), r.Requests)
			probe.Close()
			if err != nil {
				return err
			}
			if r.ExecutionsKept, r.ExecutionsKeptEstimated, err = kept(client, base); err != nil {
				return err
			}
			if t.probe.DB != nil && saving {
				if r.PickupP50Ms, r.PickupP99Ms, err = pickup(t.probe.DB, began); err != nil {
					return err
				}
			}
			if t.sqlite != "" {
				for _, f := range []string{t.sqlite, t.sqlite + "-wal"} {
					if st, err := os.Stat(f); err == nil {
						r.DatabaseMiB += float64(st.Size()) / (1 << 20)
					}
				}
			}
			b, _ := json.Marshal(r)
			fmt.Println(string(b))
			b, _ = json.Marshal(map[string]any{"scenario": "webhook-breakdown", "mode": mode, "saving": saving,
				"concurrency": c, "pg_statements": cost.Top(r.Statements, 20), "redis_commands": cost.Top(r.Commands, 20)})
			fmt.Println(string(b))
		}
	}
	return nil
}

// pickup returns the median and 99th percentile of started_at − created_at in milliseconds over
// the executions created since began.
func pickup(db *sql.DB, began time.Time) (p50, p99 float64, err error) {
	err = db.QueryRow(`SELECT COALESCE(percentile_cont(0.5) WITHIN GROUP (ORDER BY d), 0),
		COALESCE(percentile_cont(0.99) WITHIN GROUP (ORDER BY d), 0)
		FROM (SELECT EXTRACT(EPOCH FROM started_at - created_at) * 1000 AS d FROM executions
		WHERE created_at >= $1 AND started_at IS NOT NULL) t`, began).Scan(&p50, &p99)
	if err != nil {
		return 0, 0, fmt.Errorf("pickup times: %w", err)
	}
	return math.Round(p50*1000) / 1000, math.Round(p99*1000) / 1000, nil
}

// kept reads the execution count of the executions list.
func kept(client *http.Client, base string) (int, bool, error) {
	res, err := client.Get(base + "rest/executions?limit=1")
	if err != nil {
		return 0, false, err
	}
	defer res.Body.Close()
	var out struct {
		Data struct {
			Count     int  `json:"count"`
			Estimated bool `json:"estimated"`
		} `json:"data"`
	}
	if res.StatusCode != http.StatusOK {
		return 0, false, fmt.Errorf("list executions: status %d", res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		return 0, false, fmt.Errorf("list executions: %w", err)
	}
	return out.Data.Count, out.Data.Estimated, nil
}

// load calls the webhook from c clients until duration has passed; a request counts as an error
// unless it answers 200 with the expected body.
func load(url string, c int, duration time.Duration) result {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c}, Timeout: time.Minute}
	ctx, cancel := context.WithTimeout(context.Background(), duration)
	defer cancel()
	var mu sync.Mutex
	var lat []float64
	errs := 0
	var wg sync.WaitGroup
	began := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				t0 := time.Now()
				res, err := client.Post(url, "application/json", bytes.NewReader([]byte(`{"n":7}`)))
				ok := false
				if err == nil {
					b, _ := io.ReadAll(res.Body)
					res.Body.Close()
					ok = res.StatusCode == 200 && string(b) == `{"n":7}`
				}
				ms := float64(time.Since(t0).Microseconds()) / 1000
				mu.Lock()
				lat = append(lat, ms)
				if !ok {
					errs++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	span := time.Since(began).Seconds()
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	return result{Scenario: "webhook", Concurrency: c, Requests: len(lat), Errors: errs,
		PerSecond: float64(len(lat)) / span, P50Ms: pct(0.5), P99Ms: pct(0.99), DurationS: span}
}

// waitProfilers waits until every process serves its profiles: a worker or the scheduler may
// still be starting when the api is ready.
func waitProfilers(addrs map[string]string) error {
	for proc, addr := range addrs {
		for deadline := time.Now().Add(60 * time.Second); ; {
			res, err := http.Get("http://" + addr + "/debug/pprof/")
			if err == nil {
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s serves no profiles on %s", proc, addr)
			}
			time.Sleep(100 * time.Millisecond) // polling a starting process; no signal to wait on
		}
	}
	return nil
}

// profile starts a CPU profile of each process in addrs over the coming load (duration less a
// second, at least one) and returns a function that waits for them and writes each to
// profileDir/<name>-<process>.pprof. With no addresses it does nothing.
func profile(addrs map[string]string, duration time.Duration, name string) func() error {
	if profileDir == "" || len(addrs) == 0 {
		return func() error { return nil }
	}
	secs := max(1, int(duration.Seconds())-1)
	errs := make(chan error, len(addrs))
	for proc, addr := range addrs {
		go func() {
			errs <- func() error {
				res, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs))
				if err != nil {
					return fmt.Errorf("profile %s: %w", proc, err)
				}
				defer res.Body.Close()
				if res.StatusCode != http.StatusOK {
					return fmt.Errorf("profile %s: status %d", proc, res.StatusCode)
				}
				if err := os.MkdirAll(profileDir, 0o755); err != nil {
					return err
				}
				f, err := os.Create(filepath.Join(profileDir, name+"-"+proc+".pprof"))
				if err != nil {
					return err
				}
				if _, err := io.Copy(f, res.Body); err != nil {
					f.Close()
					return err
				}
				return f.Close()
			}()
		}()
	}
	return func() error {
		var first error
		for range addrs {
			if err := <-errs; err != nil && first == nil {
				first = err
			}
		}
		return first
	}
}
