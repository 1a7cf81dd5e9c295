//go:build !unix

package executecommand

import "os/exec"

// killGroup leaves the default: only the shell is killed on cancellation.
func killGroup(*exec.Cmd) {}
