package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"time"

	"github.com/flowmill/flowmill/pkg/bus"
	"github.com/flowmill/flowmill/pkg/execution"
	"github.com/flowmill/flowmill/pkg/store"
	"github.com/flowmill/flowmill/pkg/worker"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// executeResult is what execute --id prints: the execution's id, status and stored data (n8n's
// run data under data.resultData).
type executeResult struct {
	ID       string          `json:"id"`
	Finished bool            `json:"finished"`
	Status   workflow.Status `json:"status"`
	Data     json.RawMessage `json:"data"`
}

// ExecuteStored runs the stored workflow id as an execution of mode cli and prints its result as
// JSON to stdout. In a scaled deployment (FLOWMILL_REDIS_URL set) a running worker takes it;
// in the embedded default this process runs it. Exit status: 0 success (or waiting), 1 failed
// run or error, 2 unknown workflow.
func ExecuteStored(id string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	env := &Env{Stdout: stdout, Stderr: stderr, process: "worker"}
	defer env.close()
	code, err := executeStored(ctx, env, id)
	if err != nil {
		fmt.Fprintf(stderr, "flowmill worker execute: %v\n", err)
	}
	return code
}

func executeStored(ctx context.Context, env *Env, id string) (int, error) {
	in, err := env.open(ctx)
	if err != nil {
		return 1, err
	}
	w, err := in.Store.GetWorkflow(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return ExitUsage, fmt.Errorf("no workflow with id %q", id)
	}
	if err != nil {
		return 1, err
	}
	doc, err := w.Document()
	if err != nil {
		return 1, err
	}
	wf, err := in.Config.WorkflowLimits().Parse(doc)
	if err != nil {
		return 1, fmt.Errorf("workflow %s: %w", id, err)
	}
	if in.Config.Embedded() {
		// Nobody else reads this process's own Redis: run it here.
		wk, err := worker.New(in)
		if err != nil {
			return 1, err
		}
		if err := wk.Start(ctx); err != nil {
			return 1, err
		}
		defer wk.Stop()
	} else if live, err := bus.LiveInstances(ctx, in.Redis, bus.RoleWorker); err != nil || len(live) == 0 {
		return 1, errors.New("no worker is running to take the execution: start bin/worker with the same settings")
	}
	svc, err := execution.NewService(execution.ServiceConfig{Store: in.Store, Queue: in.Queue, Redis: in.Redis})
	if err != nil {
		return 1, err
	}
	e, err := svc.Create(ctx, execution.New{Workflow: wf, Snapshot: doc, Mode: workflow.ModeCLI})
	if err != nil {
		return 1, err
	}
	fmt.Fprintf(env.Stderr, "Execution %d of workflow %s (%q) started.\n", e.ID, w.ID, w.Name)
	// The run's own time limit applies; this waits for it however long it takes.
	done, err := svc.Wait(ctx, e.ID, 100*365*24*time.Hour)
	if err != nil {
		return 1, err
	}
	out := executeResult{ID: execution.IDString(done.ID), Status: done.Status, Data: json.RawMessage("null"),
		Finished: done.Status == workflow.StatusSuccess}
	if d, err := in.Store.GetExecutionData(ctx, done.ID); err == nil && len(d.Data) > 0 {
		out.Data = json.RawMessage(d.Data)
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return 1, err
	}
	if slices.Contains([]workflow.Status{workflow.StatusSuccess, workflow.StatusWaiting}, done.Status) {
		return 0, nil
	}
	return 1, fmt.Errorf("execution %d ended %s", done.ID, done.Status)
}
