package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// clockLine matches the line of a table that reads the clock (games/s).
var clockLine = regexp.MustCompile(`(?m)^\d+ games in .*$|, \d+ workers?$`)

// noClock is a table without the clock's readings.
func noClock(s string) string { return clockLine.ReplaceAllString(s, "<clock>") }

// TestGamesOutRecover: a run killed mid-way (its --games-out file cut
// anywhere, a torn game at the end) resumed with --recover prints the
// table of the uninterrupted run and leaves its file byte for byte, for
// match and tournament.
func TestGamesOutRecover(t *testing.T) {
	runs := []struct {
		name string
		args []string
	}{
		{"match", []string{"match", "--p1", "random", "--p2", "simple", "-n", "24", "--pairs"}},
		{"match sprt", []string{"match", "--p1", "state", "--p2", "random", "-n", "400", "--sprt", "elo0=0,elo1=200"}},
		{"tournament", []string{"tournament", "--players", "random,simple,state", "-n", "6", "--bootstrap", "50"}},
		{"gauntlet", []string{"gauntlet", "state", "--pool", "random,simple,state", "-n", "6"}},
	}
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "games.jsonl")
			args := append(append([]string{}, run.args...), "--games-out", path, "--progress", "never")
			code, want, stderr := matchRun(t, context.Background(), append(args, "--seed", "3", "--workers", "3")...)
			require.Equal(t, 0, code, stderr)
			full, err := os.ReadFile(path)
			require.NoError(t, err)
			for _, cut := range []int{len(full) / 3, 2 * len(full) / 3, len(full) - 1} {
				require.NoError(t, os.WriteFile(path, full[:cut], 0o644))
				code, got, stderr := matchRun(t, context.Background(), append(args, "--recover", "--workers", "2")...)
				require.Equal(t, 0, code, stderr)
				require.Equal(t, noClock(want), noClock(got), "cut at %d of %d bytes", cut, len(full))
				again, err := os.ReadFile(path)
				require.NoError(t, err)
				require.Equal(t, string(full), string(again), "cut at %d", cut)
			}
			code, list, stderr := matchRun(t, context.Background(), "replay", path, "--verify")
			require.Equal(t, 0, code, stderr)
			require.Equal(t, strings.Count(string(full), `{"type":"game",`), strings.Count(list, ": ok: "))
		})
	}
}

// TestGamesOutErrors: --recover needs --games-out and the same run.
func TestGamesOutErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	code, _, stderr := matchRun(t, context.Background(), "match", "--p1", "random", "--p2", "random", "-n", "4", "--seed", "1", "--games-out", path)
	require.Equal(t, 0, code, stderr)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"--recover"}, "add --games-out"},
		{"other players", []string{"--games-out", path, "--recover", "--p2", "simple"}, "another run"},
		{"other seed", []string{"--games-out", path, "--recover", "--seed", "2"}, "another run"},
		{"series", []string{"--games-out", path, "--recover", "--series", "2"}, "--series"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"match", "--p1", "random", "--p2", "random", "-n", "4"}, tt.args...)
			code, _, stderr := matchRun(t, context.Background(), args...)
			require.Equal(t, 2, code, stderr)
			require.Contains(t, stderr, tt.want)
		})
	}
}

// TestReplayGamesFile: kaisen replay lists a games file, picks FILE#N or
// --game-index N, and refuses a game it does not have.
func TestReplayGamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	code, _, stderr := matchRun(t, context.Background(), "match", "--game", "battleship", "-n", "3", "--seed", "1", "--games-out", path)
	require.Equal(t, 0, code, stderr)
	code, list, stderr := matchRun(t, context.Background(), "replay", path)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 3, strings.Count(list, "\n"), list)
	require.Contains(t, list, path+"#2: gridbot vs bs-random, p1 in seat 0")
	code, one, stderr := matchRun(t, context.Background(), "replay", path+"#1", "--verify")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(one, path+"#1: ok: "), one)
	code, same, _ := matchRun(t, context.Background(), "replay", path, "--game-index", "1", "--verify")
	require.Equal(t, 0, code)
	require.Equal(t, one, same)
	code, _, stderr = matchRun(t, context.Background(), "replay", path+"#3")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "has 3 games")
	html := filepath.Join(t.TempDir(), "g.html")
	code, _, stderr = matchRun(t, context.Background(), "replay", path+"#0", "--html", html)
	require.Equal(t, 0, code, stderr)
	require.FileExists(t, html)
}
