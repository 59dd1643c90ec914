// Package proctest finds the processes a test left behind: the programs
// that package extern starts as players (kaisen match, serve --house,
// play, tune and exploit with exec:) must all be gone once their games
// are over, and the tests of every package that starts them check it
// with RequireNoSurvivor.
package proctest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/stretchr/testify/require"
)

// Survivors lists the running processes (not zombies, not this process)
// whose command line names dir: a program under dir, or a child it
// forked, which keeps its parent's command line.
func Survivors(dir string) ([]string, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("proctest: %w", err)
	}
	self := strconv.Itoa(os.Getpid())
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil || e.Name() == self {
			continue // not a process (self, thread-self, ...), or this one
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte(dir)) {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
			continue // a zombie holds no resources; its parent reaps it
		}
		out = append(out, e.Name()+": "+strings.ReplaceAll(string(cmdline), "\x00", " "))
	}
	return out, nil
}

// RequireNoSurvivor fails t when a process whose command line names dir
// is still running (Survivors).
func RequireNoSurvivor(t require.TestingT, dir string) {
	if h, ok := t.(interface{ Helper() }); ok {
		h.Helper()
	}
	left, err := Survivors(dir)
	require.NoError(t, err)
	require.Empty(t, left, "processes left behind")
}
