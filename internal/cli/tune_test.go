package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kaisen-ai/kaisen/games"
	"github.com/stretchr/testify/require"
)

func tuneRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

// dateless drops the date of the tuned file's first line.
var tuneDate = regexp.MustCompile(`\(\d{4}-\d{2}-\d{2}\)`)

func TestTuneEndToEnd(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "simple-tuned.yaml")
	args := []string{"tune", "--player", "simple", "--against", "random", "--budget-games", "60",
		"--batch", "8", "--final-games", "10", "--seed", "3", "--workers", "2", "--out", out}
	code, stdout, stderr := tuneRun(t, args...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "tuning 1 weights of simple")
	// the cost before it starts (2 x 2 x 8 + 2 x 10 games) and the ETA as it goes
	require.Regexp(t, `estimate: 52 games in all, about \d+:\d\d:\d\d at [0-9.]+ games/s \(8 probe games`, stderr)
	require.Regexp(t, `iter 1/2 .* ETA \d+:\d\d:\d\d \(36 games left\)`, stderr)
	require.Contains(t, stderr, "iter 2/2")
	require.Contains(t, stdout, "tuned   ")
	require.Contains(t, stdout, "move_probability")
	first, err := os.ReadFile(out)
	require.NoError(t, err)
	text := string(first)
	require.Contains(t, text, "--seed 3")
	require.Contains(t, text, "# seed 3; 52 games played")
	require.Regexp(t, `Measured win rate [01]\.\d{4}, 95% interval \[[01]\.\d{4}, [01]\.\d{4}\]`, text)
	require.Contains(t, text, "move_probability: ")
	_, err = os.Stat(out + ".checkpoint.json")
	require.NoError(t, err)

	// Again with the same settings: the finished checkpoint is resumed and
	// the file comes out the same.
	code, _, stderr = tuneRun(t, args...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "resuming")
	second, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(text, ""), tuneDate.ReplaceAllString(string(second), ""))

	// A fresh run with the same seed (no checkpoint) gives the same file.
	out2 := filepath.Join(dir, "again.yaml")
	args2 := append(args[:len(args)-1:len(args)-1], out2)
	code, _, stderr = tuneRun(t, args2...)
	require.Equal(t, 0, code, stderr)
	third, err := os.ReadFile(out2)
	require.NoError(t, err)
	require.Equal(t, tuneDate.ReplaceAllString(text, ""), tuneDate.ReplaceAllString(string(third), ""))
}

func TestTuneErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "no player", args: []string{"tune", "--against", "random"}, want: "--player and --against are required"},
		{name: "player of another game", args: []string{"tune", "--player", "simple", "--against", "random", "--rules", "../../configs/battleship-match.yaml", "--seed", "1"}, want: `--player: unknown player "simple" (known: bs-random, gridbot`},
		{name: "opponent of another game", args: []string{"tune", "--game", "abilities", "--player", "ab-belief", "--against", "ab-plain,density", "--seed", "1"}, want: `--against: unknown player "density"`},
		{name: "unknown game", args: []string{"tune", "--game", "chess", "--player", "simple", "--against", "random", "--seed", "1"}, want: `--game "chess": unknown game (games: submarine, battleship, abilities)`},
		{name: "game and rules disagree", args: []string{"tune", "--game", "abilities", "--player", "ab-belief", "--against", "ab-plain", "--rules", "../../configs/battleship-match.yaml", "--seed", "1"}, want: `--game "abilities" but --rules ../../configs/battleship-match.yaml is a "battleship" config`},
		{name: "no players named", args: []string{"tune", "--game", "abilities", "--seed", "1"}, want: "abilities players: ab-random, ab-density, ab-belief, ab-plain"},
		{name: "unknown opponent", args: []string{"tune", "--player", "simple", "--against", "nobody", "--seed", "1"}, want: "nobody"},
		{name: "unknown key", args: []string{"tune", "--player", "simple", "--against", "random", "--keys", "nope", "--seed", "1"}, want: `"nope"`},
		{name: "budget too small", args: []string{"tune", "--player", "simple", "--against", "random", "--budget-games", "10", "--seed", "1"}, want: "no iteration"},
		{name: "nothing to tune", args: []string{"tune", "--player", "state", "--against", "random", "--seed", "1"}, want: "no tunable"},
		{name: "no config", args: []string{"tune", "--player", "random", "--against", "random", "--seed", "1"}, want: "no YAML config"},
		{name: "draw score", args: []string{"tune", "--player", "simple", "--against", "random", "--draw-score", "2"}, want: "--draw-score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := tuneRun(t, tt.args...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tt.want)
		})
	}
}

