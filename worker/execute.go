package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/flowmill/flowmill/pkg/cli"
	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/egress"
	"github.com/flowmill/flowmill/pkg/engine"
	"github.com/flowmill/flowmill/pkg/expr"
	"github.com/flowmill/flowmill/pkg/filefence"
	"github.com/flowmill/flowmill/pkg/infra"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

// runExecute implements `worker execute --file workflow.json [--mode manual|webhook|trigger]
// [--input items.json]`: it runs a workflow file without any services and prints one JSON
// object {finished, nodeExecutionOrder, data: {resultData: {runData, lastNodeExecuted, error}}}.
// Exit status: 0 finished (or waiting), 1 failed run, 2 unreadable input. `worker execute --id
// ID` instead runs a stored workflow as an execution (cli.ExecuteStored).
func runExecute(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("execute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("file", "", "workflow JSON file to run (required)")
	mode := fs.String("mode", string(workflow.ModeManual), "execution mode: manual, webhook or trigger")
	inputFile := fs.String("input", "", "JSON file with the start node's input items")
	timezone := fs.String("timezone", "", "default time zone for $now and $today (default America/New_York)")
	id := fs.String("id", "", "id of a stored workflow to run as an execution (instead of --file)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *id != "" {
		if *file != "" || *inputFile != "" {
			fmt.Fprintln(stderr, "worker execute: --id runs a stored workflow; --file and --input do not go with it")
			return 2
		}
		return cli.ExecuteStored(*id, stdout, stderr)
	}
	if *file == "" {
		fmt.Fprintln(stderr, "worker execute: --file or --id is required")
		return 2
	}
	switch workflow.Mode(*mode) {
	case workflow.ModeManual, workflow.ModeWebhook, workflow.ModeTrigger:
	default:
		fmt.Fprintf(stderr, "worker execute: unknown mode %q (want manual, webhook or trigger)\n", *mode)
		return 2
	}
	doc, err := os.ReadFile(*file)
	if err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		return 2
	}
	var input []workflow.Item
	if *inputFile != "" {
		b, err := os.ReadFile(*inputFile)
		if err != nil {
			fmt.Fprintln(stderr, "worker execute:", err)
			return 2
		}
		if input, err = engine.ParseItems(b); err != nil {
			fmt.Fprintln(stderr, "worker execute:", err)
			return 2
		}
	}

	cfg, err := config.Load(nil, os.Getenv)
	if err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		return 1
	}
	scriptTimeout, scriptMemory := cfg.ScriptLimits()
	ev, err := expr.New(expr.Options{DefaultTimezone: *timezone, ScriptTimeout: scriptTimeout, MemoryLimit: scriptMemory})
	if err != nil {
		fmt.Fprintln(stderr, "worker execute: expressions:", err)
		return 1
	}
	files, err := filefence.New(filefence.Options{Root: cfg.FilesDir, DataDir: cfg.DataDir})
	if err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		return 1
	}
	registry, err := infra.BuildNodes(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		return 1
	}
	eng, err := engine.New(engine.Options{
		Registry:  registry,
		Evaluator: ev,
		Logger:    slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Env:       config.NodeEnvironment(),
		Host: nodes.Host{Files: files, HTTP: cfg.Egress().Client(egress.Options{}), Workflows: cfg.WorkflowLimits(),
			UnpackMaxBytes: cfg.UnpackMaxBytes()},
	})
	if err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := eng.ExecuteDocument(ctx, doc, workflow.Mode(*mode), input)
	if err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		if errors.Is(err, engine.ErrBadInput) {
			return 2
		}
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		fmt.Fprintln(stderr, "worker execute:", err)
		return 1
	}
	// A run put to wait (a long Wait) did not fail; it is printed with its waitTill.
	if !rep.Finished && rep.Status != workflow.StatusWaiting {
		return 1
	}
	return 0
}
