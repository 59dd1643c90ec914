//go:build unix

package extern

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// killGroup kills the process group led by p.
func killGroup(p *os.Process) { _ = syscall.Kill(-p.Pid, syscall.SIGKILL) }

// groupGrace bounds how long groupGone waits: a member that never goes (a
// zombie nobody reaps) does not hold up the next game for longer.
const groupGrace = 500 * time.Millisecond

// groupGone waits until no process of the group led by p (already killed
// and reaped) is left: SIGKILL is delivered asynchronously, and a forked
// member may still be running for a moment after its leader was reaped.
func groupGone(p *os.Process) {
	deadline := time.Now().Add(groupGrace)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(-p.Pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}
