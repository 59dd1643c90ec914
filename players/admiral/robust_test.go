package admiral

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func TestSpreadPriorCountsMatchBruteForce(t *testing.T) {
	r := submarine.DefaultRules()
	b := r.Board
	all := allPlacements(r)
	for _, spread := range []int{2, 3, 4} {
		t.Run("spread", func(t *testing.T) {
			sp := newSpreadPrior(r, spread)
			require.False(t, sp.disabled)
			want := 0
			for _, pl := range all {
				ok := true
				for i := range pl {
					for j := range i {
						if b.Chebyshev(pl[i], pl[j]) < spread {
							ok = false
						}
					}
				}
				if ok {
					want++
				}
			}
			require.Equal(t, float64(len(all)), sp.all[3])
			require.Equal(t, float64(want), sp.spreadN[3])
			require.Equal(t, 25.0, sp.spreadN[1], "one ship is always spread")
		})
	}
	require.True(t, newSpreadPrior(r, 0).disabled, "spread 0 turns the prior off")
}

// TestAdmiralPriorWeighsTheOpeningBelief checks the resampled enemy pool
// before any event: the share of spread placements in it is the posterior
// mass of the spread part, w + (1-w) * spread/all.
func TestAdmiralPriorWeighsTheOpeningBelief(t *testing.T) {
	r := submarine.DefaultRules()
	for _, w := range []float64{0.25, 0.5, 0.9} {
		cfg := smallAdmiral()
		cfg.Belief.SpreadWeight = w
		a := NewAdmiral(r, cfg, rand.New(rand.NewPCG(1, 2)))
		a.Place()
		a.plan.snapshot()
		sp := a.shared.prior
		n := 0
		for _, tup := range a.plan.pe.tup {
			if sp.spreadAt(r.Board, tup, a.plan.pe.ships, &a.enemyDisp) {
				n++
			}
		}
		got := float64(n) / float64(len(a.plan.pe.tup))
		want := w + (1-w)*sp.spreadN[3]/sp.all[3]
		require.InDelta(t, want, got, 0.03, "weight %g", w)
		require.Len(t, a.plan.pe.tup, cfg.Search.EvalCap)
	}
	// Weight 0: the belief's own uniform subsample.
	cfg := smallAdmiral()
	cfg.Belief.SpreadWeight = 0
	a := NewAdmiral(r, cfg, rand.New(rand.NewPCG(1, 2)))
	a.Place()
	require.False(t, a.plan.weighEnemy(cfg.Search.EvalCap))
}

func TestAdmiralPriorUndoesDisplacements(t *testing.T) {
	r := submarine.DefaultRules()
	b := r.Board
	sp := newSpreadPrior(r, 3)
	at := func(x, y int) grid.Cell { c, _ := b.At(x, y); return c }
	pack := func(cs ...grid.Cell) uint64 {
		var t uint64
		for i, c := range cs {
			t |= uint64(uint8(c)) << (8 * i)
		}
		return t
	}
	ships := []int{0, 1, 2}
	var disp [submarine.MaxShips][2]int
	// (0,0), (3,0), (0,3): pairwise 3 apart.
	require.True(t, sp.spreadAt(b, pack(at(0, 0), at(3, 0), at(0, 3)), ships, &disp))
	require.False(t, sp.spreadAt(b, pack(at(0, 0), at(2, 0), at(0, 3)), ships, &disp))
	// Ship 1 moved by (-1, 0): now on (2,0), started on (3,0).
	disp[1] = [2]int{-1, 0}
	require.True(t, sp.spreadAt(b, pack(at(0, 0), at(2, 0), at(0, 3)), ships, &disp))
}

