package benchstack

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the process get SIGKILL if this program dies without stopping it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
