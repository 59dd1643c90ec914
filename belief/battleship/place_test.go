package bsbelief

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// layouts enumerates the occupied-cell sets of every layout consistent with
// pos (plain enumeration, independent of the counting programme).
func layouts(t *testing.T, pos *battleship.Position) []grid.Set {
	t.Helper()
	rem, err := pos.Remaining()
	require.NoError(t, err)
	b := pos.Rules.Board
	forbidden := bruteClosed(pos)
	damaged := pos.Set(battleship.Damaged)
	var out []grid.Set
	var rec func(i, from int, zone, occ grid.Set)
	rec = func(i, from int, zone, occ grid.Set) {
		if i == len(rem) {
			if damaged.AndNot(occ).Empty() {
				out = append(out, occ)
			}
			return
		}
		list := spots(b, rem[i], forbidden)
		start := 0
		if i > 0 && rem[i] == rem[i-1] {
			start = from
		}
		for k := start; k < len(list); k++ {
			sp := list[k]
			if sp.cells.Intersects(zone) || sp.cells.AndNot(damaged).Empty() {
				continue
			}
			rec(i+1, k+1, zone.Union(sp.zone), occ.Union(sp.cells))
		}
	}
	rec(0, 0, grid.Set{}, grid.Set{})
	return out
}

// chiSquareUniform draws n layouts and checks them against the uniform
// distribution over want: every draw valid and among want, and the
// chi-square statistic below the 0.1% critical value (Wilson-Hilferty).
func chiSquareUniform(t *testing.T, want []grid.Set, n int, draw func() grid.Set) {
	t.Helper()
	chi, crit, counts := chiSquare(t, want, n, draw)
	t.Logf("%d layouts, %d draws: chi-square %.1f, 0.1%% critical value %.1f", len(want), n, chi, crit)
	require.Less(t, chi, crit, "chi-square %.1f with %d degrees of freedom", chi, len(want)-1)
	for i, c := range counts {
		require.Positive(t, c, "layout %v never drawn", want[i])
	}
}

func chiSquare(t *testing.T, want []grid.Set, n int, draw func() grid.Set) (chi, crit float64, counts []int) {
	t.Helper()
	index := make(map[grid.Set]int, len(want))
	for i, s := range want {
		index[s] = i
	}
	require.Len(t, index, len(want), "layouts are distinct")
	counts = make([]int, len(want))
	for range n {
		s := draw()
		i, ok := index[s]
		require.True(t, ok, "drawn layout %v is not a consistent layout", s)
		counts[i]++
	}
	exp := float64(n) / float64(len(want))
	for _, c := range counts {
		d := float64(c) - exp
		chi += d * d / exp
	}
	k := float64(len(want) - 1)
	z := 3.09 // one-sided 0.1%
	crit = k * math.Pow(1-2/(9*k)+z*math.Sqrt(2/(9*k)), 3)
	return chi, crit, counts
}

func TestUniformPlacerIsUniform(t *testing.T) {
	r := mustRules(t, grid.MustBoard(4, 4, nil), 2, 1, 1)
	all := layouts(t, battleship.NewPosition(r))
	total, _ := brute(t, battleship.NewPosition(r))
	require.Len(t, all, int(total))
	n := 30 * len(all)
	for _, tt := range []struct {
		name     string
		maxTries int
	}{
		{"rejection", 1 << 20},
		{"exact sampler", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u, err := NewUniformPlacer(r)
			require.NoError(t, err)
			u.MaxTries = tt.maxTries
			rng := rand.New(rand.NewPCG(42, 1))
			chiSquareUniform(t, all, n, func() grid.Set {
				p, err := u.Place(rng)
				require.NoError(t, err)
				require.NoError(t, r.ValidatePlacement(p))
				return p.Cells()
			})
		})
	}
}

func TestChiSquareDetectsTheHumanPlacer(t *testing.T) {
	// The uniformity test can fail: the human-like placer fails it.
	r := mustRules(t, grid.MustBoard(4, 4, nil), 2, 1, 1)
	all := layouts(t, battleship.NewPosition(r))
	h, err := NewHumanPlacer(r)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(42, 1))
	chi, crit, _ := chiSquare(t, all, 30*len(all), func() grid.Set {
		p, err := h.Place(rng)
		require.NoError(t, err)
		return p.Cells()
	})
	require.Greater(t, chi, crit)
}

func TestSamplerIsUniformGivenObservations(t *testing.T) {
	pos, err := battleship.ParsePosition("fleet: 3,2,1,1\n.....\n.o...\n...x.\n.....\n#....", nil)
	require.NoError(t, err)
	all := layouts(t, pos)
	require.Greater(t, len(all), 20)
	s, err := NewSampler(context.Background(), pos, 0)
	require.NoError(t, err)
	require.Equal(t, int64(len(all)), s.Total().Int64())
	rng := rand.New(rand.NewPCG(5, 6))
	chiSquareUniform(t, all, 30*len(all), func() grid.Set {
		p, err := s.Sample(rng)
		require.NoError(t, err)
		return p.Cells()
	})
}

