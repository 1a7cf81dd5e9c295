package expr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseTemplate(t *testing.T) {
	t.Parallel()
	code := func(s string) segment { return segment{text: s, isCode: true} }
	text := func(s string) segment { return segment{text: s} }
	for _, tc := range []struct {
		src  string
		want []segment
		lone bool
	}{
		{"{{ 1 }}", []segment{code(" 1 ")}, true},
		{"  {{ 1 }}\n", []segment{text("  "), code(" 1 "), text("\n")}, true},
		{"a {{ 1 }}", []segment{text("a "), code(" 1 ")}, false},
		{"{{ 1 }}{{ 2 }}", []segment{code(" 1 "), code(" 2 ")}, false},
		{"{{ {a: {b: 1}} }}", []segment{code(" {a: {b: 1}} ")}, true},
		{`{{ "}}" + '}}' }}`, []segment{code(` "}}" + '}}' `)}, true},
		{"{{ `a${ {x: 1}.x }}}` }}", []segment{code(" `a${ {x: 1}.x }}}` ")}, true},
		{"{{ `${`${1}`}` }}", []segment{code(" `${`${1}`}` ")}, true},
		{"{{ 1 /* }} */ }}", []segment{code(" 1 /* }} */ ")}, true},
		{"{{ 1 // c\n }}", []segment{code(" 1 // c\n ")}, true},
		{"{{ 1 // c }}", []segment{code(" 1 // c ")}, true},
		{`\{{ 1 }}`, []segment{text("{{ 1 }}")}, false},
		{"a {{ 1", []segment{text("a {{ 1")}, false},
		{"{{ 'open }}", []segment{text("{{ 'open }}")}, false},
		{"}} {", []segment{text("}} {")}, false},
		{"", nil, false},
		{`{{ $json.s.replace(/'/g, "") }}`, []segment{code(` $json.s.replace(/'/g, "") `)}, true},
		{`{{ "a}}b".replace(/}}/g, "") }}`, []segment{code(` "a}}b".replace(/}}/g, "") `)}, true},
		{`{{ /[/}]/.test(x) }}`, []segment{code(` /[/}]/.test(x) `)}, true},
		{`{{ a / b }} / {{ c }}`, []segment{code(" a / b "), text(" / "), code(" c ")}, false},
		{`{{ (a) / 2 + x[1] / 3 }}`, []segment{code(" (a) / 2 + x[1] / 3 ")}, true},
		{`{{ typeof /x/ }}`, []segment{code(" typeof /x/ ")}, true},
	} {
		got := parseTemplate(tc.src)
		require.Equal(t, tc.want, got.segments, tc.src)
		require.Equal(t, tc.lone, got.lone, tc.src)
	}
}
