package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

func shotsRun(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(ctx, append([]string{"shots"}, args...), nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

func shotsJSON(t *testing.T, stdout string) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &m), stdout)
	return m
}

func TestShotsJSONReproducibleAcrossWorkers(t *testing.T) {
	n := "400"
	if testing.Short() || race.Enabled {
		n = "100"
	}
	var results []map[string]any
	for _, workers := range []string{"1", "3"} {
		code, stdout, stderr := shotsRun(t, context.Background(), "--player", "gridbot", "-n", n, "--seed", "7", "--workers", workers, "--json")
		require.Equal(t, 0, code, stderr)
		got := shotsJSON(t, stdout)
		require.Equal(t, []string{"games", "max", "mean", "median", "ms_per_move_p99", "p90", "player", "sd", "seed"}, keys(got))
		require.GreaterOrEqual(t, got["ms_per_move_p99"], 0.0)
		delete(got, "ms_per_move_p99")
		results = append(results, got)
	}
	require.Equal(t, results[0], results[1])
	got := results[0]
	require.Equal(t, "gridbot", got["player"])
	require.Equal(t, n, strconv.Itoa(int(got["games"].(float64))))
	require.GreaterOrEqual(t, got["mean"], 20.0, "at least the 20 ship cells")
	require.LessOrEqual(t, got["max"], 100.0)
	require.LessOrEqual(t, got["median"], got["p90"])
	require.LessOrEqual(t, got["p90"], got["max"])
	require.Positive(t, got["sd"])
}

func keys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

func TestShotsRandomIsWorseThanGridBot(t *testing.T) {
	mean := func(player string) float64 {
		code, stdout, stderr := shotsRun(t, context.Background(), "--player", player, "-n", "200", "--seed", "3", "--json")
		require.Equal(t, 0, code, stderr)
		return shotsJSON(t, stdout)["mean"].(float64)
	}
	random, gridbot := mean("bs-random"), mean("gridbot")
	require.Greater(t, random, 85.0, "uniform shooting needs nearly the whole board")
	require.Less(t, gridbot, random-20)
}

func TestShotsTableAndDensityMethods(t *testing.T) {
	code, stdout, stderr := shotsRun(t, context.Background(), "--player", "density", "-n", "4", "--seed", "1",
		"--size", "6x6", "--fleet", "3,2,1,1")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "density alone against 4 uniformly placed fleets (6x6, fleet 3,2,1,1), seed 1")
	require.Contains(t, stdout, "games")
	require.Contains(t, stdout, "time/shot p99")
	require.Regexp(t, `density moves: \d+ exact \(\d+ of them by lookahead\), 0 sampled \(fallback\), 0 heuristic`, stdout)

	code, stdout, stderr = shotsRun(t, context.Background(), "--player", "greedy", "-n", "4", "--seed", "1",
		"--size", "6x6", "--fleet", "3,2,1,1")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `greedy moves: \d+ exact, 0 sampled \(fallback\), 0 heuristic`, stdout)
}

// TestShotsSeriesAndPlacers plays a series of the adaptive bot against the
// human placer; the fleets of a seed are the same with and without
// --series, so the series' first game (nothing learnt yet) equals density's.
func TestShotsSeriesAndPlacers(t *testing.T) {
	small := []string{"--size", "6x6", "--fleet", "3,2,1,1", "--seed", "1", "--placer", "human", "--json"}
	code, stdout, stderr := shotsRun(t, context.Background(), append([]string{"--player", "adaptive", "-n", "6", "--series", "3", "--workers", "2"}, small...)...)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 6.0, shotsJSON(t, stdout)["games"])
	require.Regexp(t, `adaptive moves: \d+ exact`, stderr)
	first := func(player string, extra ...string) float64 {
		code, stdout, stderr := shotsRun(t, context.Background(), append(append([]string{"--player", player, "-n", "1"}, extra...), small...)...)
		require.Equal(t, 0, code, stderr)
		return shotsJSON(t, stdout)["mean"].(float64)
	}
	require.Equal(t, first("density"), first("adaptive", "--series", "1"))

	code, stdout, stderr = shotsRun(t, context.Background(), "--player", "gridbot", "-n", "2", "--seed", "1", "--placer", "human")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "gridbot alone against 2 fleets placed by the human placer (10x10")

	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--player", "gridbot", "--series", "2", "-n", "2", "--seed", "1"}, "does not learn"},
		{[]string{"--player", "gridbot", "--placer", "nobody", "-n", "2", "--seed", "1"}, `--placer "nobody"`},
		{[]string{"--player", "adaptive", "--series", "-1", "-n", "2", "--seed", "1"}, "--series -1"},
	}
	for _, tt := range tests {
		code, _, stderr := shotsRun(t, context.Background(), tt.args...)
		require.NotEqual(t, 0, code, "%v", tt.args)
		require.Contains(t, stderr, tt.want, "%v", tt.args)
	}
}

