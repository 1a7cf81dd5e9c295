// Command worker runs queued workflow executions. Start any number of them next to the api, all
// with the same FLOWMILL_DATABASE_URL, FLOWMILL_REDIS_URL and FLOWMILL_ENCRYPTION_KEY.
//
// `worker execute --file workflow.json` instead runs one workflow file with no services and
// prints the result as JSON; `worker execute --id ID` runs a stored workflow. The commands of
// package cli (import:workflow, export:workflow, …) and --help and --version work here too.
package main

import (
	"os"

	"github.com/flowmill/flowmill/pkg/cli"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/worker"
)

// version is the release, set at build time (-X main.version).
var version = "0.1.0"

func main() {
	os.Exit(cli.Main(cli.Program{Name: "worker", Version: version, Execute: runExecute,
		Summary: "runs queued executions, FLOWMILL_WORKER_CONCURRENCY at a time (needs FLOWMILL_DATABASE_URL and FLOWMILL_REDIS_URL)",
		Serve: func(args []string) error {
			return infra.RunProcess("worker", args, func(in *infra.Infra) (infra.Component, error) { return worker.New(in) })
		}}, os.Args[1:], os.Stdout, os.Stderr))
}
