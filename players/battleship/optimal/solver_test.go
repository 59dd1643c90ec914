package bsoptimal

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

func rules(t testing.TB, w, h int, fleet ...int) *battleship.Rules {
	t.Helper()
	r, err := battleship.NewRules(grid.MustBoard(w, h, nil), fleet)
	require.NoError(t, err)
	return r
}

func solver(t testing.TB, w, h int, fleet ...int) *Solver {
	t.Helper()
	s, err := New(rules(t, w, h, fleet...), Options{})
	require.NoError(t, err)
	return s
}

// TestLayouts: the solver's layouts are as many as bsbelief.Count's exact
// count of the empty board.
func TestLayouts(t *testing.T) {
	for _, tc := range []struct {
		w, h  int
		fleet []int
	}{{1, 5, []int{1}}, {3, 3, []int{2, 1}}, {4, 4, []int{3, 2, 1}}, {5, 5, []int{3, 2, 2, 1}}, {6, 6, []int{3, 2, 2, 1, 1}}, {4, 5, []int{2, 1, 1}}} {
		r := rules(t, tc.w, tc.h, tc.fleet...)
		s, err := New(r, Options{})
		require.NoError(t, err)
		c, err := bsbelief.Count(context.Background(), battleship.NewPosition(r), bsbelief.CountOptions{})
		require.NoError(t, err)
		require.Equal(t, c.Total.Int64(), int64(s.Layouts()), "%dx%d %v", tc.w, tc.h, tc.fleet)
	}
}

// TestHandValues: values computed by hand.
func TestHandValues(t *testing.T) {
	for _, tc := range []struct {
		name            string
		w, h            int
		fleet           []int
		optimal, greedy float64
	}{
		// one 1-cell ship on n cells: every policy that never repeats a
		// cell finds it at shot k with probability 1/n: (n+1)/2
		{"1x1 one single", 1, 1, []int{1}, 1, 1},
		{"1x2 one single", 1, 2, []int{1}, 1.5, 1.5},
		{"1x5 one single", 1, 5, []int{1}, 3, 3},
		{"2x3 one single", 2, 3, []int{1}, 3.5, 3.5},
		{"3x3 one single", 3, 3, []int{1}, 5, 5},
		// a 2-ship on 1x3: the middle is certain, then one end of two
		{"1x3 a pair", 3, 1, []int{2}, 2.5, 2.5},
		// a 2-ship on 1x4 (layouts 01, 12, 23): a middle cell hits with
		// probability 2/3, then one end sinks half the time (2.5 shots);
		// a miss leaves the far pair (3 shots): 1/3·3 + 2/3·2.5 = 8/3
		{"1x4 a pair", 4, 1, []int{2}, 8.0 / 3, 8.0 / 3},
		// 1x3 with two singles: only 0 and 2 (they may not touch): the
		// certain cells, 2 shots
		{"1x3 two singles", 3, 1, []int{1, 1}, 2, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := solver(t, tc.w, tc.h, tc.fleet...)
			o, err := s.Optimal()
			require.NoError(t, err)
			require.InDelta(t, tc.optimal, o, 1e-12)
			g, err := s.Evaluate(Greedy)
			require.NoError(t, err)
			require.InDelta(t, tc.greedy, g, 1e-12)
		})
	}
}

// naiveOf builds the plain search of naive_test.go on s's layouts.
func naiveOf(s *Solver) (*naive, []int, []byte) {
	nv := &naive{b: s.rules.Board, memo: map[string]float64{}}
	for i := range s.occ {
		var p battleship.Placement
		for _, sh := range s.ships[i*s.nShips : (i+1)*s.nShips] {
			var ship battleship.Ship
			for c := range s.rules.Board.Size() {
				if sh&(1<<uint(c)) != 0 {
					ship = append(ship, grid.Cell(c))
				}
			}
			p = append(p, ship)
		}
		nv.layouts = append(nv.layouts, p)
	}
	set := make([]int, len(nv.layouts))
	for i := range set {
		set[i] = i
	}
	marks := make([]byte, s.rules.Board.Size())
	for i := range marks {
		marks[i] = '.'
	}
	return nv, set, marks
}

