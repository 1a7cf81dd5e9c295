// Package executecommand is the Execute Command node (version 1): it runs a shell command on
// the host, once or once per item, and outputs its exit code, stderr and stdout. A command
// that fails (non-zero exit, killed) fails the item with Node's "Command failed" message, as
// n8n's node does. It gives whoever edits workflows a shell on the host, so instances leave it
// out unless an admin turns it on (FLOWMILL_NODES_ENABLE, see config.OffByDefaultNodes).
//
// Turned on, a command still starts inside the fence as far as it can be drawn around a shell:
// its working folder is the file nodes' folder (FLOWMILL_FILES_DIR), its environment has no
// Flowmill settings (the encryption key, database and Redis URLs), and each of its
// output streams is capped at MaxOutput, past which it is killed.
package executecommand

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
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
	dir, err := workDir(ex)
	if err != nil {
		return nil, nodes.Errorf(i, "%s", err.Error())
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	stdout, stderr := &capped{stop: stop}, &capped{stop: stop}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Dir, cmd.Env = dir, commandEnv(os.Environ())
	// Children of the shell die with it on cancellation, and a child keeping the pipes open
	// cannot hold the node up for long.
	killGroup(cmd)
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errOutputTooLarge) {
			return nil, nodes.Errorf(i, "%s", cause.Error())
		}
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

// MaxOutput is the most bytes a command may write to stdout, and to stderr, before it is killed.
const MaxOutput = 16 << 20

var errOutputTooLarge = fmt.Errorf("Command output exceeds %d MiB: the command was stopped", MaxOutput>>20)

// capped is a buffer that stops the command once it holds MaxOutput bytes. The buffer is a
// field, not embedded: an embedded bytes.Buffer's ReadFrom would let io.Copy bypass Write.
type capped struct {
	buf  bytes.Buffer
	stop context.CancelCauseFunc
}

func (c *capped) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > MaxOutput {
		c.stop(errOutputTooLarge)
		return 0, errOutputTooLarge
	}
	return c.buf.Write(p)
}

func (c *capped) String() string { return c.buf.String() }

// workDir is the folder commands start in: the file nodes' folder, or the process's own when
// the run has no file fence (tests without a Host).
func workDir(ex *nodes.Execution) (string, error) {
	files := ex.Host().Files
	if files == nil {
		return "", nil
	}
	return files.Resolve(".")
}

// commandEnv is the process environment without Flowmill's settings, so a command cannot print
// the encryption key or the database password by reading its environment.
func commandEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "FLOWMILL_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}
