//go:build !linux

package cputime

import "time"

// Thread reports no per-thread CPU time on this platform.
func Thread() (time.Duration, bool) { return 0, false }
