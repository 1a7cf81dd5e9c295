package execution_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowmill/flowmill/pkg/store"
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
