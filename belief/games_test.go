package belief_test

import (
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/stretchr/testify/require"
)

// trace is one finished game: the placements, who moved first, and every step
// with both fleets after it.
type trace struct {
	rules  *submarine.Rules
	init   [2]submarine.Placement
	first  int
	steps  []submarine.Step
	fleets [][2]submarine.Fleet // fleets[k] = both fleets after steps[k]
}

// event returns what seat was told at step k.
func (tr *trace) event(k, seat int) submarine.Event {
	if tr.steps[k].Seat == seat {
		return tr.steps[k].Actor
	}
	return tr.steps[k].Other
}

// randomGame plays players.Random against itself under r.
func randomGame(t testing.TB, r *submarine.Rules, rng *rand.Rand) *trace {
	t.Helper()
	ps := [2]*players.Random{players.NewRandom(r, rng), players.NewRandom(r, rng)}
	tr := &trace{rules: r, first: rng.IntN(2)}
	tr.init = [2]submarine.Placement{ps[0].Place(), ps[1].Place()}
	g, err := submarine.NewGame(r, tr.init[0], tr.init[1], tr.first)
	require.NoError(t, err)
	for g.Status() == game.Running {
		st, err := g.Apply(ps[g.ToAct()].Act())
		require.NoError(t, err)
		v := [2]submarine.View{g.View(0), g.View(1)}
		ps[st.Seat].Observe(st.Actor, &v[st.Seat])
		ps[1-st.Seat].Observe(st.Other, &v[1-st.Seat])
		tr.steps = append(tr.steps, st)
		tr.fleets = append(tr.fleets, [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)})
	}
	return tr
}

// testRules returns rules on board b with the given hp per ship and a short
// draw limit, so that random games stay small.
func testRules(b *grid.Board, limit int, hp ...int) *submarine.Rules {
	names := []string{"w", "c", "s", "d", "e", "f", "g", "h"}
	r := &submarine.Rules{Board: b, DrawLimit: limit}
	for i, h := range hp {
		r.Fleet = append(r.Fleet, submarine.ShipSpec{Name: names[i], HP: h})
	}
	return r
}

// gameCount is n, or a tenth of it (at least 5) under -short or -race.
func gameCount(n int) int {
	if testing.Short() || race.Enabled {
		return max(n/10, 5)
	}
	return n
}
