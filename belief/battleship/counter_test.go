package bsbelief

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// gamePositions shoots the cells of each of games random layouts in random
// order and returns every position on the way, game after game (so that
// consecutive positions share a prefix, as a player's do).
func gamePositions(t testing.TB, r *battleship.Rules, games int, seed uint64) []*battleship.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 17))
	u, err := NewUniformPlacer(r)
	require.NoError(t, err)
	var out []*battleship.Position
	for range games {
		layout, err := u.Place(rng)
		require.NoError(t, err)
		sea, err := battleship.NewSea(r, layout)
		require.NoError(t, err)
		pos := battleship.NewPosition(r)
		cells := r.Board.Usable().Cells()
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		for _, c := range cells {
			out = append(out, pos.Clone())
			if sea.Afloat() == 0 {
				break
			}
			res, err := sea.Fire(c)
			require.NoError(t, err)
			pos.Record(res)
		}
	}
	return out
}

// requireSameNumbers is requireSameCount for a count of pos whose work
// and profiles may differ from want's: those of the compact passes
// (want) and the span passes (got) on a position symmetric top to
// bottom, whose halves only the span passes join.
func requireSameNumbers(t *testing.T, pos *battleship.Position, want *Counts, wantErr error, got *Counts, gotErr error) {
	t.Helper()
	pr, err := newProblem(pos)
	if err != nil || wantErr != nil || gotErr != nil || pr.h < 2 || !pr.tbSymmetric() {
		requireSameCount(t, want, wantErr, got, gotErr, pos.Text())
		return
	}
	g := *got
	g.Work, g.States = want.Work, want.States
	requireSameCount(t, want, wantErr, &g, gotErr, pos.Text())
}

func requireSameCount(t *testing.T, want *Counts, wantErr error, got *Counts, gotErr error, msg string) {
	t.Helper()
	if wantErr != nil {
		require.EqualError(t, gotErr, wantErr.Error(), msg)
		return
	}
	require.NoError(t, gotErr, msg)
	require.Equal(t, want.Total.String(), got.Total.String(), msg)
	require.Equal(t, want.Work, got.Work, msg)
	require.Equal(t, want.States, got.States, msg)
	require.Equal(t, want.Remaining, got.Remaining, msg)
	for c := range want.Cells {
		require.Equal(t, want.Cells[c].String(), got.Cells[c].String(), "%s: cell %d", msg, c)
	}
}

// overflowRules has layouts beyond 64 bits (the count restarts with more
// limbs) and few profiles.
func overflowRules(t testing.TB) *battleship.Rules {
	fleet := make([]int, 30)
	for i := range fleet {
		fleet[i] = 1
	}
	return mustRules(t, grid.MustBoard(4, 64, nil), fleet...)
}

