// Package flowmill_test holds rules about which packages may depend on which, checked over the
// real import graph (go list -deps), so a forbidden import fails the tests however indirect it is.
package flowmill_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// layerRules: the packages on the left must not depend, directly or through anything they import,
// on a package matching forbidden.
var layerRules = []struct {
	packages  []string
	forbidden string
	why       string
}{
	{
		packages:  []string{"./pkg/auth", "./pkg/push"},
		forbidden: `^(gorm\.io/|github\.com/jackc/pgx|github\.com/glebarez/|modernc\.org/sqlite|github\.com/flowmill/flowmill/pkg/store$)`,
		why:       "sessions, rate limits and the push hub run without the database; they reach Redis through pkg/bus",
	},
}

func TestLayers(t *testing.T) {
	for _, r := range layerRules {
		forbidden := regexp.MustCompile(r.forbidden)
		for _, pkg := range r.packages {
			out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
			if err != nil {
				t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
			}
			var bad []string
			for dep := range strings.FieldsSeq(string(out)) {
				if forbidden.MatchString(dep) {
					bad = append(bad, dep)
				}
			}
			if len(bad) > 0 {
				t.Errorf("%s must not depend on %s (%s)", pkg, strings.Join(bad, ", "), r.why)
			}
		}
	}
}
