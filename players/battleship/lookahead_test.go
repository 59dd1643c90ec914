package bsplayers

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
)

// gamePositions plays a gridbot game on r and returns the position after
// every shot (the states a density bot meets, with hits, kills and misses).
func gamePositions(t *testing.T, r *battleship.Rules, seed uint64) []*battleship.Position {
	t.Helper()
	u := mustPlacer(t, r)
	rng := rand.New(rand.NewPCG(seed, seed))
	layout, err := u.Place(rng)
	require.NoError(t, err)
	sea, err := battleship.NewSea(r, layout)
	require.NoError(t, err)
	g := NewGridBot(r, DefaultGridConfig(), u, rng)
	pos := battleship.NewPosition(r)
	var out []*battleship.Position
	for sea.Afloat() > 0 {
		res, err := sea.Fire(g.Shoot())
		require.NoError(t, err)
		g.Observe(battleship.Event{Mine: true, Result: res})
		pos.Record(res)
		out = append(out, pos.Clone())
	}
	return out
}

// TestAnswersPartitionTheLayoutsFullSize: the answers to a shot at c split the
// layouts consistent with the position: the miss keeps Total − Cells[c],
// the hit and the kill together Cells[c].
func TestAnswersPartitionTheLayoutsFullSize(t *testing.T) {
	race.SkipFullSize(t)
	r, err := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{3, 2, 2, 1, 1})
	require.NoError(t, err)
	ctx := context.Background()
	kills := 0
	for _, pos := range gamePositions(t, r, 3) {
		all, err := bsbelief.Count(ctx, pos, bsbelief.CountOptions{})
		require.NoError(t, err)
		if len(all.Remaining) == 0 {
			continue
		}
		for c := range pos.Set(battleship.Unknown).All() {
			qs := answers(pos, c)
			var totals []int64
			for _, q := range qs {
				cs, err := bsbelief.Count(ctx, q, bsbelief.CountOptions{})
				require.NoError(t, err)
				totals = append(totals, cs.Total.Int64())
			}
			require.Equal(t, all.Total.Int64()-all.Cells[c].Int64(), totals[0], "miss at %s\n%s", r.CellName(c), pos)
			hits := int64(0)
			for _, n := range totals[1:] {
				hits += n
			}
			require.Equal(t, all.Cells[c].Int64(), hits, "hit or kill at %s\n%s", r.CellName(c), pos)
			for i, q := range qs {
				if q.Set(battleship.Sunk).Count() > pos.Set(battleship.Sunk).Count() && totals[i] > 0 {
					kills++
				}
			}
		}
	}
	require.Positive(t, kills, "some shots could sink a ship")
}

// layouts4x4 lists every layout of the fleet 2,1 on 4x4 (ships straight,
// not touching, corners included) as sets of ship cells with their ships.
func layouts4x4(b *grid.Board) [][]grid.Set {
	var twos, ones []grid.Set
	for c := range b.Usable().All() {
		x, y := b.XY(c)
		ones = append(ones, setOf(c))
		if n, ok := b.At(x+1, y); ok {
			twos = append(twos, setOf(c, n))
		}
		if n, ok := b.At(x, y+1); ok {
			twos = append(twos, setOf(c, n))
		}
	}
	var out [][]grid.Set
	for _, a := range twos {
		var halo grid.Set
		for c := range a.All() {
			halo = halo.Union(b.Around(c)).Union(setOf(c))
		}
		for _, o := range ones {
			if !o.Intersects(halo) {
				out = append(out, []grid.Set{a, o})
			}
		}
	}
	return out
}

func setOf(cs ...grid.Cell) grid.Set {
	var s grid.Set
	for _, c := range cs {
		s.Add(c)
	}
	return s
}