// manyVectorRules has 192 fleet vectors (masks of three words).
func manyVectorRules(t testing.TB) *battleship.Rules {
	return mustRules(t, grid.MustBoard(9, 8, nil), 4, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
}

// TestCounterMatchesCount replays game positions through one Counter per
// budget (and one with budgets changing every move): every result, error
// and amount of work is Count's.
func TestCounterMatchesCount(t *testing.T) {
	tests := []struct {
		name    string
		rules   *battleship.Rules
		games   int
		every   int // count every so many positions of the games
		budgets []int64
	}{
		{"6x6", mustRules(t, grid.MustBoard(6, 6, nil), 3, 2, 2, 1, 1), 3, 1, []int64{0, 3000, 20000}},
		{"8x8", mustRules(t, grid.MustBoard(8, 8, nil), 4, 3, 2, 2, 1, 1), 1, 3, []int64{20000, 200000}},
		{"classic", battleship.DefaultRules(), 1, 1, []int64{30000, 300000}},
		{"4x64 overflow", overflowRules(t), 1, 8, []int64{0, 60000, 150000}},
		{"192 fleet vectors", manyVectorRules(t), 1, 6, []int64{0, 100000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if race.Enabled { // ten times slower: a quarter of the positions
				tt.every *= 4
			}
			var positions []*battleship.Position
			for i, pos := range gamePositions(t, tt.rules, tt.games, 3) {
				if i%tt.every == 0 {
					positions = append(positions, pos)
				}
			}
			for _, budget := range tt.budgets {
				var cc Counter
				for _, pos := range positions {
					opt := CountOptions{MaxWork: budget}
					want, wantErr := Count(context.Background(), pos, opt)
					got, gotErr := cc.Count(context.Background(), pos, opt)
					requireSameCount(t, want, wantErr, got, gotErr, pos.Text())
				}
			}
			var cc Counter
			for i, pos := range positions {
				opt := CountOptions{MaxWork: tt.budgets[i%len(tt.budgets)]}
				want, wantErr := Count(context.Background(), pos, opt)
				got, gotErr := cc.Count(context.Background(), pos, opt)
				requireSameCount(t, want, wantErr, got, gotErr, pos.Text())
			}
		})
	}
}

// TestCountBudgetIsTheWork checks the early stops: a count succeeds within
// a budget exactly when its work (without a budget) fits, whatever pass
// would break the budget first and however early it is stopped.
func TestCountBudgetIsTheWork(t *testing.T) {
	tests := []struct {
		name  string
		rules *battleship.Rules
		every int // check every so many positions of the game
	}{
		{"7x7", mustRules(t, grid.MustBoard(7, 7, nil), 4, 3, 2, 2, 1, 1), 3},
		{"9x6 transposed", mustRules(t, grid.MustBoard(9, 6, nil), 4, 3, 2, 1, 1), 3},
		{"4x64 overflow", overflowRules(t), 16},
		{"192 fleet vectors", manyVectorRules(t), 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if race.Enabled { // ten times slower: a quarter of the positions
				tt.every *= 4
			}
			positions := gamePositions(t, tt.rules, 1, 5)
			var cc Counter
			for i, pos := range positions {
				if i%tt.every != 0 {
					continue
				}
				full, err := Count(context.Background(), pos, CountOptions{})
				require.NoError(t, err)
				for _, budget := range []int64{full.Work - 1, full.Work, full.Work / 2, full.Work * 3 / 4} {
					if budget <= 0 {
						continue
					}
					opt := CountOptions{MaxWork: budget}
					got, err := Count(context.Background(), pos, opt)
					cached, cachedErr := cc.Count(context.Background(), pos, opt)
					if budget < full.Work {
						require.ErrorIs(t, err, ErrBudget, "budget %d, work %d", budget, full.Work)
						require.ErrorIs(t, cachedErr, ErrBudget, "budget %d, work %d", budget, full.Work)
						continue
					}
					requireSameCount(t, full, nil, got, err, pos.Text())
					requireSameCount(t, full, nil, cached, cachedErr, pos.Text())
				}
			}
		})
	}
}

// estimateByScan is EstimateCounts as first written: for each ship, scan
// every position and keep those clear of the zone. EstimateCounts must
// draw the same layouts from the same random numbers.
func estimateByScan(pos *battleship.Position, rng *rand.Rand, draws int) (*Estimate, error) {
	rem, err := pos.Remaining()
	if err != nil {
		return nil, err
	}
	b := pos.Rules.Board
	forbidden := closedCells(pos)
	damaged := pos.Set(battleship.Damaged)
	est := &Estimate{Cells: make([]float64, b.Size())}
	byShip := make([][]spot, len(rem))
	for i, l := range rem {
		for _, sp := range spots(b, l, forbidden) {
			if !sp.cells.AndNot(damaged).Empty() {
				byShip[i] = append(byShip[i], sp)
			}
		}
	}
	var sumSq float64
	for range draws {
		est.Draws++
		var zone, occ grid.Set
		w := 1.0
		for _, list := range byShip {
			var choice []int
			for k := range list {
				if !list[k].cells.Intersects(zone) {
					choice = append(choice, k)
				}
			}
			if len(choice) == 0 {
				w = 0
				break
			}
			sp := &list[choice[rng.IntN(len(choice))]]
			w *= float64(len(choice))
			zone = zone.Union(sp.zone)
			occ = occ.Union(sp.cells)
		}
		if w == 0 || !damaged.AndNot(occ).Empty() {
			continue
		}
		est.Kept++
		est.Sum += w
		sumSq += w * w
		for c := range occ.All() {
			est.Cells[c] += w
		}
	}
	if sumSq > 0 {
		est.ESS = est.Sum * est.Sum / sumSq
	}
	return est, nil
}

func TestEstimateCountsMatchesTheScan(t *testing.T) {
	tests := []struct {
		name  string
		rules *battleship.Rules
		every int // check every so many positions of the game
	}{
		{"classic", battleship.DefaultRules(), 5},
		{"16x16 many ships", mustRules(t, grid.MustBoard(16, 16, nil), 6, 5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1), 10},
		{"5x5 tight", mustRules(t, grid.MustBoard(5, 5, nil), 3, 2, 2, 1, 1), 1},
		{"4x64", overflowRules(t), 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			positions := gamePositions(t, tt.rules, 1, 9)
			for i, pos := range positions {
				if i%tt.every != 0 {
					continue
				}
				a, b := rand.New(rand.NewPCG(uint64(i), 1)), rand.New(rand.NewPCG(uint64(i), 1))
				want, err := estimateByScan(pos, a, 200)
				require.NoError(t, err)
				got, err := EstimateCounts(pos, b, 200)
				require.NoError(t, err)
				require.Equal(t, want, got, pos.Text())
				require.Equal(t, a.Uint64(), b.Uint64(), "the same random numbers were drawn")
			}
		})
	}
}

