package submarine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// junkStep is a step whose every field differs from what Apply writes.
func junkStep() Step {
	ev := Event{Mine: true, Kind: Invalid, Illegal: true, At: 11, Hit: 5, Sunk: true, Near: 0xff, Ship: 4, To: 3, DX: 9, DY: -9}
	return Step{Seat: 7, Action: MoveTo(6, 19), Actor: ev, Other: ev, Status: game.Drawn, Winner: 5}
}

// TestApplyIntoOverwritesStep: ApplyInto does not clear *st first, so every
// way through it (attack, move, illegal action, finished game) must write
// every field: into a step full of junk it writes what Apply returns, and
// leaves the game as Apply does.
func TestApplyIntoOverwritesStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	r := DefaultRules()
	for range 40 {
		g := randomGame(t, r, rng)
		for g.status == game.Running {
			acts := legalActions(g)
			a := acts[rng.IntN(len(acts))]
			if rng.IntN(20) == 0 { // now and then an arbitrary, mostly illegal, one
				a = Action{Kind: Kind(rng.IntN(3)), Ship: rng.IntN(5) - 1, To: grid.Cell(rng.IntN(30) - 2)}
			}
			checkApplyInto(t, g, a)
		}
		checkApplyInto(t, g, AttackAt(0)) // the game is over
	}
}

// checkApplyInto applies a to g with ApplyInto and to a copy with Apply and
// requires the same step, error and game.
func checkApplyInto(t *testing.T, g *Game, a Action) {
	t.Helper()
	c := g.rules.Clone(g)
	want, wantErr := c.Apply(a)
	got := junkStep()
	err := g.ApplyInto(a, &got)
	require.Equal(t, want, got, "%+v", a)
	require.Equal(t, wantErr, err)
	require.Equal(t, c, g)
}

// TestInReachIsCheckAction: on the fleets of a game, inReach says of every
// attack what CheckAction says, on the square and the rounded board.
func TestInReachIsCheckAction(t *testing.T) {
	b, err := grid.Rounded(6, 5)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(26, 2))
	for _, r := range []*Rules{DefaultRules(), {Board: b, Fleet: DefaultFleet(), DrawLimit: 100}} {
		for range 10 {
			g := randomGame(t, r, rng)
			for g.status == game.Running {
				for seat := range 2 {
					f := &g.fleets[seat]
					for c := grid.Cell(-1); c <= grid.Cell(r.Board.Size()); c++ {
						a := AttackAt(c)
						require.Equal(t, r.CheckAction(f, a) == nil, inReach(r, f, a), "attack on %d", c)
					}
				}
				acts := legalActions(g)
				_, err := g.Apply(acts[rng.IntN(len(acts))])
				require.NoError(t, err)
			}
		}
	}
}