// naiveGreedy is greedy on naive's state: the unshot cells the most
// layouts of set cover.
func naiveGreedy(nv *naive) func([]int, []byte) []int {
	return func(set []int, marks []byte) []int {
		cnt := make([]int, len(marks))
		for _, i := range set {
			for c := range nv.layouts[i].Cells().All() {
				if marks[c] == '.' {
					cnt[c]++
				}
			}
		}
		var best []int
		top := 0
		for c, v := range cnt {
			switch {
			case v > top:
				top, best = v, []int{c}
			case v == top && v > 0:
				best = append(best, c)
			}
		}
		return best
	}
}

// TestAgainstNaive: the solver (pruned, memoised on reduced and symmetric
// keys, certain cells first) agrees with the plain search on small boards,
// for the optimum and for greedy.
func TestAgainstNaive(t *testing.T) {
	for _, tc := range []struct {
		w, h  int
		fleet []int
	}{{3, 3, []int{2, 1}}, {4, 2, []int{2, 1}}, {3, 3, []int{1, 1}}, {6, 1, []int{2, 1}}, {3, 4, []int{2, 1}}, {3, 4, []int{3, 1}}, {3, 3, []int{3}}, {5, 2, []int{2, 2}}} {
		s := solver(t, tc.w, tc.h, tc.fleet...)
		o, err := s.Optimal()
		require.NoError(t, err)
		g, err := s.Evaluate(Greedy)
		require.NoError(t, err)
		nv, set, marks := naiveOf(s)
		require.InDelta(t, nv.value(set, marks, nil), o, 1e-9, "optimal %dx%d %v", tc.w, tc.h, tc.fleet)
		nv, set, marks = naiveOf(s)
		require.InDelta(t, nv.value(set, marks, naiveGreedy(nv)), g, 1e-9, "greedy %dx%d %v", tc.w, tc.h, tc.fleet)
	}
}

// TestRegrets: on every state greedy reaches, no move beats the optimum,
// and greedy's excess over the optimum is the sum of its moves' regrets
// weighted by their reach.
func TestRegrets(t *testing.T) {
	for _, tc := range []struct {
		w, h  int
		fleet []int
	}{{3, 4, []int{2, 1}}, {4, 4, []int{3, 2, 1}}, {4, 3, []int{3, 1}}} {
		s := solver(t, tc.w, tc.h, tc.fleet...)
		g, err := s.Evaluate(Greedy)
		require.NoError(t, err)
		excess, reach := 0.0, 0.0
		best, value, err := s.Regrets(Greedy, func(v Visit) {
			require.GreaterOrEqual(t, v.Regret(), -1e-9)
			require.Equal(t, len(v.Chosen), len(v.Q))
			if v.Knowledge.Shots() == 0 {
				reach += v.Reach
			}
			excess += v.Reach * v.Regret()
		})
		require.NoError(t, err)
		require.InDelta(t, 1, reach, 1e-12)
		require.InDelta(t, g, value, 1e-9)
		require.LessOrEqual(t, best, g+1e-9)
		require.InDelta(t, g-best, excess, 1e-9, "%dx%d %v", tc.w, tc.h, tc.fleet)
	}
}

// TestOptimalNotAboveGreedy: the optimum never exceeds greedy, nor a
// policy that shoots the first cell greedy names (another tie-break).
func TestOptimalNotAboveGreedy(t *testing.T) {
	notAboveGreedy(t, []board{{3, 5, []int{2, 2}}, {4, 3, []int{3, 2}}, {3, 4, []int{2, 1, 1}}})
}

