package tune

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/games"
)

// gameArena is the Arena of the registered game name under cfg, made as
// kaisen tune makes it: the entry's Family.
func gameArena(t *testing.T, name string, cfg arena.Config) Arena {
	t.Helper()
	g, err := games.Lookup(name)
	require.NoError(t, err)
	return func(p1, p2 Entrant) (arena.Family, error) {
		return g.Family(cfg, games.Entrant{Name: p1.Player, Load: p1.Load}, games.Entrant{Name: p2.Player, Load: p2.Load})
	}
}

// submarineArena is the published submarine game.
func submarineArena(t *testing.T) Arena { return gameArena(t, "submarine", arena.DefaultConfig()) }

// probed is the config struct of a player of the submarine game.
func probed(t *testing.T, player string) any {
	t.Helper()
	cfg := Probe(submarineArena(t), player)
	require.NotNil(t, cfg, player)
	return cfg
}

// opponent is a pool entry with built-in weights.
func opponent(name string) Entrant { return Entrant{Name: name, Player: name} }
