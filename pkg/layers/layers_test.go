// Package layers_test holds the import rules between Flowmill's packages, checked on every test
// run (make test): a package that depends, directly or through others, on what its layer may
// not fails the test, which names both packages and the rule.
package layers_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/flowmill/flowmill"

// rule forbids the packages under from (and from itself) to depend, directly or indirectly, on
// any package under the forbidden prefixes.
type rule struct {
	why       string
	from      []string
	forbidden []string
}

// rules are the layers written down in docs/ARCHITECTURE.md.
var rules = []rule{
	{
		why:       "the engine, expressions, nodes and workflow model are pure: they run workflows without knowing where they are stored or how work is queued",
		from:      []string{"pkg/engine", "pkg/expr", "pkg/workflow"},
		forbidden: []string{"pkg/store", "pkg/queue", "pkg/push", "pkg/bus", "pkg/infra", "api", "gorm.io", "github.com/hibiken/asynq", "github.com/redis/go-redis"},
	},
	{
		why:       "nodes are pure too; the Redis node speaks to a Redis of the user's through its own client (pkg/redisclient), never the process's",
		from:      []string{"pkg/nodes"},
		forbidden: []string{"pkg/store", "pkg/queue", "pkg/push", "pkg/bus", "pkg/infra", "pkg/redisconn", "api", "gorm.io", "github.com/hibiken/asynq"},
	},
	{
		why:       "packages under pkg/ never reach back into the HTTP layer",
		from:      []string{"pkg"},
		forbidden: []string{"api"},
	},
	{
		why:       "sessions, rate limits and the push hub work without the database: they reach Redis through pkg/bus alone",
		from:      []string{"pkg/auth", "pkg/push"},
		forbidden: []string{"pkg/store", "pkg/queue", "pkg/infra", "gorm.io", "github.com/jackc/pgx", "github.com/glebarez", "modernc.org/sqlite"},
	},
	{
		why:       "the message bus and the task queue speak Redis only: what they carry is ids, the database stays with the packages that own it",
		from:      []string{"pkg/bus", "pkg/queue", "pkg/redisconn"},
		forbidden: []string{"pkg/store", "pkg/infra", "pkg/execution", "gorm.io", "github.com/jackc/pgx", "github.com/glebarez", "modernc.org/sqlite"},
	},
	{
		why:       "the settings registry is read by everything and imports nothing of Flowmill's but the egress network parser",
		from:      []string{"pkg/config"},
		forbidden: []string{"pkg/store", "pkg/queue", "pkg/push", "pkg/engine", "pkg/nodes", "pkg/infra", "api"},
	},
}

// compositionRoots are the only packages that may import pkg/infra (test files aside): the mains,
// the api's wiring, and pkg/worker and pkg/scheduler, which compose the components of their
// role, and pkg/cli, the command line's. Every other component takes a config struct of explicit dependencies and settings.
// pkg/infra/infratest opens infra for tests.
var compositionRoots = []string{"api", "worker", "scheduler", "pkg/worker", "pkg/scheduler", "pkg/cli", "pkg/infra", "pkg/infra/infratest"}

// deps lists every package of the module with its dependencies (transitively), as go list says.
func deps(t *testing.T) map[string][]string { return list(t, "Deps") }

// imports lists every package of the module with its direct imports (test files not included).
func imports(t *testing.T) map[string][]string { return list(t, "Imports") }

// list runs go list over the module with field (Deps or Imports) after each package's path.
func list(t *testing.T, field string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}} {{join .`+field+` " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	m := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 0 {
			m[f[0]] = f[1:]
		}
	}
	return m
}

// under reports whether pkg is prefix or below it; prefix is module-relative unless it names
// another module (it has a dot in its first element).
func under(pkg, prefix string) bool {
	if !strings.Contains(strings.SplitN(prefix, "/", 2)[0], ".") {
		prefix = module + "/" + prefix
	}
	return pkg == prefix || strings.HasPrefix(pkg, prefix+"/")
}

func TestLayers(t *testing.T) {
	all := deps(t)
	if len(all) < 20 {
		t.Fatalf("go list found %d packages; the rules would check nothing", len(all))
	}
	for _, r := range rules {
		checked := 0
		for pkg, ds := range all {
			if !slices.ContainsFunc(r.from, func(p string) bool { return under(pkg, p) }) {
				continue
			}
			checked++
			for _, d := range ds {
				if slices.ContainsFunc(r.forbidden, func(p string) bool { return under(d, p) }) {
					t.Errorf("%s depends on %s: %s", strings.TrimPrefix(pkg, module+"/"), d, r.why)
				}
			}
		}
		if checked == 0 {
			t.Errorf("no package matched %v: the rule %q checks nothing", r.from, r.why)
		}
	}
}

func TestOnlyCompositionRootsImportInfra(t *testing.T) {
	all := imports(t)
	infra := module + "/pkg/infra"
	for pkg, ims := range all {
		if !slices.Contains(ims, infra) {
			continue
		}
		if !slices.ContainsFunc(compositionRoots, func(root string) bool { return pkg == module+"/"+root }) {
			t.Errorf("%s imports pkg/infra: only the composition roots %v may; take a config struct of explicit dependencies instead",
				strings.TrimPrefix(pkg, module+"/"), compositionRoots)
		}
	}
}

// TestNoPackagesFromNpm: go test ./... never walks into a node_modules folder (npm packages may
// ship Go files; go.mod's ignore directive keeps them out).
func TestNoPackagesFromNpm(t *testing.T) {
	for pkg := range imports(t) {
		if strings.Contains(pkg, "/node_modules/") {
			t.Errorf("%s is part of the module: add its node_modules folder to go.mod's ignore", pkg)
		}
	}
}
