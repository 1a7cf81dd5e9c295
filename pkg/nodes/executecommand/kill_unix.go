//go:build unix

package executecommand

import (
	"os/exec"
	"syscall"
)

// killGroup runs the command in its own process group and kills the whole group on
// cancellation.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
