// Package timezone is the one list of IANA time zone names: generated from the time zone
// database embedded in Go (time/tzdata), so every host offers the same zones and each of them
// loads with time.LoadLocation.
package timezone

//go:generate go run gen.go

import (
	"slices"
	"strings"

	_ "time/tzdata" // every listed name must load on hosts without a zoneinfo database
)

// areas are the geographic top-level folders; the other names are legacy aliases (US/Eastern,
// Etc/GMT+5, EST5EDT, …).
var areas = []string{"Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia",
	"Europe", "Indian", "Pacific"}

// Names returns every zone name, legacy aliases included (moment-timezone's tz.names()), sorted.
// The caller may keep the slice; it is a copy.
func Names() []string {
	return slices.Clone(names)
}

// Places returns UTC and the zones under the geographic areas, sorted: the list the editor
// offers for a workflow's time zone, without the legacy aliases.
func Places() []string {
	out := []string{"UTC"}
	for _, n := range names {
		if area, _, ok := strings.Cut(n, "/"); ok && slices.Contains(areas, area) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
