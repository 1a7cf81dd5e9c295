// Command scheduler fires schedules, resumes waiting executions and re-queues orphaned ones. Any
// number may run: each firing is deduplicated by its task id. The commands of package cli
// (import:workflow, export:workflow, …) and --help and --version work here too.
package main

import (
	"os"

	"github.com/flowmill/flowmill/pkg/cli"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/scheduler"
)

// version is the release, set at build time (-X main.version).
var version = "0.1.0"

func main() {
	os.Exit(cli.Main(cli.Program{Name: "scheduler", Version: version,
		Summary: "fires schedule and poll triggers, resumes waiting executions, prunes old ones and re-queues orphaned ones (needs FLOWMILL_DATABASE_URL and FLOWMILL_REDIS_URL)",
		Serve: func(args []string) error {
			return infra.RunProcess("scheduler", args, func(in *infra.Infra) (infra.Component, error) { return scheduler.New(in) })
		}}, os.Args[1:], os.Stdout, os.Stderr))
}
