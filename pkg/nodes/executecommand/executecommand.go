// Package executecommand is the Execute Command node (version 1): it runs a shell command on
// the host, once or once per item, and outputs its exit code, stderr and stdout. A command
// that fails (non-zero exit, killed) fails the item with Node's "Command failed" message, as
// n8n's node does. It gives whoever edits workflows a shell on the host, so instances leave it
// out unless an admin turns it on (FLOWMILL_NODES_ENABLE, see config.OffByDefaultNodes).
package executecommand

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/workflow"
)

//go:embed description.json
var descriptionJSON []byte

// Name is the node type name, for excluding it from a registry.
const Name = "n8n-nodes-base.executeCommand"

// Type returns the node type for registration.
func Type() nodes.Type {
	return nodes.Define(descriptionJSON, nodes.KindAction, execute)
}

func execute(ctx context.Context, ex *nodes.Execution) ([][]workflow.Item, error) {
	items := ex.InputData(0)
	once, err := ex.ParamBool("executeOnce", 0)
	if err != nil {
		return nil, err
	}
	if once && len(items) > 1 {
		items = items[:1]
	}
	out := make([]workflow.Item, 0, len(items))
	for i := range items {
		res, err := runItem(ctx, ex, i)
		if err != nil {
			if !ex.ContinueOnFail() || ctx.Err() != nil {
				return nil, err
			}
			out = append(out, workflow.Item{JSON: workflow.ObjectOf("error", err.Error()),
				PairedItem: &workflow.PairedItems{{Item: i}}})
			continue
		}
		out = append(out, workflow.Item{JSON: res, PairedItem: &workflow.PairedItems{{Item: i}}})
	}
	return [][]workflow.Item{out}, nil
}

func runItem(ctx context.Context, ex *nodes.Execution, i int) (*workflow.Object, error) {
	command, err := ex.ParamString("command", i)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Children of the shell die with it on cancellation, and a child keeping the pipes open
	// cannot hold the node up for long.
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if _, ok := err.(*exec.ExitError); !ok {
			return nil, nodes.Errorf(i, "%s", err.Error())
		}
		return nil, nodes.Errorf(i, "%s", fmt.Sprintf("Command failed: %s\n%s", command, stderr.String()))
	}
	return workflow.ObjectOf(
		"exitCode", 0.0,
		"stderr", strings.TrimSpace(stderr.String()),
		"stdout", strings.TrimSpace(stdout.String()),
	), nil
}