func TestTuneHelpTeaches(t *testing.T) {
	code, stdout, _ := tuneRun(t, "tune", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"SPSA", "common random numbers", "tune:\"min,max\"", "--checkpoint", "Examples:", "95% interval"} {
		require.True(t, strings.Contains(stdout, want), "help lacks %q", want)
	}
}

// TestTuneEveryGame: kaisen tune plays every game of the registry through
// its entry: a short run of an AI of each game (cheap settings, a
// deliberately poor start) writes its tuned YAML with the game in the
// command, and the same seed gives the same file.
func TestTuneEveryGame(t *testing.T) {
	tests := []struct {
		game, player, against, weights, keys string
	}{
		{game: "submarine", player: "simple", against: "random,simple",
			weights: "move_probability: 0.2\n"},
		{game: "battleship", player: "density", against: "greedy@cheap.yaml,gridbot",
			weights: "budget: 0s\nsamples: 20\nlookahead: 2\nlookahead_weight: 0.1\nlookahead_budget: 1ms\n"},
		{game: "abilities", player: "ab-density", against: "ab-plain@cheap.yaml,ab-random",
			weights: "samples: 10\nsalvo_ratio: 2.9\nmove_threshold: 0.45\n", keys: "salvo_ratio,move_threshold"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.game] = true
		t.Run(tt.game, func(t *testing.T) {
			dir := t.TempDir()
			weights := filepath.Join(dir, "start.yaml")
			require.NoError(t, os.WriteFile(weights, []byte(tt.weights), 0o644))
			// cheap.yaml: a density bot (greedy, ab-plain) that samples 20
			// layouts a shot
			t.Chdir(dir)
			require.NoError(t, os.WriteFile("cheap.yaml", []byte("budget: 0s\nsamples: 20\n"), 0o644))
			run := func(out string) string {
				args := []string{"tune", "--game", tt.game, "--player", tt.player, "--against", tt.against, "--weights", weights,
					"--budget-games", "24", "--batch", "4", "--final-games", "4", "--seed", "7", "--workers", "2", "--out", out}
				if tt.keys != "" {
					args = append(args, "--keys", tt.keys)
				}
				code, stdout, stderr := tuneRun(t, args...)
				require.Equal(t, 0, code, stderr)
				require.Contains(t, stderr, "iter 2/2")
				require.Contains(t, stdout, "per opponent", "a pool of two reports each opponent")
				text, err := os.ReadFile(out)
				require.NoError(t, err)
				return tuneDate.ReplaceAllString(string(text), "")
			}
			first := run(filepath.Join(dir, "a.yaml"))
			require.Contains(t, first, "# Tuned by `kaisen tune --game "+tt.game+" --player "+tt.player+" --against "+tt.against)
			require.Contains(t, first, "# seed 7; 24 games played")
			require.Equal(t, first, run(filepath.Join(dir, "b.yaml")), "the same seed gives the same file")
		})
	}
	for _, g := range games.Names() {
		require.True(t, covered[g], "no tuning run of game %s", g)
	}
}

// TestWorseWarning: tuned weights that score below the start on the same
// games are written with a warning; equal or better ones without.
func TestWorseWarning(t *testing.T) {
	require.Empty(t, worseWarning(0.5, 0.5, "o.yaml", "b.yaml"))
	require.Empty(t, worseWarning(0.6, 0.5, "o.yaml", "b.yaml"))
	w := worseWarning(0.41, 0.44, "o.yaml", "configs/simple.yaml")
	require.Contains(t, w, "warning: the tuned weights scored 0.4100, below the starting weights' 0.4400")
	require.Contains(t, w, "o.yaml is likely no better than configs/simple.yaml")
}
