package bsplayers

// One-ply lookahead over the answers to a shot, counted exactly.

import (
	"cmp"
	"context"
	"math"
	"math/big"
	"slices"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// answers lists the positions a shot at c can lead to: a miss, a hit that
// does not sink, and a kill of the ship made of c and the unsunk hits in
// line with it, leaving out those that contradict the rules (a hit next to
// a sunk ship, a kill of a length no longer afloat, hits on two sides that
// are not in line): no layout leads there.
func answers(pos *battleship.Position, c grid.Cell) []*battleship.Position {
	b := pos.Rules.Board
	miss := pos.Clone()
	miss.Marks[c] = battleship.Water
	out := []*battleship.Position{miss}
	if b.Around(c).Intersects(pos.Set(battleship.Sunk)) {
		return out // next to a sunk ship: water
	}
	hit := pos.Clone()
	hit.Marks[c] = battleship.Damaged
	kill := pos.Clone()
	kill.Marks[c] = battleship.Sunk
	x, y := b.XY(c)
	lines := 0
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		for k := 1; ; k++ {
			n, ok := b.At(x+k*d[0], y+k*d[1])
			if !ok || pos.Marks[n] != battleship.Damaged {
				break
			}
			switch {
			case k > 1:
			case d[0] != 0:
				lines |= 1 // a hit beside c in its row
			default:
				lines |= 2 // a hit beside c in its column
			}
			kill.Marks[n] = battleship.Sunk
		}
	}
	for _, q := range []*battleship.Position{hit, kill} {
		if _, err := q.Remaining(); err == nil && lines != 3 {
			out = append(out, q)
		}
	}
	return out
}

// lookahead scores the candidate cells (the top ones by weighted share)
// by p(hit) + weight * E[p(hit) of the best next shot], the expectation over
// the answers (miss, hit, kill), each counted exactly within maxWork work
// units in all; p is the share of layouts times the cell's prior weight
// (1 without a prior). It returns the best candidates (ties kept) and
// false when the budget ran out (the caller then fires greedily).
func (d *Density) lookahead(ctx context.Context, counts *bsbelief.Counts, unknown grid.Set, maxWork int64) ([]grid.Cell, float64, bool) {
	cands := topCells(unknown, d.weighted(counts.Cells), d.cfg.Lookahead)
	if len(cands) < 2 {
		return cands, 0, len(cands) == 1
	}
	total := bigFloat(counts.Total)
	var best []grid.Cell
	top := -1.0
	spent := int64(0)
	for _, c := range cands {
		next := 0.0 // sum over answers of the (weighted) layouts through the best next cell
		cleared, clearedCells, entropy, killCleared := 0.0, 0.0, 0.0, 0.0
		for _, q := range answers(d.pos, c) {
			if spent >= maxWork {
				return nil, 0, false
			}
			cs, err := d.count.Count(ctx, q, countOptions(maxWork-spent))
			if err != nil {
				return nil, 0, false
			}
			spent += cs.Work
			if cs.Total.Sign() == 0 {
				continue
			}
			pq := bigFloat(cs.Total) / total
			entropy -= pq * math.Log2(pq)
			if d.cfg.ClearWeight > 0 || d.cfg.ClearCellWeight > 0 || d.cfg.KillClearWeight > 0 {
				m, k := 0.0, 0.0
				for n := range unknown.All() {
					if n != c && cs.Cells[n].Sign() == 0 && counts.Cells[n].Sign() > 0 {
						m += bigFloat(counts.Cells[n])
						k++
					}
				}
				cleared += pq * m / total
				clearedCells += pq * k
			}
			if d.cfg.KillClearWeight > 0 && q.Marks[c] == battleship.Sunk {
				k := 0.0
				for n := range unknown.All() {
					if n != c && cs.Cells[n].Sign() == 0 && counts.Cells[n].Sign() > 0 {
						k++
					}
				}
				killCleared += pq * k
			}
			if len(cs.Remaining) == 0 {
				next += bigFloat(cs.Total) // the fleet is sunk: nothing more to miss
				continue
			}
			v := d.weighted(cs.Cells)
			m := 0.0
			for n := range q.Set(battleship.Unknown).All() {
				m = max(m, v[n])
			}
			next += m
		}
		score := (bigFloat(counts.Cells[c])*d.weight(c)+d.cfg.LookaheadWeight*next)/total + d.cfg.ClearWeight*cleared + d.cfg.ClearCellWeight*clearedCells + d.cfg.EntropyWeight*entropy + d.cfg.KillClearWeight*killCleared
		switch {
		case score > top+1e-12:
			top, best = score, []grid.Cell{c}
		case score >= top-1e-12:
			best = append(best, c)
		}
	}
	return best, top, true
}

// weight is the prior weight of cell c in force for this move (1 without
// a prior).
func (d *Density) weight(c grid.Cell) float64 {
	if d.inForce == nil {
		return 1
	}
	return d.inForce[c]
}

// weighted returns the counts as floats times the prior weights.
func (d *Density) weighted(cells []*big.Int) []float64 {
	v := make([]float64, len(cells))
	for c, n := range cells {
		v[c] = bigFloat(n) * d.weight(grid.Cell(c))
	}
	return v
}

// topCells returns up to k cells of cells with the largest values, largest
// first, ties in cell order (all cells tied with the k-th are kept).
func topCells(cells grid.Set, v []float64, k int) []grid.Cell {
	all := cells.Cells()
	slices.SortStableFunc(all, func(a, b grid.Cell) int { return cmp.Compare(v[b], v[a]) })
	if len(all) <= k {
		return all
	}
	n := k
	for n < len(all) && v[all[n]] == v[all[k-1]] {
		n++
	}
	return all[:n]
}

func bigFloat(x *big.Int) float64 {
	f, _ := new(big.Float).SetInt(x).Float64()
	return f
}
