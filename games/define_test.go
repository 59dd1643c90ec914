package games_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/games"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// contractBattleship is Battleship defined on the contract alone, under
// another name: what a new game gives the registry.
func contractBattleship(name string) games.Game {
	return games.Define(games.Def[*battleship.Rules, *battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		Name:    name,
		Summary: "Battleship through games.Define",
		Rules: func(cfg arena.Config) (*battleship.Rules, error) {
			return cfg.Battleship.Build()
		},
		AIs:              games.Adapted(bsplayers.Entries, bsplayers.Lookup, bsplayers.New, bsplayers.Adapt),
		ErrUnknownPlayer: bsplayers.ErrUnknownPlayer,
		DefaultPlayers:   [2]string{"gridbot", "bs-random"},
		PlayDefault:      "bs-random",
		Shots:            true,
	})
}

// TestDefinePlaysLikeTheGame plays the same seeded match through the
// registry's Battleship entry and through a Def of the same rules and AIs:
// every game must come out the same, and the Def'd entry is complete.
func TestDefinePlaysLikeTheGame(t *testing.T) {
	def := contractBattleship("battleship-def")
	require.Empty(t, games.Missing(def))
	legacy, err := games.Lookup(battleship.Name)
	require.NoError(t, err)
	cfg := arena.DefaultConfig()
	cfg.Game = battleship.Name
	run := func(g games.Game) arena.Summary {
		fam, err := g.Family(cfg, games.Entrant{Name: "density"}, games.Entrant{Name: "gridbot"})
		require.NoError(t, err)
		m := arena.Match{Family: fam, Games: 24, Seed: 11, Workers: 2, Series: 4}
		s, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		return s
	}
	want, got := run(legacy), run(def)
	require.Equal(t, def.Name, got.Game)
	got.Game, got.Elapsed, want.Elapsed = want.Game, 0, 0
	require.Equal(t, want, got)

	_, err = def.Family(cfg, games.Entrant{Name: "nobody"}, games.Entrant{Name: "gridbot"})
	require.ErrorIs(t, err, bsplayers.ErrUnknownPlayer)
	_, err = def.NewClient(games.ClientOptions{Player: "gridbot"})
	require.ErrorIs(t, err, games.ErrNoHost)
	_, err = def.OpenReplay("x.jsonl")
	require.ErrorIs(t, err, games.ErrNoHost)
}

func TestRegister(t *testing.T) {
	require.ErrorIs(t, games.Register(games.Game{Name: "half"}), games.ErrRegister, "an entry with unset hooks")
	require.ErrorIs(t, games.Register(contractBattleship(battleship.Name)), games.ErrRegister, "a name taken")
}