// TestOptimalNotAboveGreedyFullSize is TestOptimalNotAboveGreedy on 4x4.
func TestOptimalNotAboveGreedyFullSize(t *testing.T) {
	race.SkipFullSize(t)
	notAboveGreedy(t, []board{{4, 4, []int{2, 1}}, {4, 4, []int{2, 1, 1}}, {4, 4, []int{3, 2, 1}}})
}

type board struct {
	w, h  int
	fleet []int
}

func notAboveGreedy(t *testing.T, boards []board) {
	first := func(k *Knowledge) []grid.Cell { return Greedy(k)[:1] }
	for _, tc := range boards {
		s := solver(t, tc.w, tc.h, tc.fleet...)
		o, err := s.Optimal()
		require.NoError(t, err)
		for _, pol := range []Policy{Greedy, first} {
			v, err := s.Evaluate(pol)
			require.NoError(t, err)
			require.LessOrEqual(t, o, v+1e-9)
		}
	}
}

// TestGreedyBot: the exact value of Greedy is the mean number of shots of
// the greedy bot (bsplayers "greedy") on the same board: over n games with
// a fixed seed, the mean lies within 4 standard errors (sd/√n, sd measured)
// of the exact value. Greedy's ties are the bot's (uniform among the cells
// of equal exact count), so a difference beyond that would be a bug.
func TestGreedyBot(t *testing.T) {
	greedyBot(t, 300, []board{{3, 4, []int{2, 1}}})
}

// TestGreedyBotFullSize is TestGreedyBot on 4x4 boards, 1000 games each.
func TestGreedyBotFullSize(t *testing.T) {
	race.SkipFullSize(t)
	greedyBot(t, 1000, []board{{4, 4, []int{2, 1}}, {4, 4, []int{3, 2, 1}}})
}

func greedyBot(t *testing.T, n int, boards []board) {
	for _, tc := range boards {
		r := rules(t, tc.w, tc.h, tc.fleet...)
		s, err := New(r, Options{})
		require.NoError(t, err)
		exact, err := s.Evaluate(Greedy)
		require.NoError(t, err)
		factory, err := bsplayers.New("greedy", r, nil)
		require.NoError(t, err)
		placer, err := bsbelief.NewUniformPlacer(r)
		require.NoError(t, err)
		sum, sq := 0.0, 0.0
		for i := range n {
			layout, err := placer.Place(rand.New(rand.NewPCG(17, uint64(2*i))))
			require.NoError(t, err)
			shots, err := bsplayers.Solo(context.Background(), r, factory(rand.New(rand.NewPCG(17, uint64(2*i+1)))), layout)
			require.NoError(t, err)
			sum += float64(shots)
			sq += float64(shots * shots)
		}
		mean := sum / float64(n)
		sd := math.Sqrt((sq - sum*mean) / float64(n-1))
		require.InDelta(t, exact, mean, 4*sd/math.Sqrt(float64(n)), "%dx%d %v: exact %.4f, %d games %.4f (sd %.3f)", tc.w, tc.h, tc.fleet, exact, n, mean, sd)
	}
}

// TestTooLarge: boards beyond the solver are refused with ErrTooLarge and
// a message that says which limit.
func TestTooLarge(t *testing.T) {
	_, err := New(battleship.DefaultRules(), Options{})
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorContains(t, err, "the 10x10 board has 100 cells, the exact solver takes at most 64")

	_, err = New(rules(t, 8, 8, 4, 3, 2, 1), Options{MaxLayouts: 1000})
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorContains(t, err, "more than 1000 layouts")

	s, err := New(rules(t, 4, 4, 2, 1), Options{MaxStates: 100})
	require.NoError(t, err)
	_, err = s.Optimal()
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorContains(t, err, "more than 100 knowledge states")

	_, err = New(rules(t, 3, 3, 3, 3, 2), Options{})
	require.ErrorContains(t, err, "does not fit")
}

