package postgres

import (
	"regexp"
	"strconv"
	"strings"
)

// statements splits SQL text at its top-level semicolons, leaving those inside quotes, quoted
// identifiers, dollar-quoted bodies and comments alone; empty statements are dropped.
func statements(sql string) []string {
	var out []string
	start := 0
	for i := 0; i < len(sql); i++ {
		switch c := sql[i]; {
		case c == '\'' || c == '"':
			j := strings.IndexByte(sql[i+1:], c)
			if j < 0 {
				i = len(sql)
			} else {
				i += j + 1
			}
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				i = len(sql)
			} else {
				i += j
			}
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				i = len(sql)
			} else {
				i += j + 3
			}
		case c == '$':
			if tag := dollarTag.FindString(sql[i:]); tag != "" {
				j := strings.Index(sql[i+len(tag):], tag)
				if j < 0 {
					i = len(sql)
				} else {
					i += len(tag) + j + len(tag) - 1
				}
			}
		case c == ';':
			if s := strings.TrimSpace(sql[start:i]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if start < len(sql) {
		if s := strings.TrimSpace(sql[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var dollarTag = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)?\$`)

var paramRef = regexp.MustCompile(`\$(\d+)`)

// highestParam is the highest $n a statement refers to (0 for none); references inside
// literals count too, which only means passing a value the statement ignores.
func highestParam(st string) int {
	n := 0
	for _, m := range paramRef.FindAllStringSubmatch(st, -1) {
		if k, err := strconv.Atoi(m[1]); err == nil && k > n {
			n = k
		}
	}
	return n
}
