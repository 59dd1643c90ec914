//go:build !linux

package abplayers

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }

func lockThread() func() { return func() {} }
