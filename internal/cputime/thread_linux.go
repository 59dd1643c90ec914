//go:build linux

package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time used so far by the calling OS thread
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID), exact to the nanosecond) and
// whether the platform reports it. Lock the goroutine to its thread first
// (LockThread).
func Thread() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
