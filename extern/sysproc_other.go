//go:build !unix

package extern

import (
	"os"
	"syscall"
)

// sysProcAttr is nothing special: without process groups only the
// program itself is killed at the end of its game (exec: players are
// meant for Unix systems).
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup kills p.
func killGroup(p *os.Process) { _ = p.Kill() }

// groupGone has no group to wait for.
func groupGone(*os.Process) {}