// TestPolicyErrors: a policy that names no cell or a shot cell is refused.
func TestPolicyErrors(t *testing.T) {
	s := solver(t, 3, 3, 2, 1)
	_, err := s.Evaluate(func(*Knowledge) []grid.Cell { return nil })
	require.ErrorIs(t, err, ErrPolicy)
	_, err = s.Evaluate(func(k *Knowledge) []grid.Cell {
		if k.Shots() == 0 {
			return []grid.Cell{4}
		}
		return []grid.Cell{4}
	})
	require.ErrorIs(t, err, ErrPolicy)
	require.ErrorContains(t, err, "B2 is not an unshot cell")
}

// TestKnowledge: the knowledge a policy sees agrees with the position a
// bot would see, and with bsbelief.Count.
func TestKnowledge(t *testing.T) {
	r := rules(t, 4, 4, 3, 2, 1)
	s, err := New(r, Options{})
	require.NoError(t, err)
	checked := 0
	_, err = s.Evaluate(func(k *Knowledge) []grid.Cell {
		if checked < 200 {
			checked++
			pos := k.Position()
			c, err := bsbelief.Count(context.Background(), pos, bsbelief.CountOptions{})
			require.NoError(t, err)
			require.Equal(t, c.Total.Int64(), int64(k.Layouts()), pos.String())
			for cell := range k.Unknown().All() {
				require.Equal(t, c.Cells[cell].Int64(), int64(k.Count(cell)), pos.String())
			}
			rem, err := pos.Remaining()
			require.NoError(t, err)
			require.Len(t, rem, k.Afloat())
		}
		return Greedy(k)
	})
	require.NoError(t, err)
	require.Equal(t, 200, checked)
}

// TestPolicies: the policies of ParsePolicy. Scored by share is greedy;
// on 4x3 with a 3 and a 1 greedy's loss is in its ties, and breaking them
// by the answer's entropy plays perfectly; no policy beats the optimum.
func TestPolicies(t *testing.T) {
	s := solver(t, 4, 3, 3, 1)
	o, err := s.Optimal()
	require.NoError(t, err)
	g, err := s.Evaluate(Greedy)
	require.NoError(t, err)
	share, err := s.Evaluate(Scored(func(k *Knowledge, c grid.Cell) float64 { return k.Share(c) }))
	require.NoError(t, err)
	require.InDelta(t, g, share, 1e-12)
	require.Greater(t, g, o+0.1)
	for _, name := range []string{"greedy", "entropy-tie", "entropy:0.3", "lookahead"} {
		pol, err := ParsePolicy(name)
		require.NoError(t, err)
		v, err := s.Evaluate(pol)
		require.NoError(t, err)
		require.GreaterOrEqual(t, v, o-1e-9, name)
		if name == "entropy-tie" {
			require.InDelta(t, o, v, 1e-9)
		}
	}
	for _, bad := range []string{"best", "entropy:", "entropy:-1", "entropy:11"} {
		_, err := ParsePolicy(bad)
		require.Error(t, err, bad)
	}
	k := s.Start()
	ps, ks := k.Answers(0)
	require.Len(t, ps, 3) // a corner: miss, hit, kill (the 1-cell ship)
	require.InDelta(t, 1, ps[0]+ps[1]+ps[2], 1e-12)
	require.Len(t, ks, 3)
	require.InDelta(t, -(ps[0]*math.Log2(ps[0]) + ps[1]*math.Log2(ps[1]) + ps[2]*math.Log2(ps[2])), k.Entropy(0), 1e-12)
}

// TestDone: closing Options.Done stops a search with context.Canceled.
func TestDone(t *testing.T) {
	done := make(chan struct{})
	close(done)
	s, err := New(rules(t, 4, 4, 2, 1), Options{Done: done})
	require.NoError(t, err)
	_, err = s.Optimal()
	require.ErrorIs(t, err, context.Canceled)
	_, err = s.Evaluate(Greedy)
	require.ErrorIs(t, err, context.Canceled)
}
