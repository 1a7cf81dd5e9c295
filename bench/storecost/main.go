// Command storecost measures what the database writes of one execution cost Postgres by
// themselves: concurrent clients call the store's own create, claim and finish (the three
// statements of a saved webhook execution on the scaled path), with no api, worker or Redis
// running, against a scratch database. It prints one JSON line: executions per second, the
// Postgres backends' CPU ms per execution, the calling process's own CPU ms per execution, and
// the statements, round trips and transactions per execution (bench/internal/cost).
//
// It separates the database's share of an execution from everything else: what bench/webhook
// reports for Postgres minus this figure is what the rest of the pipeline adds to it.
//
//	go run ./bench/storecost -concurrency 10 -duration 15s
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/flowmill/flowmill/bench/internal/benchstack"
	"github.com/flowmill/flowmill/bench/internal/cost"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/store/storetest"
	"github.com/flowmill/flowmill/pkg/workflow"
)

type result struct {
	Scenario    string  `json:"scenario"`
	Concurrency int     `json:"concurrency"`
	Executions  int64   `json:"executions"`
	PerSecond   float64 `json:"executions_per_second"`
	ClientCPUMs float64 `json:"client_cpu_ms_per_execution"`
	DataBytes   int     `json:"data_bytes"`
	cost.Report
}

func main() {
	concurrency := flag.Int("concurrency", 10, "concurrent clients")
	duration := flag.Duration("duration", 15*time.Second, "measured time")
	dataBytes := flag.Int("data-bytes", 2500, "approximate size of the workflow snapshot and of the run data")
	flag.Parse()
	if err := run(*concurrency, *duration, *dataBytes); err != nil {
		fmt.Fprintln(os.Stderr, "bench storecost:", err)
		os.Exit(1)
	}
}

func run(concurrency int, duration time.Duration, dataBytes int) error {
	ctx := context.Background()
	dbURL, drop, err := storetest.CreateDatabase(ctx, storetest.PostgresURL())
	if err != nil {
		return err
	}
	defer drop()
	target, err := benchstack.TargetAddr(dbURL)
	if err != nil {
		return err
	}
	counter, err := cost.ListenPG(target)
	if err != nil {
		return err
	}
	defer counter.Close()
	viaCounter := strings.Replace(dbURL, target, counter.Addr(), 1)
	s, err := store.Open(ctx, store.Options{DatabaseURL: viaCounter, MaxOpenConns: concurrency})
	if err != nil {
		return err
	}
	defer s.Close()
	direct, err := sql.Open("pgx", dbURL)
	if err != nil {
		return err
	}
	defer direct.Close()

	snapshot, runData, start := sampleDocs(dataBytes)
	one := func(worker int) error {
		e := &store.Execution{WorkflowName: "bench", Status: workflow.StatusNew, Mode: workflow.ModeWebhook, UserID: "bench"}
		if err := s.CreateExecution(ctx, e, &store.ExecutionData{WorkflowData: snapshot, StartData: start}); err != nil {
			return err
		}
		owner := fmt.Sprintf("bench-%d-%d", worker, e.ID)
		if _, err := s.ClaimExecution(ctx, e.ID, owner, 30*time.Second); err != nil {
			return err
		}
		ok, err := s.FinishExecution(ctx, e.ID, owner, store.Outcome{Status: workflow.StatusSuccess, Data: runData,
			Answer: []byte(`{"status":200,"body":{"n":1}}`)})
		if err == nil && !ok {
			err = fmt.Errorf("execution %d was not finished", e.ID)
		}
		return err
	}
	// Warm up: connections, prepared statements, the first pages of each table.
	for i := range 50 {
		if err := one(i); err != nil {
			return err
		}
	}

	probe := cost.New(cost.Config{DB: direct, PG: counter})
	defer probe.Close()
	if err := probe.Begin(ctx); err != nil {
		return err
	}
	cpu0 := selfCPUMs()
	began := time.Now()
	var done atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	for w := range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Since(began) < duration {
				if err := one(w); err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	if firstErr != nil {
		return firstErr
	}
	n := done.Load()
	rep, err := probe.End(ctx, int(n))
	if err != nil {
		return err
	}
	r := result{Scenario: "storecost", Concurrency: concurrency, Executions: n, PerSecond: float64(n) / elapsed.Seconds(),
		ClientCPUMs: (selfCPUMs() - cpu0) / float64(max(n, 1)), DataBytes: len(runData), Report: rep}
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	return nil
}

// sampleDocs makes a workflow snapshot, run data and start data of about size bytes each,
// shaped like those of a four-node webhook workflow (repeated keys, short values), so that
// Postgres compresses them as it would real ones.
func sampleDocs(size int) (snapshot, runData, start store.JSON) {
	var nodes, runs []string
	for i := 0; len(strings.Join(nodes, ",")) < size; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"name":"Node %d","type":"n8n-nodes-base.set","typeVersion":1,"position":[%d,0],"parameters":{"values":{"number":[{"name":"n%d","value":"={{ $json.body.n + %d }}"}]}}}`, i, i*200, i, i))
	}
	for i := 0; len(strings.Join(runs, ",")) < size; i++ {
		runs = append(runs, fmt.Sprintf(`"Node %d":[{"startTime":%d,"executionTime":%d,"source":[{"previousNode":"Node %d"}],"data":{"main":[[{"json":{"n":%d,"headers":{"host":"127.0.0.1","content-type":"application/json"}}}]]}}]`, i, 1795000000000+i, i%3, i-1, i))
	}
	snapshot = store.JSON(`{"id":"bench","name":"bench","nodes":[` + strings.Join(nodes, ",") + `],"connections":{},"settings":{}}`)
	runData = store.JSON(`{"resultData":{"runData":{` + strings.Join(runs, ",") + `},"lastNodeExecuted":"Node 0"}}`)
	start = store.JSON(`{"item":{"json":{"headers":{"host":"127.0.0.1","content-type":"application/json"},"params":{},"query":{},"body":{"n":1}}},"respond":true}`)
	return snapshot, runData, start
}

// selfCPUMs is this process's user plus system CPU time in milliseconds.
func selfCPUMs() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}