func TestKeepRetreat(t *testing.T) {
	tests := []struct {
		name    string
		dangers []float64
		k       int
		wantK   int
		want    []float64 // dangers in the new order
	}{
		{name: "safest among the searched", dangers: []float64{0.5, 0.1, 0.9, 0.1}, k: 2, wantK: 2, want: []float64{0.5, 0.1, 0.9, 0.1}},
		{name: "safest moved in", dangers: []float64{0.5, 0.6, 0.9, 0.05, 0.05}, k: 2, wantK: 3, want: []float64{0.5, 0.6, 0.05, 0.9, 0.05}},
		{name: "all searched", dangers: []float64{0.5, 0.1}, k: 2, wantK: 2, want: []float64{0.5, 0.1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p planner
			for _, d := range tt.dangers {
				p.cands = append(p.cands, scored{danger: d})
			}
			require.Equal(t, tt.wantK, p.keepRetreat(tt.k))
			var got []float64
			for _, c := range p.cands {
				got = append(got, c.danger)
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestOpponentKind(t *testing.T) {
	r := submarine.DefaultRules()
	b := r.Board
	cfg := DefaultAdmiralConfig().Opponent
	us := submarine.NewFleet(r, submarine.Placement{0, 1, 5}) // (0,0), (1,0), (0,1)
	none := [submarine.MaxShips]grid.Cell{grid.None, grid.None, grid.None, grid.None, grid.None, grid.None, grid.None, grid.None}
	located := none
	located[0] = 12 // (2,2)
	attack := submarine.Event{Kind: submarine.Attack, At: 6}
	away := submarine.Event{Kind: submarine.Move, Ship: 0, DX: 2, DY: 0} // (2,2) -> (4,2): 3 from our fleet instead of 2
	tests := []struct {
		name string
		feed func(o *opponentStats)
		want opponentKind
	}{
		{name: "too few", feed: func(o *opponentStats) {
			for range 3 {
				o.observe(attack, &none, &us, b)
			}
		}, want: kindUnknown},
		{name: "camper", feed: func(o *opponentStats) {
			for range 20 {
				o.observe(attack, &none, &us, b)
			}
		}, want: kindCamper},
		{name: "mover", feed: func(o *opponentStats) {
			for k := range 20 {
				if k%3 == 0 {
					o.observe(attack, &none, &us, b)
				} else {
					o.observe(submarine.Event{Kind: submarine.Move, Ship: 1, DX: 1}, &none, &us, b)
				}
			}
		}, want: kindMover},
		{name: "evader", feed: func(o *opponentStats) {
			for k := range 20 {
				if k%2 == 0 {
					o.observe(attack, &none, &us, b)
				} else {
					o.observe(away, &located, &us, b)
					o.observe(attack, &located, &us, b)
				}
			}
		}, want: kindEvader},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o opponentStats
			tt.feed(&o)
			require.Equal(t, tt.want, o.kind(&cfg), "%s", &o)
		})
	}
}

// TestAdmiralCautionAgainstLocatedStrongerShips sets up a position with no
// hidden information left and the stall rule at its boldest: admiral may
// approach a located enemy ship only with a strictly stronger ship.
func TestAdmiralCautionAgainstLocatedStrongerShips(t *testing.T) {
	r := submarine.DefaultRules()
	b := r.Board
	at := func(x, y int) grid.Cell { c, _ := b.At(x, y); return c }
	ours := submarine.Placement{at(0, 0), at(4, 0), at(0, 4)}
	theirs := submarine.Placement{at(2, 2), at(4, 4), at(4, 2)}
	for seed := range uint64(6) {
		a := NewAdmiral(r, smallAdmiral(), rand.New(rand.NewPCG(seed, 9)))
		a.Place()
		a.placement = ours
		a.me = submarine.NewFleet(r, ours)
		for i := range 3 {
			require.NoError(t, a.EnemyBelief().Restrict(i, grid.Of(theirs[i])))
			require.NoError(t, a.OwnBelief().Restrict(i, grid.Of(ours[i])))
		}
		a.actions, a.lastHit = 2000, 0 // 1000 quiet turns: caution x0.854^100
		// Every enemy ship at 3 hp: no ship of ours is stronger, none may
		// approach.
		a.enemyHP = [submarine.MaxShips]int8{3, 3, 3}
		act := a.Act()
		require.Less(t, a.plan.boldness(), 1e-5)
		if act.Kind != submarine.Move {
			continue
		}
		for _, c := range theirs {
			require.Greater(t, b.Chebyshev(act.To, c), 1, "seed %d: %s walks into the reach of a located ship at least as strong", seed, a.actionName(act))
		}
	}
}

// admiralKnowing is a fresh admiral (seed) whose belief of the enemy fleet
// holds only theirs and, when ownKnown, whose exposure belief holds only
// ours: both placements drawn from rng.
func admiralKnowing(t *testing.T, r *submarine.Rules, seed, stream uint64, rng *rand.Rand, ownKnown bool) (a *Admiral, theirs submarine.Placement) {
	t.Helper()
	a = NewAdmiral(r, smallAdmiral(), rand.New(rand.NewPCG(seed, stream)))
	a.Place()
	ours := players.RandomPlacement(r, rng)
	theirs = players.RandomPlacement(r, rng)
	a.placement = ours
	a.me = submarine.NewFleet(r, ours)
	for i := range 3 {
		require.NoError(t, a.EnemyBelief().Restrict(i, grid.Of(theirs[i])))
		if ownKnown {
			require.NoError(t, a.OwnBelief().Restrict(i, grid.Of(ours[i])))
		}
	}
	return a, theirs
}

// solverActions is the exact solver's value of every action of admiral a
// in the position with the enemy fleet theirs, best first.
func solverActions(t *testing.T, r *submarine.Rules, a *Admiral, theirs submarine.Placement) []endgame.ScoredAction {
	t.Helper()
	pos, err := endgame.Known(r, a.me, theirs, a.enemyHP)
	require.NoError(t, err)
	acts, err := a.shared.solver.Actions(pos)
	require.NoError(t, err)
	return acts
}

// requireKeepsValue checks that act, among acts, keeps the position's
// value (acts[0]'s), and reports whether act was among them.
func requireKeepsValue(t *testing.T, seed uint64, a *Admiral, act submarine.Action, acts []endgame.ScoredAction) bool {
	t.Helper()
	for _, sa := range acts {
		if sa.Action == act {
			require.Zero(t, sa.Value.Compare(acts[0].Value), "seed %d: %s is %s, the position %s", seed, a.actionName(act), sa.Value, acts[0].Value)
			return true
		}
	}
	return false
}

// TestAdmiralKeepsTheSolvedValue puts admiral in positions of perfect
// information (both beliefs restricted to the true placements) and checks
// that its action keeps the exact solver's value of the position: a win
// when there is one, never a step from a draw into a loss.
func TestAdmiralKeepsTheSolvedValue(t *testing.T) {
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(4, 4))
	solved := 0
	for seed := range uint64(4) {
		a, theirs := admiralKnowing(t, r, seed, 11, rng, true)
		// Damage both fleets a little so that the table covers some.
		a.me.HP[0], a.enemyHP[0] = 1, int8(1+seed%3)
		act := a.Act()
		require.NotZero(t, a.PerfectAt())
		if requireKeepsValue(t, seed, a, act, solverActions(t, r, a, theirs)) {
			solved++
		}
	}
	require.Equal(t, 4, solved)
}

// TestAdmiralTakesForcedWinWhileHidden: with the enemy fleet known and our
// own still hidden from the enemy (our exposure belief not a singleton),
// and no opponent model that may search, a position the exact solver
// values as won is played as won: the solver assumes an enemy that knows
// our fleet, so its win is forced against any enemy. Admiral's action
// keeps the win and its decision says so.
func TestAdmiralTakesForcedWinWhileHidden(t *testing.T) {
	r := submarine.DefaultRules()
	rng := rand.New(rand.NewPCG(5, 5))
	won := 0
	for seed := range uint64(12) {
		a, theirs := admiralKnowing(t, r, seed, 12, rng, false)
		a.enemyHP = [submarine.MaxShips]int8{1, 1, 1} // a weak enemy: often a forced win
		require.Greater(t, a.OwnBelief().Count(), 1, "our fleet is hidden")
		require.False(t, a.plan.exploitable(), "no opponent model search at the start")
		acts := solverActions(t, r, a, theirs)
		act := a.Act()
		if acts[0].Value.Outcome != endgame.Win {
			continue
		}
		won++
		require.Equal(t, "solved", a.Explain().State, "seed %d: a forced win is played as one", seed)
		require.True(t, requireKeepsValue(t, seed, a, act, acts), "seed %d: %s is a legal action", seed, a.actionName(act))
	}
	require.Positive(t, won, "some positions are forced wins")
}
