// Package cputime reads the CPU time used by this process or by the calling
// OS thread. Benchmarks report it beside wall time: on a shared machine the
// wall clock also counts the time other processes hold the cores, the CPU
// time does not.
package cputime

import "runtime"

// LockThread locks the calling goroutine to its OS thread, so that Thread
// measures the goroutine's own work, and returns the function that unlocks it.
func LockThread() (unlock func()) {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
