package config

import (
	"fmt"
	"strings"
)

// Markdown renders the registry as the settings table of README.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| Variable | Flag | Default | Meaning |\n|---|---|---|---|\n")
	for _, s := range registry {
		def := s.Default
		if def == "" {
			def = "(empty)"
		}
		help := s.Help
		if s.Secret {
			help += " Secret: never logged."
		}
		fmt.Fprintf(&b, "| `%s` | `--%s` | `%s` | %s |\n", s.Env, s.Flag, def, help)
	}
	return b.String()
}
