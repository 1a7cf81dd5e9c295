package datetime

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
)

// zoneDirs are where the host's zone database may live; Go embeds the data, not the list of
// names, so the list comes from the host.
var zoneDirs = []string{os.Getenv("ZONEINFO"), "/usr/share/zoneinfo", "/usr/share/lib/zoneinfo", "/usr/lib/locale/TZ"}

// timezones answers getTimezones: every zone name the host's database holds (moment-timezone's
// tz.names()), or UTC alone when there is none.
func timezones(context.Context, nodes.LoadOptionsRequest) ([]nodes.OptionValue, error) {
	var names []string
	for _, dir := range zoneDirs {
		if dir == "" {
			continue
		}
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(dir, path)
			if d.IsDir() {
				if rel == "posix" || rel == "right" {
					return fs.SkipDir
				}
				return nil
			}
			if rel[0] < 'A' || rel[0] > 'Z' || strings.ContainsAny(rel, ".") || rel == "Factory" {
				return nil
			}
			if _, err := time.LoadLocation(filepath.ToSlash(rel)); err == nil {
				names = append(names, filepath.ToSlash(rel))
			}
			return nil
		})
		if len(names) > 0 {
			break
		}
	}
	if len(names) == 0 {
		names = []string{"UTC"}
	}
	slices.Sort(names)
	out := make([]nodes.OptionValue, len(names))
	for i, n := range names {
		out[i] = nodes.OptionValue{Name: n, Value: n}
	}
	return out, nil
}
