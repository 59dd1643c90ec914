//go:build linux

package abplayers

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time used so far by the calling OS thread
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID), exact to the nanosecond) and
// whether it is available. Benchmarks lock their goroutine to its thread and
// report CPU time besides wall time, because wall time on a shared machine
// also counts the time other processes hold the core.
func threadCPU() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