func TestUniformPlacerClassic(t *testing.T) {
	r := battleship.DefaultRules()
	u, err := NewUniformPlacer(r)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		p, err := u.Place(rng)
		require.NoError(t, err)
		require.NoError(t, r.ValidatePlacement(p))
	}
}

func TestUniformPlacerNoRoom(t *testing.T) {
	_, err := NewUniformPlacer(mustRules(t, grid.MustBoard(3, 3, nil), 1))
	require.NoError(t, err)
	r := mustRules(t, grid.MustBoard(3, 3, nil), 2, 2, 2)
	u, err := NewUniformPlacer(r)
	require.NoError(t, err)
	u.MaxTries = 1000
	_, err = u.Place(rand.New(rand.NewPCG(1, 2)))
	require.ErrorIs(t, err, ErrNoLayout)
}

// bigOnEdge counts the ships of 2+ cells of p lying entirely on the
// border of the 10x10 board, and all ships of 2+ cells.
func bigOnEdge(r *battleship.Rules, p battleship.Placement) (edge, big int) {
	for _, s := range p {
		if len(s) < 2 {
			continue
		}
		big++
		all := true
		for _, c := range s {
			x, y := r.Board.XY(c)
			all = all && (x == 0 || y == 0 || x == 9 || y == 9)
		}
		if all {
			edge++
		}
	}
	return edge, big
}

// TestStylePlacers: every style draws valid fleets, with the share of big
// ships on the border its name says (uniform about 0.34, human about 0.6,
// inner under 0.15, edge over 0.75); an unknown style is ErrUnknownStyle.
func TestStylePlacers(t *testing.T) {
	r := battleship.DefaultRules()
	for _, tc := range []struct {
		style    string
		min, max float64 // the share of big ships on the border
	}{
		{StyleUniform, 0.25, 0.4},
		{StyleHuman, 0.5, 0.75},
		{StyleInner, 0, 0.15},
		{StyleEdge, 0.75, 1},
	} {
		t.Run(tc.style, func(t *testing.T) {
			p, err := NewStylePlacer(r, tc.style)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(9, 9))
			var edge, n int
			for range 300 {
				l, err := p.Place(rng)
				require.NoError(t, err)
				require.NoError(t, r.ValidatePlacement(l))
				e, b := bigOnEdge(r, l)
				edge += e
				n += b
			}
			share := float64(edge) / float64(n)
			require.GreaterOrEqual(t, share, tc.min)
			require.LessOrEqual(t, share, tc.max)
		})
	}
	require.Len(t, Styles, 4)
	_, err := NewStylePlacer(r, "corner")
	require.ErrorIs(t, err, ErrUnknownStyle)
	require.ErrorContains(t, err, `"corner"`)
}

func TestEstimateCountsTracksExactCounts(t *testing.T) {
	pos, err := battleship.ParsePosition("fleet: 3,2,2,1\n......\n.o....\n...x..\n......\n......\n....o.", nil)
	require.NoError(t, err)
	exact, err := Count(context.Background(), pos, CountOptions{})
	require.NoError(t, err)
	est, err := EstimateCounts(pos, rand.New(rand.NewPCG(2, 3)), 20000)
	require.NoError(t, err)
	require.Equal(t, 20000, est.Draws)
	require.Greater(t, est.ESS, 2000.0, "importance weights stay balanced")
	total, _ := exact.Total.Float64()
	for c := range est.Cells {
		want, _ := exact.Cells[c].Float64()
		p := want / total
		got := est.Share(grid.Cell(c))
		sd := math.Sqrt(p*(1-p)/est.ESS) + 1e-9
		require.Less(t, math.Abs(got-p), 5*sd+1e-6, "cell %s: sampled %.4f, exact %.4f", pos.Rules.CellName(grid.Cell(c)), got, p)
	}
	require.InDelta(t, 1.0, est.Share(3+2*6), 1e-12, "the hit is in every kept draw")
	require.Zero(t, est.Share(1+1*6), "nothing on a miss")
}

func TestEstimateCountsEmptyBoard(t *testing.T) {
	pos, err := battleship.ParsePosition("fleet: 3,2,2,1\n......\n......\n......\n......\n......\n......", nil)
	require.NoError(t, err)
	exact, err := Count(context.Background(), pos, CountOptions{})
	require.NoError(t, err)
	est, err := EstimateCounts(pos, rand.New(rand.NewPCG(2, 3)), 20000)
	require.NoError(t, err)
	total, _ := exact.Total.Float64()
	worst := 0.0
	for c := range est.Cells {
		want, _ := exact.Cells[c].Float64()
		worst = max(worst, math.Abs(est.Share(grid.Cell(c))-want/total))
	}
	require.Less(t, worst, 0.02, "weighted shares are close")
}
