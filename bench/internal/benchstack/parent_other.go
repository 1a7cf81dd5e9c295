//go:build !linux

package benchstack

import "os/exec"

// dieWithParent does nothing where the system offers no parent-death signal.
func dieWithParent(*exec.Cmd) {}
