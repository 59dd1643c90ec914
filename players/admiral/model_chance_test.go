package admiral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players/chart"
)

// bruteQ is chanceQ by the definition: the depth-limited expectimax over
// the same actions (chanceActions below the root) and the model's
// mixture, without tables, pruning or budget.
func bruteQ(t *testing.T, s *modelSearch, st msState, a submarine.Action, depth int) float64 {
	mark := len(s.charts)
	defer func() { s.charts = s.charts[:mark] }()
	st2, won := s.after(st, a)
	if won {
		return 1
	}
	switch s.solverSays(&st2.them, &st2.us) {
	case endgame.Win:
		return 0
	case endgame.Loss:
		return 1
	}
	if depth <= 1 {
		return 0
	}
	them, us := st2.them, st2.us
	mix := s.m.mixture(s.r, &modelView{them: &them, us: &us, chart: st2.chart}, s.m.unmodelled, 0.01, nil)
	total := 0.0
	for _, ap := range mix {
		total += ap.p
	}
	sum := 0.0
	for _, ap := range mix {
		if ap.p < s.support*total {
			continue
		}
		st3, lost := s.reply(st2, ap.a)
		if lost {
			continue
		}
		sum += float64(float32(ap.p)) * bruteValue(t, s, st3, depth-1)
	}
	return s.discount * sum
}

func bruteValue(t *testing.T, s *modelSearch, st msState, depth int) float64 {
	switch s.solverSays(&st.us, &st.them) {
	case endgame.Win:
		return 1
	case endgame.Loss:
		return 0
	}
	best := 0.0
	for _, a := range s.chanceActions(&st, nil) {
		best = max(best, bruteQ(t, s, st, a, depth))
	}
	return best
}

// spreadChart is the chart of our living ships in st with up to extra
// further placements: random distinct cells for them, as a chart of a
// fleet the enemy has not located.
func spreadChart(r *submarine.Rules, us *submarine.Fleet, extra int, rng *rand.Rand) []uint64 {
	pl := []uint64{packLiving(r, us)}
	size := r.Board.Size()
	for range extra {
		var u uint64
		var used grid.Set
		for i := range len(r.Fleet) {
			if !us.Alive.Has(i) {
				continue
			}
			c := grid.Cell(rng.IntN(size))
			for used.Has(c) {
				c = grid.Cell(rng.IntN(size))
			}
			used.Add(c)
			u |= uint64(uint8(c)) << (8 * i)
		}
		pl = append(pl, u)
	}
	return pl
}

// TestGambleMatchesBruteForce: on drawn positions of perfect information
// whose chart of us is spread over a few placements (the enemy has not
// located us), against each joint-greedy point, the gamble search's value
// of every root action is the brute-force expectimax's, at every depth
// of its deepening; a second search on the tables carried over gives the
// same answer, and so does a root asked again and again within a budget
// too small for one search.
func TestGambleMatchesBruteForce(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	fam := modelFamily(sv)
	rng := rand.New(rand.NewPCG(41, 7))
	gambled, resumed := 0, 0
	for policy := range 4 {
		m := pointModel(fam, policy)
		for n := range 8 {
			st, allowed := drawnRoot(t, r, sv, rng)
			st.chart = spreadChart(r, &st.us, n, rng)
			ok := func(a submarine.Action) bool { return allowed[a] }
			fresh := modelSearch{r: r, sv: sv, m: &m, support: 0.05, discount: 0.9}
			fresh.reset(1 << 30)
			act, v, depth := fresh.gamble(st, ok, 3)
			require.Equal(t, 3, depth)
			ref := modelSearch{r: r, sv: sv, m: &m, support: 0.05, discount: 0.9}
			want := 0.0
			for _, a := range fresh.ourActions(&st, ok, nil) {
				q := bruteQ(t, &ref, st, a, 3)
				want = max(want, q)
				require.InDelta(t, q, fresh.chanceQ(st, a, 3, 0), 1e-6, "policy %s root %d action %v", fam[policy].name(), n, a)
			}
			require.InDelta(t, want, v, 1e-6, "policy %s root %d", fam[policy].name(), n)
			if v > 0 {
				gambled++
				require.True(t, allowed[act], "policy %s root %d: %v is not allowed", fam[policy].name(), n, act)
				require.InDelta(t, v, bruteQ(t, &ref, st, act, 3), 1e-6, "policy %s root %d: the action's value", fam[policy].name(), n)
			}
			a2, v2, _ := fresh.gamble(st, ok, 3)
			require.Equal(t, []any{act, v}, []any{a2, v2}, "carried tables")
			lean := modelSearch{r: r, sv: sv, m: &m, support: 0.05, discount: 0.9}
			calls := 0
			for ; calls < 5000; calls++ {
				lean.reset(200)
				a3, v3, d3 := lean.gamble(st, ok, 3)
				if d3 == 3 {
					require.Equal(t, act, a3, "policy %s root %d", fam[policy].name(), n)
					require.InDelta(t, v, v3, 1e-9)
					break
				}
			}
			require.Less(t, calls, 5000, "the lean search never finished")
			if calls > 0 {
				resumed++
			}
		}
	}
	require.Positive(t, gambled, "no root had a chance of a win")
	require.Positive(t, resumed, "no root needed more than one lean search")
}

