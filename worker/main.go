// Command worker runs queued workflow executions. Start any number of them next to the api, all
// with the same FLOWMILL_DATABASE_URL, FLOWMILL_REDIS_URL and FLOWMILL_ENCRYPTION_KEY.
//
// `worker execute --file workflow.json` instead runs one workflow file with no services and
// prints the result as JSON.
package main

import (
	"fmt"
	"os"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/worker"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "execute" {
		os.Exit(runExecute(os.Args[2:], os.Stdout, os.Stderr))
	}
	err := infra.RunProcess("worker", os.Args[1:], func(in *infra.Infra) (infra.Component, error) { return worker.New(in) })
	if err != nil {
		fmt.Fprintln(os.Stderr, "flowmill worker:", infra.OneLine(err))
		os.Exit(1)
	}
}
