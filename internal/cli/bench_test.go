package cli

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBenchCommand(t *testing.T) {
	code, stdout, stderr := matchRun(t, context.Background(), "bench", "-n", "100")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "kaisen bench: random vs random")
	require.Regexp(t, `match, in-process +1 +100 +\d+ +[\d.]+ +\d+ +\d+ +[\d.]+`, stdout)
	require.Regexp(t, `with replay encoding +1 +10 +\d+`, stdout)

	code, _, stderr = matchRun(t, context.Background(), "bench", "-n", "0")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "-n 0")
}