func TestSpotIndexNthFree(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		blocked []int
	}{
		{"none blocked", 70, nil},
		{"some", 130, []int{0, 1, 5, 63, 64, 65, 100, 129}},
		{"all but one", 3, []int{0, 2}},
		{"one word", 64, []int{7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix := newSpotIndex(make([]spot, tt.n), 1)
			for _, k := range tt.blocked {
				ix.blocked[k>>6] |= 1 << (k & 63)
			}
			var want []int
			for k := range tt.n {
				if !slices.Contains(tt.blocked, k) {
					want = append(want, k)
				}
			}
			require.Equal(t, len(want), ix.free())
			var got []int
			for r := range ix.free() {
				got = append(got, ix.nthFree(r))
			}
			require.Equal(t, want, got)
		})
	}
}

// TestOrShiftUnrolled checks the one- and two-word orShift against the
// general one, for every ship length of fleets with up to 128 vectors
// (strides below and at 64).
func TestOrShiftUnrolled(t *testing.T) {
	tests := []struct {
		name  string
		fleet []int
	}{
		{"classic (120 vectors)", battleship.DefaultFleet()},
		{"stride 64 (128 vectors)", []int{4, 3, 3, 3, 2, 2, 2, 1, 1, 1}},
		{"one word (24 vectors)", []int{3, 2, 2, 1, 1, 1}},
		{"single ship", []int{1}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, err := newProblem(battleship.NewPosition(mustRules(t, grid.MustBoard(12, 12, nil), tt.fleet...)))
			require.NoError(t, err)
			d := &counter{problem: pr}
			d.init()
			require.LessOrEqual(t, d.pw, 2)
			for range 200 {
				src, dst := make([]uint64, d.pw), make([]uint64, d.pw)
				for j := range d.P {
					if rng.IntN(3) == 0 {
						src[j>>6] |= 1 << (j & 63)
					}
					if rng.IntN(5) == 0 {
						dst[j>>6] |= 1 << (j & 63)
					}
				}
				for l := 0; l <= d.L; l++ {
					for _, up := range []bool{true, false} {
						want, got := slices.Clone(dst), slices.Clone(dst)
						d.orShift(want, src, l, up)
						if up {
							d.orShiftUp(got, src, l)
						} else {
							d.orShiftDown(got, src, l)
						}
						require.Equal(t, want, got, "length %d, up %v", l, up)
					}
				}
			}
		})
	}
}

// TestBudgetErrorSaysWherePassOneStopped: a count that breaks its budget
// returns a *BudgetError (wrapping ErrBudget) that says whether the first
// pass was complete: its work is workPerState per profile, so with
// exactly that budget the pass completes and the numeric passes break
// it, with one unit less the pass does not. Count and a Counter agree.
// (A position symmetric top to bottom makes profiles in the join too:
// left out.)
func TestBudgetErrorSaysWherePassOneStopped(t *testing.T) {
	r := mustRules(t, grid.MustBoard(7, 7, nil), 4, 3, 2, 2, 1, 1)
	positions := gamePositions(t, r, 1, 5)
	var cc Counter
	checked := 0
	for i, pos := range positions {
		pr, err := newProblem(pos)
		require.NoError(t, err)
		if i%4 != 1 || pr.tbSymmetric() {
			continue
		}
		checked++
		full, err := Count(context.Background(), pos, CountOptions{})
		require.NoError(t, err)
		passOne := int64(full.States) * workPerState
		require.Less(t, passOne, full.Work, pos.Text())
		tests := []struct {
			name        string
			budget      int64
			inFirstPass bool
		}{
			{"first pass and one unit", passOne + 1, false},
			{"first pass", passOne, false},
			{"less than the first pass", passOne - 1, true},
			{"a third of it", passOne / 3, true},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("position %d %s", i, tt.name), func(t *testing.T) {
				_, err := Count(context.Background(), pos, CountOptions{MaxWork: tt.budget})
				_, cachedErr := cc.Count(context.Background(), pos, CountOptions{MaxWork: tt.budget})
				for _, err := range []error{err, cachedErr} {
					require.ErrorIs(t, err, ErrBudget)
					var be *BudgetError
					require.ErrorAs(t, err, &be)
					require.Equal(t, tt.inFirstPass, be.InFirstPass(), "done %d of %d", be.Done, be.Cells)
					require.Positive(t, be.Cells)
				}
				var a, b *BudgetError
				require.ErrorAs(t, err, &a)
				require.ErrorAs(t, cachedErr, &b)
				require.Equal(t, a.Done, b.Done)
				require.Equal(t, a.Cells, b.Cells)
			})
		}
	}
	require.Greater(t, checked, 3)
}
