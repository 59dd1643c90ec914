package arena_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/arena/arenatest"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
)

// TestAbilitiesBotFinishesItsGames replays the games of
// "kaisen match --game abilities" (every rules option on, sides humans and
// ai, alternate_first, ab-density vs ab-random, --seed 4) that ab-density
// once drew by shooting a proven miss again and again: it wins them now.
func TestAbilitiesBotFinishesItsGames(t *testing.T) {
	base := battleship.DefaultRules()
	r, err := abilities.NewRules(base, abilities.Humans, abilities.AI, abilities.Options{SalvoShootsAgain: true,
		FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true})
	require.NoError(t, err)
	f1, err := abplayers.New("ab-density", r, nil)
	require.NoError(t, err)
	f2, err := abplayers.New("ab-random", r, nil)
	require.NoError(t, err)
	fam := arenatest.Abilities(r, true, "ab-density", f1, "ab-random", f2)
	for _, i := range []int{125, 130, 153} {
		res, err := fam.NewTable(nil).Play(arena.Deal{Index: i, Seed: arena.GameSeed(4, i), MatchSeed: 4, P1Seat: i % 2})
		require.NoError(t, err)
		require.Equal(t, res.P1Seat, res.Winner, "game %d", i)
		require.Empty(t, res.Reason)
	}
}
