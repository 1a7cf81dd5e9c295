// Command scheduler fires schedules, resumes waiting executions and re-queues orphaned ones. Any
// number may run: each firing is deduplicated by its task id.
package main

import (
	"fmt"
	"os"

	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/scheduler"
)

func main() {
	err := infra.RunProcess("scheduler", os.Args[1:], func(in *infra.Infra) (infra.Component, error) { return scheduler.New(in) })
	if err != nil {
		fmt.Fprintln(os.Stderr, "flowmill scheduler:", infra.OneLine(err))
		os.Exit(1)
	}
}
