package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCommandLineOnTheScaledStack imports a workflow with bin/scheduler's command line into a
// scaled deployment's Postgres and runs it with bin/worker execute --id: the execution goes
// through Redis to the separate worker process, and the command prints its result.
func TestCommandLineOnTheScaledStack(t *testing.T) {
	env := scaledEnv(t)
	command := func(bin string, args ...string) (int, string, string) {
		cmd := exec.Command(filepath.Join(binaries(t), bin), args...)
		cmd.Env = append(os.Environ(), "FLOWMILL_LOG_LEVEL=warn")
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		_ = cmd.Run()
		return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
	}

	code, _, errOut := command("worker", "execute", "--id", "nope")
	require.Equal(t, 2, code, errOut)

	code, _, errOut = command("scheduler", "import:workflow", "--input", "../pkg/cli/testdata/n8n-workflows.json")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, errOut, "Successfully imported 2 workflows")

	// No worker yet: nobody would take the execution.
	code, _, errOut = command("worker", "execute", "--id", "Ab3dE5fG7hI9jK1l")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no worker is running")

	w := startProc(t, "worker", env)
	var out string
	require.Eventually(t, func() bool {
		code, out, errOut = command("worker", "execute", "--id", "Ab3dE5fG7hI9jK1l")
		return code == 0
	}, 30*time.Second, 200*time.Millisecond, "execute --id: %s %s\n%s", out, errOut, w.output.String())
	var res struct {
		Status   string `json:"status"`
		Finished bool   `json:"finished"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Equal(t, "success", res.Status)
	require.True(t, res.Finished)
}
