package expr

import (
	"testing"
	"time"

	"github.com/flowmill/flowmill/pkg/workflow"
)

func TestScratch(t *testing.T) {
	e, _ := New(Options{Timeout: 300 * time.Millisecond})
	c := &Context{Items: []workflow.Item{{JSON: map[string]any{"a": 1.0, "list": []any{1.0, 2.0}, "o": map[string]any{"x": "y"}}}, {JSON: map[string]any{"a": 2.0}}}}
	for _, s := range []string{
		"={{ Array.isArray($json.list) }}",
		"={{ JSON.stringify($json) }}",
		"={{ Object.keys($json) }}",
		"={{ ({...$json.o, z: 1}) }}",
		"={{ $json.list.map(x => x * 2) }}",
		"={{ $input.all().map(i => i.json.a) }}",
		"={{ $input.all().length }}",
		"={{ Array.isArray($input.all()) }}",
		"={{ $items().map(i => i.json.a).join(',') }}",
		"={{ $json.list.includes(2) }}",
		"={{ [...$json.list, 3] }}",
		"={{ $json.o === $json.o }}",
		"={{ (()=>{while(true){}})() }}",
		"={{ $now.toLocaleString() }}",
		"={{ $now.toLocaleString(DateTime.DATETIME_MED) }}",
		"={{ $now.toLocaleString(DateTime.DATETIME_FULL) }}",
		"={{ $now.toFormat('DDD t ZZZZZ') }}",
		"={{ $now.toRelative() }}",
		"={{ $today }}",
		"={{ DateTime.now().zoneName }}",
		"={{ Duration.fromObject({hours: 2}).toISO() }}",
		"={{ Duration.fromObject({hours: 2, minutes: 3}).toHuman() }}",
		"={{ new Date(0) }}",
		"=x {{ new Date(0) }}",
		"=x {{ $now }}",
		"={{ typeof require + typeof process + typeof fetch + typeof XMLHttpRequest + typeof setTimeout }}",
		"={{ x = 5 }}{{ typeof x }}",
		"={{ const q = 1; q + 1 }}",
		"={{ $jmespath($json, 'list[?@ > `1`]') }}",
		"={{ $json.a; }}",
		"={{ $workflow }}",
		"={{ 1/0 }}",
		"={{ [1/0] }}",
		"={{ function f(){ return f() }; f() }}",
		"={{ 10n }}",
	} {
		t0 := time.Now()
		v, err := e.Evaluate(s, c)
		t.Logf("%s => %#v %v (%s)", s, v, err, time.Since(t0))
	}
}
