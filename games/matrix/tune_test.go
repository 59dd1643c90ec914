package matrix_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
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

// tuneHost runs kaisen tune on a game: its first tunable AI tuned against
// DefaultPlayers[1] on a tiny budget, twice with the same seed: a YAML of
// weights is written, the same both times.
func tuneHost(t *testing.T, g games.Game) {
	player := tunable(t, g)
	run := func() map[string]any {
		out := filepath.Join(t.TempDir(), "tuned.yaml")
		kaisen(t, "tune", "--game", g.Name, "--player", player, "--against", g.DefaultPlayers[1],
			"--budget-games", "16", "--batch", "2", "--final-games", "4", "--seed", "26", "--workers", "1", "--out", out, "--json")
		return weightsOf(t, out)
	}
	first := run()
	require.NotEmpty(t, first, "the tuned weights of %s", player)
	require.Equal(t, first, run(), "the same seed, the same weights")
}

// exploitHost runs kaisen exploit on a game: the weights of the family
// (its first tunable AI) searched against the frozen target
// DefaultPlayers[1] on a tiny budget, verified on a few fresh games, twice
// with the same seed: an exploiter's YAML is written, the same both times.
func exploitHost(t *testing.T, g games.Game) {
	family := tunable(t, g)
	run := func() map[string]any {
		out := filepath.Join(t.TempDir(), "exploiter.yaml")
		kaisen(t, "exploit", "--game", g.Name, "--target", g.DefaultPlayers[1], "--family", family,
			"--budget-games", "16", "--batch", "2", "--final-games", "4", "--verify-games", "4", "--seed", "26", "--workers", "1", "--out", out, "--json")
		return weightsOf(t, out)
	}
	first := run()
	require.NotEmpty(t, first, "the exploiter of %s", g.DefaultPlayers[1])
	require.Equal(t, first, run(), "the same seed, the same exploiter")
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
