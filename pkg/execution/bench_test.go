package execution_test

import (
	"context"
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
	for range b.N {
		if _, err := e.svc.Create(ctx, execNew(wf)); err != nil {
			b.Fatal(err)
		}
	}
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
}
