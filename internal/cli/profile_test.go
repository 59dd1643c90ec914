package cli

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestProfiles: --cpuprofile and --memprofile write pprof files (gzipped
// protocol buffers) of the command; a file that cannot be created is the
// command's error.
func TestProfiles(t *testing.T) {
	dir := t.TempDir()
	cpu, mem := filepath.Join(dir, "cpu.prof"), filepath.Join(dir, "mem.prof")
	code, _, stderr := matchRun(t, context.Background(), "match", "-n", "20", "--seed", "1", "--cpuprofile", cpu, "--memprofile", mem)
	require.Equal(t, ExitOK, code, stderr)
	for _, path := range []string{cpu, mem} {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Greater(t, len(data), 2, path)
		require.Equal(t, []byte{0x1f, 0x8b}, data[:2], "%s is gzipped (pprof's format)", path)
	}

	missing := filepath.Join(dir, "no", "such", "dir", "cpu.prof")
	code, _, stderr = matchRun(t, context.Background(), "match", "-n", "1", "--seed", "1", "--cpuprofile", missing)
	require.NotEqual(t, ExitOK, code)
	require.Contains(t, stderr, "--cpuprofile")
	code, _, stderr = matchRun(t, context.Background(), "match", "-n", "1", "--seed", "1", "--memprofile", missing)
	require.NotEqual(t, ExitOK, code)
	require.Contains(t, stderr, "--memprofile")
}