// TestLookaheadMatchesEnumeration checks the lookahead scores of every
// cell against a plain enumeration of the layouts of a 4x4 board with
// ships 2 and 1: p(c) + Σ over the answers of the layouts through the best
// next cell, over all layouts.
func TestLookaheadMatchesEnumeration(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(4, 4, nil), []int{2, 1})
	require.NoError(t, err)
	b := r.Board
	all := layouts4x4(b)
	for _, marks := range []string{
		"....\n....\n....\n....",
		"o...\n.o..\n..x.\n....",
		"....\n.x..\n....\no..o",
		"oo..\no...\n....\n...o",
	} {
		pos, consistent := consistent4x4(t, r, all, marks)
		unknown := pos.Set(battleship.Unknown)
		want := map[grid.Cell]float64{}
		for c := range unknown.All() {
			groups := map[string][][]grid.Set{}
			hits := 0
			for _, l := range consistent {
				key := "miss"
				for _, s := range l {
					if s.Has(c) {
						hits++
						key = "hit"
						if s.AndNot(pos.Set(battleship.Damaged)).AndNot(setOf(c)).Empty() {
							key = "kill " + s.String()
						}
					}
				}
				groups[key] = append(groups[key], l)
			}
			next := 0
			for key, g := range groups {
				if key != "miss" && len(g) > 0 && len(pos.Set(battleship.Damaged).Cells())+1 == 3 && key[0] == 'k' && g[0][0].Union(g[0][1]).AndNot(pos.Set(battleship.Damaged)).AndNot(setOf(c)).Empty() {
					next += len(g) // the last ship sinks: nothing more to find
					continue
				}
				top := 0
				for d := range unknown.All() {
					if d == c {
						continue
					}
					n := 0
					for _, l := range g {
						if l[0].Union(l[1]).Has(d) {
							n++
						}
					}
					top = max(top, n)
				}
				next += top
			}
			want[c] = float64(hits+next) / float64(len(consistent))
		}
		cfg := DefaultDensityConfig()
		cfg.Lookahead, cfg.LookaheadBudget = 16, 0
		d := NewDensity(r, cfg, mustPlacer(t, r), rand.New(rand.NewPCG(1, 1)))
		d.pos = pos
		counts, err := bsbelief.Count(context.Background(), pos, bsbelief.CountOptions{})
		require.NoError(t, err)
		require.EqualValues(t, len(consistent), counts.Total.Int64(), marks)
		best, score, ok := d.lookahead(context.Background(), counts, unknown, 1<<40)
		require.True(t, ok)
		top := 0.0
		for _, v := range want {
			top = max(top, v)
		}
		require.InDelta(t, top, score, 1e-9, marks)
		var wantBest []grid.Cell
		for c := range unknown.All() {
			if want[c] > top-1e-9 {
				wantBest = append(wantBest, c)
			}
		}
		require.ElementsMatch(t, wantBest, best, marks)
	}
}

// TestLookaheadWithoutWeightIsGreedy: weighing the next shot 0 leaves the
// densest cells.
func TestLookaheadWithoutWeightIsGreedy(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{3, 2, 2, 1, 1})
	require.NoError(t, err)
	cfg := DefaultDensityConfig()
	cfg.Lookahead, cfg.LookaheadWeight = 36, 0
	for i, pos := range gamePositions(t, r, 4) {
		if race.Enabled && i%4 != 0 {
			continue // a quarter of the positions under -race
		}
		counts, err := bsbelief.Count(context.Background(), pos, bsbelief.CountOptions{})
		require.NoError(t, err)
		if len(counts.Remaining) == 0 {
			continue
		}
		d := NewDensity(r, cfg, mustPlacer(t, r), rand.New(rand.NewPCG(1, 1)))
		d.pos = pos
		unknown := pos.Set(battleship.Unknown)
		best, _, ok := d.lookahead(context.Background(), counts, unknown, 1<<40)
		require.True(t, ok)
		greedy, _ := argmaxBig(unknown, counts.Cells)
		require.ElementsMatch(t, greedy, best, "position %d", i)
	}
}

// TestLookaheadGivesUpBeyondItsBudget: with no work allowed the move is
// greedy (and counted as such).
func TestLookaheadGivesUpBeyondItsBudget(t *testing.T) {
	r := smallRules(t)
	cfg := DefaultDensityConfig()
	cfg.Lookahead, cfg.LookaheadBudget = 4, 0
	u := mustPlacer(t, r)
	layout, err := u.Place(rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	d := NewDensity(r, cfg, u, rand.New(rand.NewPCG(2, 2)))
	shots, err := Solo(context.Background(), r, d, layout)
	require.NoError(t, err)
	require.Equal(t, DensityStats{Exact: shots}, d.Stats())
}

// TestLookaheadTermsMatchEnumeration checks the experimental terms of the
// lookahead score (entropy of the answer, share and cells ruled out, cells
// ruled out by a kill) against a plain enumeration of the layouts of a 4x4
// board with ships 2 and 1, each term alone and all together.
func TestLookaheadTermsMatchEnumeration(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(4, 4, nil), []int{2, 1})
	require.NoError(t, err)
	b := r.Board
	all := layouts4x4(b)
	type terms struct{ share, entropy, mass, cells, kill float64 }
	for _, marks := range []string{
		"....\n....\n....\n....",
		"o...\n.o..\n..x.\n....",
		"....\n.x..\n....\no..o",
	} {
		pos, layouts := consistent4x4(t, r, all, marks)
		unknown := pos.Set(battleship.Unknown)
		damaged := pos.Set(battleship.Damaged)
		var consistent []grid.Set // the occupied cells of each consistent layout
		for _, l := range layouts {
			consistent = append(consistent, l[0].Union(l[1]))
		}
		n := float64(len(consistent))
		possible := map[grid.Cell]bool{}
		for _, occ := range consistent {
			for c := range occ.All() {
				possible[c] = true
			}
		}
		want := map[grid.Cell]terms{}
		for c := range unknown.All() {
			groups := map[string][]grid.Set{}
			for _, l := range layouts {
				occ := l[0].Union(l[1])
				key := "miss"
				for _, s := range l {
					if s.Has(c) {
						key = "hit"
						if s.AndNot(damaged).AndNot(setOf(c)).Empty() {
							key = "kill"
						}
					}
				}
				groups[key] = append(groups[key], occ)
			}
			var tm terms
			for key, g := range groups {
				pq := float64(len(g)) / n
				tm.entropy -= pq * math.Log2(pq)
				var mass, cells float64
				for d := range unknown.All() {
					if d == c || !possible[d] {
						continue
					}
					through := 0
					for _, occ := range g {
						if occ.Has(d) {
							through++
						}
					}
					if through == 0 {
						k := 0
						for _, occ := range consistent {
							if occ.Has(d) {
								k++
							}
						}
						mass += float64(k) / n
						cells++
					}
				}
				tm.mass += pq * mass
				tm.cells += pq * cells
				if key == "kill" {
					tm.kill += pq * cells
				}
				if key != "miss" {
					tm.share += pq
				}
			}
			want[c] = tm
		}
		for _, w := range [][4]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {0.3, 0.5, 0.2, 0.7}} {
			cfg := DefaultDensityConfig()
			cfg.Lookahead, cfg.LookaheadWeight = 16, 0
			cfg.EntropyWeight, cfg.ClearWeight, cfg.ClearCellWeight, cfg.KillClearWeight = w[0], w[1], w[2], w[3]
			score := func(tm terms) float64 {
				return tm.share + w[0]*tm.entropy + w[1]*tm.mass + w[2]*tm.cells + w[3]*tm.kill
			}
			d := NewDensity(r, cfg, mustPlacer(t, r), rand.New(rand.NewPCG(1, 1)))
			d.pos = pos
			counts, err := bsbelief.Count(context.Background(), pos, bsbelief.CountOptions{})
			require.NoError(t, err)
			best, got, ok := d.lookahead(context.Background(), counts, unknown, 1<<40)
			require.True(t, ok)
			top := -1.0
			for _, tm := range want {
				top = max(top, score(tm))
			}
			require.InDelta(t, top, got, 1e-9, "%s weights %v", marks, w)
			var wantBest []grid.Cell
			for c, tm := range want {
				if score(tm) > top-1e-9 {
					wantBest = append(wantBest, c)
				}
			}
			require.ElementsMatch(t, wantBest, best, "%s weights %v", marks, w)
		}
	}
}

// consistent4x4 parses marks on r's 4x4 board and returns the position and
// the layouts of all (each a ship of 2 and a ship of 1) consistent with it:
// no ship on a miss, every hit covered, no ship of hits only.
func consistent4x4(t *testing.T, r *battleship.Rules, all [][]grid.Set, marks string) (*battleship.Position, [][]grid.Set) {
	t.Helper()
	pos, err := battleship.ParsePosition(marks, r.Fleet)
	require.NoError(t, err)
	pos.Rules = r
	damaged := pos.Set(battleship.Damaged)
	var out [][]grid.Set
	for _, l := range all {
		occ := l[0].Union(l[1])
		ok := !occ.Intersects(pos.Set(battleship.Water)) && damaged.AndNot(occ).Empty()
		for _, s := range l {
			ok = ok && !s.AndNot(damaged).Empty()
		}
		if ok {
			out = append(out, l)
		}
	}
	return pos, out
}
