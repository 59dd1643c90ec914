//go:build !unix

package players

import "time"

// cpuTime is not measured on this platform (the benchmark reports 0).
func cpuTime() time.Duration { return 0 }
