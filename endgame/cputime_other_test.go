//go:build !unix

package endgame

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
