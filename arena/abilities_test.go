package arena_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
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
	fam := abGame(r, true, "ab-density", f1, "ab-random", f2)
	for _, i := range []int{125, 130, 153} {
		res, err := fam.NewTable(nil).Play(arena.Deal{Index: i, Seed: arena.GameSeed(4, i), MatchSeed: 4, P1Seat: i % 2})
		require.NoError(t, err)
		require.Equal(t, res.P1Seat, res.Winner, "game %d", i)
		require.Empty(t, res.Reason)
	}
}

// abGame is the abilities family of p1 (named n1) and p2 (n2) under r, as
// the games registry builds it: an arena.Game of the contract, the AIs
// adapted to it, replays by abrecord.Recorder and, with alternate
// (alternate_first), seat 1 acting first when index/2 is odd.
func abGame(r *abilities.Rules, alternate bool, n1 string, f1 abplayers.Factory, n2 string, f2 abplayers.Factory) arena.Family {
	type entrant = arena.Entrant[battleship.Placement, abilities.Action, abilities.Told]
	fam := &arena.Game[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]{
		Name: abilities.Name, Rules: r,
		P1: entrant{Name: n1, Factory: abplayers.Adapt(f1)}, P2: entrant{Name: n2, Factory: abplayers.Adapt(f2)},
		Record: func(w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, abilities.Action, abilities.Step] {
			return abrecord.NewRecorder(w, r, h)
		}}
	if alternate {
		fam.First = func(index int) int { return index / 2 % 2 }
	}
	return fam
}