// TestShotsVs pairs two AIs on the same fleets: against itself every
// difference is 0; gridbot beats random by the gap of their means, with an
// interval that excludes 0.
func TestShotsVs(t *testing.T) {
	code, stdout, stderr := shotsRun(t, context.Background(), "--player", "gridbot", "--vs", "gridbot", "-n", "30", "--seed", "2", "--json")
	require.Equal(t, 0, code, stderr)
	j := shotsJSON(t, stdout)
	require.Equal(t, "gridbot", j["vs"])
	require.Equal(t, j["mean"], j["vs_mean"])
	require.Zero(t, j["diff_mean"])
	require.Zero(t, j["diff_ci95"])

	code, stdout, stderr = shotsRun(t, context.Background(), "--player", "gridbot", "--vs", "bs-random", "-n", "100", "--seed", "2", "--json")
	require.Equal(t, 0, code, stderr)
	j = shotsJSON(t, stdout)
	require.InDelta(t, j["mean"].(float64)-j["vs_mean"].(float64), j["diff_mean"], 1e-9)
	require.Less(t, j["diff_mean"].(float64)+j["diff_ci95"].(float64), 0.0)

	code, stdout, stderr = shotsRun(t, context.Background(), "--player", "gridbot", "--vs", "bs-random", "-n", "10", "--seed", "2")
	require.Equal(t, 0, code, stderr)
	require.Regexp(t, `bs-random on the same fleets: mean \d+\.\d\d; gridbot − bs-random per game: -\d+\.\d\d ± \d+\.\d\d \(95%\)`, stdout)

	code, _, stderr = shotsRun(t, context.Background(), "--player", "gridbot", "--vs", "nobody", "-n", "10", "--seed", "2")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--vs")
}

func TestShotsConfigAndErrors(t *testing.T) {
	dir := t.TempDir()
	blocks := filepath.Join(dir, "blocks.yaml")
	require.NoError(t, os.WriteFile(blocks, []byte("pattern: blocks\n"), 0o600))
	code, _, stderr := shotsRun(t, context.Background(), "--player", "gridbot", "--weights", blocks, "-n", "20", "--seed", "1", "--json")
	require.Equal(t, 0, code, stderr)

	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-n", "1"}, 2, `required flag(s) "player"`},
		{[]string{"--player", "nobody", "-n", "1", "--seed", "1"}, 2, "unknown player"},
		{[]string{"--player", "gridbot", "-n", "0", "--seed", "1"}, 2, "-n 0"},
		{[]string{"--player", "gridbot", "--workers", "-1", "--seed", "1"}, 2, "--workers -1"},
		{[]string{"--player", "gridbot", "--size", "2x2", "--seed", "1"}, 2, "needs 20 cells"},
		{[]string{"--player", "gridbot", "--weights", filepath.Join(dir, "none.yaml"), "--seed", "1"}, 2, "none.yaml"},
	}
	for _, tt := range tests {
		code, _, stderr := shotsRun(t, context.Background(), tt.args...)
		require.Equal(t, tt.code, code, "%v: %s", tt.args, stderr)
		require.Contains(t, stderr, tt.want, "%v", tt.args)
	}
}

func TestShotsDrawsASeed(t *testing.T) {
	code, _, stderr := shotsRun(t, context.Background(), "--player", "bs-random", "-n", "2")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "drawn at random")
}

func TestShotsInterrupted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	code, stdout, _ := shotsRun(t, ctx, "--player", "density", "-n", "100000", "--seed", "1", "--workers", "2")
	require.Equal(t, 130, code)
	require.Contains(t, stdout, "interrupted:")
}