// TestGambleAmbushesCamper: a position of a drawn game against the camper
// (seed 91, game 7). Our w (1 hp) is located on D2; our c (2 hp) is on C1,
// but the enemy holds it on C1, C2, C3 or D3. Its lone w (2 hp) camps on
// B5. Against an enemy that knew our fleet this is a draw: whoever steps
// next to the other is hit first. The camper does not know where c is:
// c moved three rows down is on C4 or C5 for it, and its attack in reach
// is a coin flip between the two. Half the time c survives, hits w twice
// and wins, and the other half c is lost and the draw stands. The search
// finds the gamble, worth at least half a win discounted twice, with an
// action that keeps the solver's value; against a perfect enemy there is
// nothing to gamble on.
func TestGambleAmbushesCamper(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	pos, err := endgame.ParsePosition(r, "w@3,1:1 c@2,0:2 / w@1,4:2")
	require.NoError(t, err)
	v, err := sv.Solve(pos)
	require.NoError(t, err)
	require.Equal(t, endgame.Draw, v.Outcome)
	allowed := safeSet(t, sv, pos)
	b := r.Board
	cell := func(x, y int) grid.Cell { c, _ := b.At(x, y); return c }
	var pl []uint64
	for _, c := range []grid.Cell{cell(2, 0), cell(2, 1), cell(2, 2), cell(3, 2)} {
		pl = append(pl, uint64(cell(3, 1))|uint64(c)<<8)
	}
	require.Equal(t, cell(2, 0), chart.Cell(pl[0], 1))
	root := msState{us: pos.Mover, them: pos.Other, chart: pl}
	fam := modelFamily(sv)
	for k, p := range fam {
		m := pointModel(fam, k)
		s := modelSearch{r: r, sv: sv, m: &m, support: 0.05, discount: 0.95}
		s.reset(200000)
		act, val, depth := s.gamble(root, func(a submarine.Action) bool { return allowed[a] }, 4)
		switch p.name() {
		case "camper":
			require.Equal(t, 4, depth)
			require.GreaterOrEqual(t, val, 0.5*0.95*0.95-1e-6)
			require.True(t, allowed[act])
			require.Equal(t, submarine.Move, act.Kind, "%v", act)
			require.Equal(t, 1, act.Ship)
			require.LessOrEqual(t, b.Chebyshev(act.To, cell(1, 4)), 1, "c steps next to the camper")
		case "perfect", "uniform":
			require.Zero(t, val, "%s", p.name())
		}
		require.False(t, math.IsNaN(val))
	}
}

// TestGambleMemoChangesNothing: repeated lean gambles of the same roots,
// between which the AND-OR search adds replies to the shared table (as the
// exploit search does before every gamble of a game), answer the same with
// the memo of roots (groots) as without it, with the same node counts and
// the same values table; and the memo answers some of them.
func TestGambleMemoChangesNothing(t *testing.T) {
	r := submarine.DefaultRules()
	sv, err := endgame.Shared(r, endgame.Options{Nodes: 3000})
	require.NoError(t, err)
	fam := modelFamily(sv)
	rng := rand.New(rand.NewPCG(41, 8))
	for policy := range 2 {
		m := pointModel(fam, policy)
		memo := modelSearch{r: r, sv: sv, m: &m, support: 0.05, discount: 0.9}
		plain := modelSearch{r: r, sv: sv, m: &m, support: 0.05, discount: 0.9}
		for n := range 3 {
			st, allowed := drawnRoot(t, r, sv, rng)
			st.chart = spreadChart(r, &st.us, n, rng)
			ok := func(a submarine.Action) bool { return allowed[a] }
			for call := range 60 {
				for _, s := range []*modelSearch{&memo, &plain} {
					if call%3 == 1 {
						s.reset(40) // the AND-OR search's replies enter the table
						s.exploit(st, ok, 4)
					}
					s.reset(150)
				}
				plain.groots = rootMemo{}
				a, v, d := memo.gamble(st, ok, 4)
				pa, pv, pd := plain.gamble(st, ok, 4)
				require.Equal(t, []any{pa, pv, pd, plain.nodes, plain.cgen}, []any{a, v, d, memo.nodes, memo.cgen},
					"policy %d root %d call %d", policy, n, call)
			}
		}
		require.Positive(t, memo.groots.hits, "policy %d: the memo never answered", policy)
	}
}
