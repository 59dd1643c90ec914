package cli

import (
	"context"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

// TestMatchSeries: --series gives the same summary whatever --workers,
// says so in the table and the JSON, and is refused where it cannot apply.
func TestMatchSeries(t *testing.T) {
	n := 12
	if race.Enabled {
		n = 6
	}
	cfg := smallBattleshipConfig(t)
	var results []map[string]any
	for _, workers := range []string{"1", "3"} {
		code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "adaptive", "--p2", "gridbot",
			"-n", strconv.Itoa(n), "--series", "3", "--seed", "5", "--rules", cfg, "--workers", workers, "--json")
		require.Equal(t, 0, code, stderr)
		got := matchLastJSON(t, stdout)
		delete(got, "games_per_sec")
		results = append(results, got)
	}
	require.Equal(t, results[0], results[1], "same seed, 1 or 3 workers")
	require.EqualValues(t, 3, results[0]["series"])
	require.EqualValues(t, n, results[0]["games"])

	code, stdout, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random",
		"-n", "4", "--series", "2", "--seed", "1")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "played in series of 2 games")

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"negative", []string{"--series", "-1"}, "--series -1"},
		{"shard", []string{"--series", "2", "--shard", "1/2", "--out", t.TempDir() + "/s.json", "--seed", "1"}, "series"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), append([]string{"match", "-n", "4"}, tc.args...)...)
			require.Equal(t, 2, code, stderr)
			require.Contains(t, stderr, tc.want)
		})
	}
}
