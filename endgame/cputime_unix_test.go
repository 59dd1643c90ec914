//go:build unix

package endgame

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) the test process has used:
// benchmarks report it besides wall time, which on a shared machine also
// counts the time other processes hold the cores.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
