package expr

import (
	"testing"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// BenchmarkSimpleExpression measures one evaluation of a typical parameter expression with a
// warm pool and cache.
func BenchmarkSimpleExpression(b *testing.B) {
	e := newTestEvaluator(b)
	c := &Context{Items: []workflow.Item{{JSON: map[string]any{"a": 1.0}}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate("={{ $json.a + 1 }}", c); err != nil {
			b.Fatal(err)
		}
	}
}
