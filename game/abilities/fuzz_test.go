package abilities_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// FuzzApply plays random games mixing legal actions with random (mostly
// illegal) ones: Apply never panics, an illegal action changes nothing, a
// legal one is in Legal, and the invariants of the position hold after
// every step; every game ends within its draw limit.
func FuzzApply(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(0))
	f.Add(uint64(2), uint8(3), uint8(0x3f))
	f.Add(uint64(3), uint8(1), uint8(0x15))
	f.Add(uint64(4), uint8(2), uint8(0x2a))
	f.Fuzz(func(t *testing.T, seed uint64, sides, opts uint8) {
		opt := abilities.Options{
			SalvoShootsAgain: opts&1 != 0, FalseMissAnyHit: opts&2 != 0, MoveMayTouch: opts&4 != 0,
			HideMoves: opts&8 != 0, ScanAfloatOnly: opts&16 != 0, SuppressPassive: opts&32 != 0,
		}
		g := newGame(t, abilities.Side(sides&1), abilities.Side(sides>>1&1), opt)
		rng := rand.New(rand.NewPCG(seed, 0))
		n := grid.Cell(g.Rules().Base.Board.Size())
		cell := func() grid.Cell { return grid.Cell(rng.IntN(int(n)+4) - 2) }
		for steps := 0; g.Status() == game.Running; steps++ {
			require.Less(t, steps, 20*int(n), "the game must end")
			var a abilities.Action
			if rng.IntN(3) == 0 {
				a = abilities.Action{Kind: abilities.Kind(rng.IntN(6)), At: cell(), To: cell(), Special: rng.IntN(2) == 0,
					Use: rng.IntN(2) == 0, Cells: []grid.Cell{cell(), cell(), cell()}[:rng.IntN(4)]}
			} else {
				legal := g.Legal()
				require.NotEmpty(t, legal)
				a = legal[rng.IntN(len(legal))]
			}
			before := g.Clone()
			shots := g.Shots(0) + g.Shots(1)
			_, err := g.Apply(a)
			if err != nil {
				require.ErrorIs(t, err, abilities.ErrIllegal)
				require.Equal(t, before, g, "an illegal %s changed the game", a)
				continue
			}
			require.True(t, containsAction(before.Legal(), a), "%s was accepted but is not listed", a)
			require.GreaterOrEqual(t, g.Shots(0)+g.Shots(1), shots)
			checkInvariants(t, g)
		}
		_, err := g.Apply(abilities.Action{Kind: abilities.Shoot})
		require.ErrorIs(t, err, abilities.ErrOver)
	})
}

func containsAction(list []abilities.Action, a abilities.Action) bool {
	for _, b := range list {
		if b.Equal(a) {
			return true
		}
	}
	return false
}

// checkInvariants: each fleet is a valid layout of the fleet (ships never
// touch unless MoveMayTouch); an afloat 1-deck is never on a cell shot;
// the 4-deck defences stay in range; a pending question belongs to the
// defender.
func checkInvariants(t *testing.T, g *abilities.Game) {
	t.Helper()
	r := g.Rules()
	for seat := range 2 {
		ships := g.Ships(seat)
		if !r.Options.MoveMayTouch {
			require.NoError(t, r.Base.ValidatePlacement(ships))
		}
		for i, s := range ships {
			if len(s) == 1 && g.Afloat(seat, i) {
				require.False(t, g.Shot(seat).Has(s[0]), "afloat 1-deck on a shot cell")
			}
		}
		require.GreaterOrEqual(t, g.AirDefenceLeft(seat), 0)
		require.LessOrEqual(t, g.AirDefenceLeft(seat), abilities.AirDefenceCharges)
	}
	if q := g.Pending(); q != nil {
		require.Equal(t, 1-g.Turn(), q.Seat)
		require.Equal(t, q.Seat, g.ToAct())
	}
	if g.Status() == game.Won {
		loser := 1 - g.Winner()
		for i := range g.Ships(loser) {
			require.False(t, g.Afloat(loser, i))
		}
	}
}
