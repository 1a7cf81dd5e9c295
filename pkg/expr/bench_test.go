package expr

import (
	"testing"

	"github.com/flowmill/flowmill/pkg/workflow"
)

// BenchmarkSimpleExpression measures one evaluation of a typical parameter expression with a
// warm pool and cache.
func BenchmarkSimpleExpression(b *testing.B) {
	e := newTestEvaluator(b)
	c := &Context{Items: []workflow.Item{{JSON: workflow.ObjectFromMap(map[string]any{"a": 1.0})}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate("={{ $json.a + 1 }}", c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMixedTemplate renders text around two segments.
func BenchmarkMixedTemplate(b *testing.B) {
	e := newTestEvaluator(b)
	c := fixtureContext()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate("=Hello {{ $json.name }}, you are number {{ $json.n }}", c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPairedItem reads another node's item through paired-item tracing over two hops.
func BenchmarkPairedItem(b *testing.B) {
	e := newTestEvaluator(b)
	c := fixtureContext()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate(`={{ $("Set").item.json.name }}`, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLuxonFormat formats $now in a zone with daylight-saving time.
func BenchmarkLuxonFormat(b *testing.B) {
	e := newTestEvaluator(b)
	c := &Context{Timezone: "Europe/Berlin"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Evaluate(`={{ $now.plus({days: 1}).toFormat("yyyy-MM-dd HH:mm") }}`, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunScript runs a small Code-node script over 100 items.
func BenchmarkRunScript(b *testing.B) {
	e := newTestEvaluator(b)
	items := make([]workflow.Item, 100)
	for i := range items {
		items[i] = workflow.Item{JSON: workflow.ObjectFromMap(map[string]any{"i": float64(i), "name": "x"})}
	}
	c := &Context{Items: items}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.RunScript(b.Context(), `return $input.all().map(i => ({json: {double: i.json.i * 2}}))`, c, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
