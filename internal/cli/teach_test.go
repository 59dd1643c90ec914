package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestErrorsTeach: the errors a new user meets say what to do, in the
// user's words: no package prefixes or Go parser internals, a
// did-you-mean for names, the game an AI belongs to, the board (not the
// AI's weights) when the board is too small, --seed before a seed is drawn.
func TestErrorsTeach(t *testing.T) {
	dir := t.TempDir()
	tiny := filepath.Join(dir, "tiny.yaml")
	require.NoError(t, os.WriteFile(tiny, []byte("rules:\n  width: 3\n  height: 1\n"), 0o600))
	tests := []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"a misspelt AI", []string{"match", "--p1", "stateplayr2", "-n", "1", "--seed", "1"},
			[]string{`--p1: unknown player "stateplayr2" (did you mean stateplayer2?; known: random`}, []string{"players:"}},
		{"a misspelt Battleship AI", []string{"match", "--game", "battleship", "--p1", "gridbt", "-n", "1", "--seed", "1"},
			[]string{`unknown player "gridbt" (did you mean gridbot?`}, []string{"bsplayers:"}},
		{"an AI of another game", []string{"match", "--p2", "gridbot", "-n", "1", "--seed", "1"},
			[]string{"gridbot is an AI of the battleship game, not of this one: add --game battleship"}, []string{"players:"}},
		{"a misspelt game", []string{"match", "--game", "battleshp", "-n", "1", "--seed", "1"},
			[]string{`--game "battleshp": unknown game (did you mean battleship?)`}, nil},
		{"a misspelt AI to play", []string{"play", "--human", "--against", "admirl", "--seed", "1"},
			[]string{`unknown player "admirl" (did you mean admiral?`}, []string{"players:"}},
		{"a seed that is no number", []string{"match", "--seed", "abc"},
			[]string{`--seed: want a non-negative integer, got "abc"`}, []string{"strconv", "ParseUint"}},
		{"a duration without a unit", []string{"play", "--timeout", "5"},
			[]string{`--timeout: want a duration with a unit, such as 500ms, 10s or 5m, got "5"`}, []string{"time:"}},
		{"a misspelt flag", []string{"match", "--gmes", "3"},
			[]string{"unknown flag: --gmes (did you mean --games?)"}, nil},
		{"a board too small", []string{"match", "--rules", tiny, "-n", "1", "--seed", "1"},
			[]string{"stateplayer2: the 3x1 board has 3 usable cells, too few for the 9 cells the AI samples to place its fleet (placement.samples): use a larger board"},
			[]string{"players:", "placement.samples 9:"}},
		{"--nats without --seed", []string{"match", "--nats", "nats://127.0.0.1:1", "-n", "10"},
			[]string{"--nats needs --seed: every shard must play the games of the same seed"}, []string{"drawn at random"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := humanRun(t, "", tt.args...)
			require.Equal(t, ExitUsage, code, stderr)
			for _, w := range tt.want {
				require.Contains(t, stderr, w)
			}
			for _, w := range tt.notWant {
				require.NotContains(t, stderr, w)
			}
		})
	}
}
