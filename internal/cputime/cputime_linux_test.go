//go:build linux

package cputime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// burn does work the compiler cannot drop.
func burn() uint64 {
	x := uint64(1)
	for i := range 20_000_000 {
		x = x*6364136223846793005 + uint64(i)
	}
	return x
}

func TestClocksAdvanceWithWork(t *testing.T) {
	defer LockThread()()
	p0, okP := Process()
	t0, okT := Thread()
	require.True(t, okP, "process CPU time is reported on linux")
	require.True(t, okT, "thread CPU time is reported on linux")
	require.NotZero(t, burn())
	p1, _ := Process()
	t1, _ := Thread()
	require.Greater(t, t1, t0, "the thread's CPU time grows with its work")
	require.Greater(t, p1, p0, "the process's CPU time grows with its work")
}
