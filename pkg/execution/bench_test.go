package execution_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// BenchmarkPipeline runs executions of a 3-node workflow through the queue and an in-process
// worker on Postgres and Redis, data saved: the cost of one execution end to end.
func BenchmarkPipeline(b *testing.B) {
	e := setup(b, "FLOWMILL_WORKER_CONCURRENCY", "20")
	wf := build(b, "bench", "", start, set, node{name: "IF", typ: "n8n-nodes-base.if",
		params: `{"conditions":{"number":[{"value1":"={{$json.a}}","operation":"equal","value2":1}]}}`})
	ctx := context.Background()
	b.ResetTimer()
	began := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if _, err := e.svc.Create(ctx, execNew(wf)); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	created := time.Since(began)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		var done int64
		e.in.Store.DB.Model(&store.Execution{}).Where("stopped_at IS NOT NULL").Count(&done)
		if done >= int64(b.N) {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("only %d of %d finished", done, b.N)
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.ReportMetric(float64(b.N)/created.Seconds(), "created/s")
	b.ReportMetric(float64(b.N)/time.Since(began).Seconds(), "finished/s")
}

// BenchmarkChainCheckpoints runs a chain of FLOWMILL_BENCH_CHAIN_NODES (default 10,000) No
// Operation nodes through an in-process worker on Postgres and Redis: "editor" from the editor
// (manual mode, a session following it, so every node is checkpointed), "trigger" as a trigger
// run no editor follows (effect-free nodes are not checkpointed). It reports what a run wrote to
// execution_data and execution_checkpoints (their growth on disk, dead row versions included),
// the size of the final data row, and how much the process's peak RSS grew. make bench-chain.
func BenchmarkChainCheckpoints(b *testing.B) {
	n := 10000
	if v := os.Getenv("FLOWMILL_BENCH_CHAIN_NODES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	e := setup(b, "FLOWMILL_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", "true")
	nodes := []node{start}
	for i := 1; i < n; i++ {
		nodes = append(nodes, node{name: fmt.Sprintf("N%d", i), typ: "n8n-nodes-base.noOp"})
	}
	wf := build(b, "chain", "", nodes...)
	ctx := context.Background()
	tableBytes := func() int64 {
		var size int64
		require.NoError(b, e.in.Store.DB.Raw(`SELECT pg_total_relation_size('execution_data') +
			COALESCE(pg_total_relation_size(to_regclass('execution_checkpoints')), 0)`).Scan(&size).Error)
		return size
	}
	for _, tc := range []struct {
		name    string
		mode    workflow.Mode
		session string
	}{{"editor", workflow.ModeManual, "bench-editor"}, {"trigger", workflow.ModeTrigger, ""}} {
		b.Run(tc.name, func(b *testing.B) {
			runtime.GC()
			rssBefore := peakRSS(b)
			before := tableBytes()
			var last int64
			for b.Loop() {
				ex, err := e.svc.Create(ctx, execution.New{Workflow: wf, Mode: tc.mode, SessionID: tc.session})
				require.NoError(b, err)
				done, err := e.svc.Wait(ctx, ex.ID, 30*time.Minute)
				require.NoError(b, err)
				require.Equal(b, workflow.StatusSuccess, done.Status)
				last = ex.ID
			}
			b.StopTimer()
			var final int64
			require.NoError(b, e.in.Store.DB.Raw(`SELECT octet_length(data::text) FROM execution_data WHERE execution_id = ?`, last).Scan(&final).Error)
			b.ReportMetric(float64(tableBytes()-before)/float64(b.N)/(1<<20), "MiB-written/op")
			b.ReportMetric(float64(final)/(1<<20), "MiB-final-row")
			b.ReportMetric(float64(peakRSS(b)-rssBefore)/(1<<20), "MiB-peak-RSS-growth")
		})
	}
}

// peakRSS is the process's peak resident set size (VmHWM), in bytes.
func peakRSS(b *testing.B) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	require.NoError(b, err)
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			require.NoError(b, err)
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
