package cli

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

// smallBattleshipConfig writes a 6x6 board with a small fleet, where density
// counts every position exactly and quickly (even under -race).
func smallBattleshipConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bs.yaml")
	require.NoError(t, os.WriteFile(path, []byte("game: battleship\nbattleship: {width: 6, height: 6, fleet: [3, 2, 2, 1]}\n"), 0o644))
	return path
}

func TestMatchBattleshipJSONReproducible(t *testing.T) {
	n := 40
	switch {
	case race.Enabled:
		n = 6
	case testing.Short():
		n = 16
	}
	cfg := smallBattleshipConfig(t)
	var results []map[string]any
	for _, workers := range []string{"1", "2"} {
		code, stdout, stderr := matchRun(t, context.Background(), "match", "--game", "battleship",
			"--p1", "density", "--p2", "gridbot", "-n", strconv.Itoa(n), "--seed", "5",
			"--rules", cfg, "--workers", workers, "--json")
		require.Equal(t, 0, code, stderr)
		got := matchLastJSON(t, stdout)
		delete(got, "games_per_sec")
		results = append(results, got)
	}
	want := results[0]
	require.Equal(t, want, results[1], "same seed, 1 or 2 workers")
	require.EqualValues(t, n, want["games"])
	require.Equal(t, "density", want["p1"])
	require.Equal(t, "gridbot", want["p2"])
	require.EqualValues(t, 0, want["p1_forfeits"])
	require.EqualValues(t, 0, want["p2_forfeits"])
	require.EqualValues(t, 0, want["draws"])
	require.EqualValues(t, n, want["p1_wins"].(float64)+want["p2_wins"].(float64))
	s1, s2 := want["p1_mean_shots"].(float64), want["p2_mean_shots"].(float64)
	require.InDelta(t, want["mean_actions"], s1+s2, 1e-9)
	// The winner needs at least the fleet's 8 cells; nobody fires at all 36.
	require.Greater(t, s1, 5.0)
	require.Less(t, s1, 36.0)
	require.Greater(t, s2, 5.0)
	require.Less(t, s2, 36.0)
}

func TestMatchBattleshipTableAndDefaults(t *testing.T) {
	// Without --p1/--p2 a battleship match is gridbot vs bs-random on 10x10.
	code, stdout, stderr := matchRun(t, context.Background(), "match", "--game", "battleship", "-n", "20", "--seed", "3")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "battleship match: gridbot (p1) vs bs-random (p2), seed 3")
	require.Contains(t, stdout, "shots per game: p1 gridbot ")
	require.Regexp(t, `p1 gridbot\s+20 100\.0%`, stdout, "gridbot sinks a fleet in ~58 shots, random fire in ~96")

	// The submarine table has no shots line, its JSON no shot keys.
	code, stdout, _ = matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "5", "--seed", "3", "--json")
	require.Equal(t, 0, code)
	require.NotContains(t, stdout, "mean_shots")
}

func TestMatchBattleshipErrors(t *testing.T) {
	cfg := smallBattleshipConfig(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"submarine player", []string{"--game", "battleship", "--p1", "stateplayer2"}, `unknown player "stateplayer2"`},
		{"battleship player in submarine", []string{"--p1", "gridbot"}, `gridbot`},
		{"submarine config", []string{"--game", "battleship", "--rules", "../../configs/match.yaml"}, `is a "submarine" config`},
		{"empty player", []string{"--game", "battleship", "--p2", ""}, "--p1 and --p2 must name players (players: bs-random, gridbot, density, greedy, adaptive)"},
		{"unknown family", []string{"--game", "chess"}, `--game "chess": unknown game (games: submarine, battleship, abilities)`},
		{"config picks the game", []string{"--rules", cfg, "--p1", "random"}, `--p1: unknown player "random"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), append([]string{"match", "-n", "2", "--seed", "1"}, tc.args...)...)
			require.NotEqual(t, 0, code)
			require.Contains(t, stderr, tc.want)
		})
	}
}

func TestMatchBattleshipReplays(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := matchRun(t, context.Background(), "match", "--game", "battleship", "--p1", "gridbot",
		"--p2", "bs-random", "-n", "3", "--seed", "2", "--replays", dir, "--explain", "--json")
	require.Equal(t, 0, code, stderr)
	for i := range 3 {
		data, err := os.ReadFile(filepath.Join(dir, "game-00000"+strconv.Itoa(i)+".jsonl"))
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		require.Contains(t, lines[0], `"game":"battleship"`)
		require.Contains(t, lines[len(lines)-1], `"type":"result"`)
		require.Contains(t, string(data), `"decision"`, "--explain records gridbot's reasons")
	}
}

func TestPlayersListsBothGames(t *testing.T) {
	code, stdout, stderr := matchRun(t, context.Background(), "players")
	require.Equal(t, 0, code, stderr)
	sub, bs, ok := strings.Cut(stdout, "battleship:")
	require.True(t, ok, stdout)
	require.Contains(t, sub, "submarine:")
	require.Contains(t, sub, "stateplayer2")
	require.NotContains(t, sub, "gridbot")
	for _, name := range []string{"bs-random", "gridbot", "density"} {
		require.Contains(t, bs, name)
	}
	require.Contains(t, bs, "configs/density.yaml")
}
