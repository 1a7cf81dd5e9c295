// Command queue measures the execution pipeline end to end: N executions of a 3-node workflow
// are started through the REST API (POST /rest/workflows/run, execution data saved) against the
// scaled stack, and it reports executions per second and the enqueue → finished latency, once
// per worker count. One JSON line per scenario, with what an execution cost each process (CPU
// milliseconds of api, workers, scheduler, Postgres backends and the benchmark's own Redis) and
// the Postgres statements, round trips, transactions and Redis commands it took
// (bench/internal/cost), then a line breaking those statements and commands down.
//
//	go run ./bench/queue -bin bin -executions 10000 -workers 1,2
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/bench/internal/cost"
)

const workflow = `{"name":"bench","nodes":[
 {"name":"Start","type":"n8n-nodes-base.start","typeVersion":1,"position":[0,0],"parameters":{}},
 {"name":"Set","type":"n8n-nodes-base.set","typeVersion":1,"position":[200,0],"parameters":{"values":{"number":[{"name":"n","value":1}]}}},
 {"name":"IF","type":"n8n-nodes-base.if","typeVersion":1,"position":[400,0],"parameters":{"conditions":{"number":[{"value1":"={{$json.n}}","operation":"equal","value2":1}]}}}],
 "connections":{"Start":{"main":[[{"node":"Set","type":"main","index":0}]]},"Set":{"main":[[{"node":"IF","type":"main","index":0}]]}}}`

type result struct {
	Scenario      string  `json:"scenario"`
	Workers       int     `json:"workers"`
	Executions    int     `json:"executions"`
	Succeeded     int     `json:"succeeded"`
	PerSecond     float64 `json:"executions_per_second"`
	EnqueuePerSec float64 `json:"enqueue_per_second"`
	P50Ms         float64 `json:"p50_ms"`
	P99Ms         float64 `json:"p99_ms"`
	DurationS     float64 `json:"duration_s"`
	cost.Report
}

func main() {
	bin := flag.String("bin", "bin", "folder with the Flowmill binaries and bin/stack")
	n := flag.Int("executions", 10000, "executions per scenario")
	workers := flag.String("workers", "1,2", "worker process counts, comma-separated")
	clients := flag.Int("clients", 16, "concurrent REST clients")
	concurrency := flag.Int("concurrency", 20, "FLOWMILL_WORKER_CONCURRENCY of each worker")
	flag.Parse()
	for _, w := range strings.Split(*workers, ",") {
		count, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench queue: bad -workers:", err)
			os.Exit(2)
		}
		r, err := scenario(*bin, count, *n, *clients, *concurrency)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench queue:", err)
			os.Exit(1)
		}
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
		b, _ = json.Marshal(map[string]any{"scenario": "queue-breakdown", "workers": count,
			"pg_statements": cost.Top(r.Statements, 20), "redis_commands": cost.Top(r.Commands, 20)})
		fmt.Println(string(b))
	}
}

func scenario(bin string, workers, n, clients, concurrency int) (result, error) {
	st, err := cost.Launch(context.Background(), benchstack.ClusterConfig{Bin: bin, Workers: workers,
		Env: []string{"FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS=true",
			"FLOWMILL_WORKER_CONCURRENCY=" + strconv.Itoa(concurrency),
			"FLOWMILL_LOG_LEVEL=warn", "FLOWMILL_SHUTDOWN_DRAIN=0s"}})
	if err != nil {
		return result{}, err
	}
	defer st.Stop()
	probe := cost.New(st.Probe)
	defer probe.Close()
	db, err := sql.Open("pgx", st.DatabaseURL)
	if err != nil {
		return result{}, err
	}
	defer db.Close()

	body := []byte(`{"workflowData":` + workflow + `}`)
	jar, err := cookiejar.New(nil)
	if err != nil {
		return result{}, err
	}
	if _, err := benchstack.REST(context.Background(), &http.Client{Jar: jar}, st.URL, "GET", "rest/login", ""); err != nil {
		return result{}, err
	}
	if err := probe.Begin(context.Background()); err != nil {
		return result{}, err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}, Jar: jar}
	var next atomic.Int64
	var failures atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				res, err := client.Post(st.URL+"rest/workflows/run", "application/json", bytes.NewReader(body))
				if err != nil {
					failures.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					failures.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	enqueued := time.Since(start)
	if f := failures.Load(); f > 0 {
		return result{}, fmt.Errorf("%d of %d run requests failed", f, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for {
		var done int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM executions WHERE stopped_at IS NOT NULL").Scan(&done); err != nil {
			return result{}, err
		}
		if done >= n {
			break
		}
		select {
		case <-ctx.Done():
			return result{}, fmt.Errorf("only %d of %d executions finished", done, n)
		case <-time.After(100 * time.Millisecond):
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT EXTRACT(EPOCH FROM (stopped_at - created_at)) * 1000, status,
		EXTRACT(EPOCH FROM created_at), EXTRACT(EPOCH FROM stopped_at) FROM executions`)
	if err != nil {
		return result{}, err
	}
	defer rows.Close()
	var lat []float64
	ok := 0
	first, last := 1e18, 0.0
	for rows.Next() {
		var ms, created, stopped float64
		var status string
		if err := rows.Scan(&ms, &status, &created, &stopped); err != nil {
			return result{}, err
		}
		lat = append(lat, ms)
		if status == "success" {
			ok++
		}
		first, last = min(first, created), max(last, stopped)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	span := last - first
	r := result{Scenario: "queue", Workers: workers, Executions: n, Succeeded: ok,
		PerSecond: float64(n) / span, EnqueuePerSec: float64(n) / enqueued.Seconds(),
		P50Ms: pct(0.5), P99Ms: pct(0.99), DurationS: span}
	r.Report, err = probe.End(ctx, n)
	return r, err
}
