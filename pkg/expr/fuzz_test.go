package expr

import (
	"strings"
	"testing"
	"time"
)

// FuzzEvaluate feeds arbitrary templates to the parser and evaluator: whatever the input,
// Evaluate returns a value or an *Error, and never hits an internal error (a Go panic that
// the evaluator caught).
func FuzzEvaluate(f *testing.F) {
	for _, seed := range []string{
		"{{ $json.name }}", "a {{ 1 }} b {{ [1,2] }}", "{{ {a: {b: 1}} }}", "{{ '}}' }}",
		"{{ `${ {x: 1}.x }` }}", "\\{{ x }}", "{{ 1 /* }} */ }}", "{{", "}}", "{{ $node[\"Set\"].json }}",
		"{{ $(\"Set\").item.json }}", "{{ $items(\"IF\", 1) }}", "{{ $now.toFormat('yyyy') }}",
		"{{ $jmespath($json, 'a') }}", "{{ const a = 1; a }}", "{{ $item(0).$parameter.value }}",
		"{{ (function f() { return f() })() }}",
	} {
		f.Add(seed)
	}
	e, err := New(Options{Timeout: 50 * time.Millisecond})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		parseTemplate(src)
		_, err := e.Evaluate("="+src, fixtureContext())
		if err == nil {
			return
		}
		ee, ok := err.(*Error)
		if !ok {
			t.Fatalf("error of type %T: %v", err, err)
		}
		if strings.HasPrefix(ee.Message, "internal error") {
			t.Fatalf("%v\n%v", ee, ee.cause)
		}
	})
}
