package adjudicate_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/adjudicate"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func TestNewDrawRefuses(t *testing.T) {
	bad := submarine.DefaultRules()
	bad.Fleet = nil
	tests := []struct {
		name  string
		rules *submarine.Rules
		k     int
	}{
		{"k 0", submarine.DefaultRules(), 0},
		{"negative k", submarine.DefaultRules(), -3},
		{"no rules", nil, 10},
		{"no fleet", bad, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := adjudicate.NewDraw(tc.rules, tc.k)
			require.Error(t, err)
		})
	}
}

// playJudged plays one random-vs-random game of seed on a game.Table
// adjudicated by the judge d and returns the action after which it fired
// (0: never), checking that the game ended there.
func playJudged(t *testing.T, rules *submarine.Rules, d *adjudicate.Draw, seed uint64) int {
	t.Helper()
	random := players.Adapt(func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) })
	tab := game.NewTable(rules, nil)
	fired := 0
	d.Reset()
	res := tab.Play(&game.Setup[submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		Factories: [2]game.Factory[submarine.Placement, submarine.Action, submarine.Told]{random, random},
		Rands:     [2]*rand.Rand{rand.New(rand.NewPCG(seed, 1)), rand.New(rand.NewPCG(seed, 2))},
		Adjudicate: func(n int, st *submarine.Step) string {
			draw, err := d.Step(tab.Game(), st)
			require.NoError(t, err)
			require.Zero(t, fired, "asked again after it fired")
			if draw {
				fired = n
				return "test draw"
			}
			return ""
		},
	})
	if fired > 0 {
		require.Equal(t, game.Result{Winner: -1, Count: game.Count{Actions: fired}, Started: true, Adjudicated: "test draw"}, res)
	} else {
		require.Empty(t, res.Adjudicated)
	}
	return fired
}

// twoShips are the default rules with two ships a side, whose material
// the tablebase covers from the first action: a judge that forgot the
// fleets were not yet common knowledge would value positions too early.
func twoShips() *submarine.Rules {
	r := submarine.DefaultRules()
	r.Fleet = r.Fleet[:2]
	return r
}

// TestDrawResets: a judge reused across games judges each as a fresh one
// does, and a larger K never fires earlier.
func TestDrawResets(t *testing.T) {
	rules := twoShips()
	reused, err := adjudicate.NewDraw(rules, 20)
	require.NoError(t, err)
	require.Equal(t, 20, reused.K())
	fired := 0
	for seed := range uint64(12) {
		fresh, err := adjudicate.NewDraw(rules, 20)
		require.NoError(t, err)
		got := playJudged(t, rules, reused, seed)
		require.Equal(t, playJudged(t, rules, fresh, seed), got, "seed %d", seed)
		if got > 0 {
			fired++
			later, err := adjudicate.NewDraw(rules, 40)
			require.NoError(t, err)
			if l := playJudged(t, rules, later, seed); l > 0 {
				require.GreaterOrEqual(t, l, got, "seed %d", seed)
			}
		}
	}
	require.Positive(t, fired)
}
