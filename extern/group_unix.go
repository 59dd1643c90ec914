//go:build unix

package extern

import (
	"os"
	"syscall"
)

// killGroup kills the process group led by p.
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }
