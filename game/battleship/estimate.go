package battleship

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// Estimate is a Monte Carlo estimate of Counts: per cell, the weighted share
// of sampled layouts that put a ship there.
type Estimate struct {
	Draws int       // layouts drawn
	Kept  int       // draws consistent with the position (non-zero weight)
	Sum   float64   // total weight of the kept draws
	ESS   float64   // effective sample size, (sum w)^2 / sum w^2
	Cells []float64 // by cell: weight of the kept draws with a ship there
}

// Share is the estimated fraction of layouts with a ship on c.
func (e *Estimate) Share(c grid.Cell) float64 {
	if e.Sum == 0 {
		return 0
	}
	return e.Cells[c] / e.Sum
}

// EstimateCounts estimates the per-cell shares of the layouts of the
// remaining fleet consistent with pos by sequential importance sampling.
// Each draw places the ships longest first, each uniformly among the
// positions that avoid misses, sunk ships and their surroundings, lie not on
// hits only (such a ship would have been reported sunk) and do not overlap
// or touch the ships already placed; a draw that leaves an unsunk hit
// uncovered or a ship without room gets weight 0. A kept draw has
// probability 1/prod(choices) and gets weight prod(choices), so the weighted
// draws estimate the uniform distribution over consistent layouts
// (self-normalised: consistent as draws grows, as is the share of each
// cell). Unlike rejection sampling it never throws most draws away.
func EstimateCounts(pos *Position, rng *rand.Rand, draws int) (*Estimate, error) {
	rem, err := pos.Remaining()
	if err != nil {
		return nil, err
	}
	b := pos.Rules.Board
	var forbidden grid.Set
	for c, m := range pos.Marks {
		if m == Water || m == Sunk || m == Rock {
			forbidden.Add(grid.Cell(c))
		}
	}
	for c := range pos.Set(Sunk).All() {
		forbidden = forbidden.Union(b.Around(c))
	}
	damaged := pos.Set(Damaged)
	est := &Estimate{Cells: make([]float64, b.Size())}
	cache := map[int][]spot{}
	byShip := make([][]spot, len(rem))
	for i, l := range rem {
		if _, ok := cache[l]; !ok {
			var keep []spot
			for _, sp := range spots(b, l, forbidden) {
				if !sp.cells.AndNot(damaged).Empty() {
					keep = append(keep, sp)
				}
			}
			cache[l] = keep
		}
		byShip[i] = cache[l]
	}
	var sumSq float64
	choice := make([]int32, 0, 256)
	for range draws {
		est.Draws++
		var zone, occ grid.Set
		w := 1.0
		for _, list := range byShip {
			choice = choice[:0]
			for k := range list {
				if !list[k].cells.Intersects(zone) {
					choice = append(choice, int32(k))
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
