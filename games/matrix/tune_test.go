package matrix_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/tune"
)

// tunable is the first AI of g, in roster order, with weights kaisen tune
// can tune (tune.Probe finds its config struct, and it has a tunable
// field).
func tunable(t *testing.T, g games.Game) string {
	t.Helper()
	a := func(p1, p2 tune.Entrant) (arena.Family, error) {
		cfg := arena.DefaultConfig()
		cfg.Game = g.Name
		return g.Family(cfg, games.Entrant{Name: p1.Player, Load: p1.Load}, games.Entrant{Name: p2.Player, Load: p2.Load})
	}
	for _, p := range g.Players() {
		if cfg := tune.Probe(a, p.Name); cfg != nil {
			if sp, err := tune.SpaceOf(cfg); err == nil && len(sp) > 0 {
				return p.Name
			}
		}
	}
	require.Fail(t, "no AI of "+g.Name+" has weights to tune")
	return ""
}

// The games of a tune or exploit cell: its budget and its final (and
// verify) evaluation, the smallest that still have an iteration and a
// final evaluation.
const tuneBudget, tuneFinal = "8", "2"

// tuneRuns is how many times a tune or exploit cell runs with the same
// seed: twice, and the second run must write the first one's weights.
const tuneRuns = 2

// tuneHost runs kaisen tune on a game: its first tunable AI tuned against
// DefaultPlayers[1] on a tiny budget, with the same seed each run: a YAML
// of weights is written, the same each time.
func tuneHost(t *testing.T, g games.Game) {
	player := tunable(t, g)
	sameRuns(t, tuneRuns, "the tuned weights of "+player, func() map[string]any {
		out := filepath.Join(t.TempDir(), "tuned.yaml")
		kaisen(t, "tune", "--game", g.Name, "--player", player, "--against", g.DefaultPlayers[1],
			"--budget-games", tuneBudget, "--batch", "2", "--final-games", tuneFinal, "--seed", "26", "--workers", "1", "--out", out, "--json")
		return weightsOf(t, out)
	})
}

// exploitHost runs kaisen exploit on a game: the weights of the family
// (its first tunable AI) searched against the frozen target
// DefaultPlayers[1] on a tiny budget, verified on a few fresh games, with
// the same seed each run: an exploiter's YAML is written, the same each
// time.
func exploitHost(t *testing.T, g games.Game) {
	family := tunable(t, g)
	sameRuns(t, tuneRuns, "the exploiter of "+g.DefaultPlayers[1], func() map[string]any {
		out := filepath.Join(t.TempDir(), "exploiter.yaml")
		kaisen(t, "exploit", "--game", g.Name, "--target", g.DefaultPlayers[1], "--family", family,
			"--budget-games", tuneBudget, "--batch", "2", "--final-games", tuneFinal, "--verify-games", tuneFinal, "--seed", "26", "--workers", "1", "--out", out, "--json")
		return weightsOf(t, out)
	})
}

// sameRuns calls run runs times and checks that it wrote weights, the same
// each time.
func sameRuns(t *testing.T, runs int, what string, run func() map[string]any) {
	t.Helper()
	first := run()
	require.NotEmpty(t, first, what)
	for range runs - 1 {
		require.Equal(t, first, run(), "the same seed, the same weights: %s", what)
	}
}

// TestTuneFullSize is the matrix's tune and exploit columns: the cells of
// every game, each run twice with the same seed, without the race detector
// (under it, a game of the battleship density AI takes seconds, and the
// two cells of battleship alone took over two minutes of CI).
func TestTuneFullSize(t *testing.T) {
	race.SkipFullSize(t)
	for _, g := range games.All() {
		t.Run(g.Name+"/tune", func(t *testing.T) { tuneHost(t, g) })
		t.Run(g.Name+"/exploit", func(t *testing.T) { exploitHost(t, g) })
	}
}

// weightsOf reads a YAML file of weights.
func weightsOf(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var w map[string]any
	require.NoError(t, yaml.Unmarshal(data, &w), "%s", data)
	return w
}
