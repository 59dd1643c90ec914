package bsbelief

import (
	"math/bits"
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/battleship"
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
func EstimateCounts(pos *battleship.Position, rng *rand.Rand, draws int) (*Estimate, error) {
	rem, err := pos.Remaining()
	if err != nil {
		return nil, err
	}
	b := pos.Rules.Board
	forbidden := closedCells(pos)
	damaged := pos.Set(battleship.Damaged)
	est := &Estimate{Cells: make([]float64, b.Size())}
	cache := map[int]*spotIndex{}
	var lists []*spotIndex // distinct, in order of first use
	byShip := make([]*spotIndex, len(rem))
	for i, l := range rem {
		if _, ok := cache[l]; !ok {
			var keep []spot
			for _, sp := range spots(b, l, forbidden) {
				if !sp.cells.AndNot(damaged).Empty() {
					keep = append(keep, sp)
				}
			}
			cache[l] = newSpotIndex(keep, b.Size())
			lists = append(lists, cache[l])
		}
		byShip[i] = cache[l]
	}
	var sumSq float64
	for range draws {
		est.Draws++
		for _, ix := range lists {
			ix.reset()
		}
		var zone, occ grid.Set
		w := 1.0
		for _, ix := range byShip {
			ix.update(zone)
			n := ix.free()
			if n == 0 {
				w = 0
				break
			}
			sp := &ix.list[ix.nthFree(rng.IntN(n))]
			w *= float64(n)
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

// spotIndex holds the positions of one ship length with, per cell, the set
// of positions covering it: a draw finds the positions clear of its zone
// by or-ing the sets of the zone's cells (once per cell) instead of testing
// every position against the zone for every ship. The free positions, in
// increasing order, are those a scan of list would keep.
type spotIndex struct {
	list    []spot
	words   int      // words per set of positions
	covers  []uint64 // by cell, words each: bit k when list[k] covers the cell
	blocked []uint64 // during a draw: the positions touching the zone
	applied grid.Set // the zone cells already in blocked
}

func newSpotIndex(list []spot, cells int) *spotIndex {
	ix := &spotIndex{list: list, words: (len(list) + 63) / 64}
	ix.covers = make([]uint64, cells*ix.words)
	ix.blocked = make([]uint64, ix.words)
	for k, sp := range list {
		for c := range sp.cells.All() {
			ix.covers[int(c)*ix.words+k>>6] |= 1 << (k & 63)
		}
	}
	return ix
}

// reset starts a draw: no position is blocked.
func (ix *spotIndex) reset() {
	clear(ix.blocked)
	ix.applied = grid.Set{}
}

// update blocks the positions that touch zone (a superset of the zones
// given before in this draw).
func (ix *spotIndex) update(zone grid.Set) {
	blocked, covers, words := ix.blocked, ix.covers, ix.words
	for i, x := range zone.AndNot(ix.applied) {
		for ; x != 0; x &= x - 1 {
			c := i*64 + bits.TrailingZeros64(x)
			cov := covers[c*words : (c+1)*words]
			for q := range blocked {
				blocked[q] |= cov[q]
			}
		}
	}
	ix.applied = zone
}

// free is the number of positions not blocked.
func (ix *spotIndex) free() int {
	n := len(ix.list)
	for _, x := range ix.blocked {
		n -= bits.OnesCount64(x)
	}
	return n
}

// nthFree returns the index in list of the r-th free position (from 0; r <
// free()).
func (ix *spotIndex) nthFree(r int) int {
	for q, x := range ix.blocked {
		f := ^x
		if rest := len(ix.list) - q*64; rest < 64 {
			f &= 1<<uint(rest) - 1
		}
		n := bits.OnesCount64(f)
		if r >= n {
			r -= n
			continue
		}
		base := q * 64
		for n8 := bits.OnesCount8(uint8(f)); r >= n8; n8 = bits.OnesCount8(uint8(f)) {
			r -= n8
			f >>= 8
			base += 8
		}
		for ; r > 0; r-- {
			f &= f - 1
		}
		return base + bits.TrailingZeros64(f)
	}
	panic("battleship: nthFree: r out of range") // unreachable: r < free()
}

// closedCells are the cells no remaining ship may cover on pos: water, rocks,
// sunk ships and every cell around a sunk ship.
func closedCells(pos *battleship.Position) grid.Set {
	b := pos.Rules.Board
	var closed grid.Set
	for c, m := range pos.Marks {
		if m == battleship.Water || m == battleship.Sunk || m == battleship.Rock {
			closed.Add(grid.Cell(c))
		}
	}
	for c := range pos.Set(battleship.Sunk).All() {
		closed = closed.Union(b.Around(c))
	}
	return closed
}
