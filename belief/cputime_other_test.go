//go:build !linux

package belief_test

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }

func lockThread() func() { return func() {} }
