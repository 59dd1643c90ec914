package admiral

import (
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// The prior over the enemy's initial placement. The joint belief lists the
// placements consistent with the public history, all equally likely; the
// prior weighs them by how opponents place: a mixture of the uniform prior
// and a "spread" prior, uniform over the placements whose ships are pairwise
// at least Spread apart (Chebyshev), which is how every published
// joint-belief player places. Since every enemy move reveals its
// displacement, a current placement determines the initial one (each ship's
// cell minus its summed displacement), so the prior applies all game long.

// admiralPriorMaxEnum bounds the placements enumerated to count the spread
// ones: beyond it (large boards, big fleets) the prior stays uniform.
const admiralPriorMaxEnum = 2_000_000

// spreadPrior counts, per number of living ships k, the placements of k
// distinct ships on the board (all) and those pairwise at least spread
// apart.
type spreadPrior struct {
	spread   int
	all      [submarine.MaxShips + 1]float64
	spreadN  [submarine.MaxShips + 1]float64
	disabled bool
}

func newSpreadPrior(rules *submarine.Rules, spread int) *spreadPrior {
	sp := &spreadPrior{spread: spread}
	b := rules.Board
	cells := b.Usable().Cells()
	n := len(rules.Fleet)
	total := 1.0
	for i := range n {
		total *= float64(len(cells) - i)
	}
	if spread <= 0 || total > admiralPriorMaxEnum {
		sp.disabled = true
		return sp
	}
	cur := make([]grid.Cell, 0, n)
	var rec func()
	rec = func() {
		k := len(cur)
		sp.spreadN[k]++
		if k == n {
			return
		}
		for _, c := range cells {
			ok := true
			for _, d := range cur {
				if b.Chebyshev(c, d) < spread {
					ok = false
					break
				}
			}
			if ok {
				cur = append(cur, c)
				rec()
				cur = cur[:k]
			}
		}
	}
	rec()
	sp.all[0] = 1
	for k := 1; k <= n; k++ {
		sp.all[k] = sp.all[k-1] * float64(len(cells)-k+1)
	}
	return sp
}

// priorWeights is the mixture prior of weight w on the spread prior, for
// placements of k living ships: the weight of a placement that is not
// spread (uniform part only) and of one that is.
func (sp *spreadPrior) priorWeights(w float64, k int) (plain, spread float64) {
	plain = (1 - w) / sp.all[k]
	spread = plain
	if sp.spreadN[k] > 0 {
		spread += w / sp.spreadN[k]
	}
	return plain, spread
}

// spreadAt reports whether the living ships of packed placement t, each
// moved back by its summed displacement disp, are pairwise at least spread
// apart.
func (sp *spreadPrior) spreadAt(b *grid.Board, t uint64, ships []int, disp *[submarine.MaxShips][2]int) bool {
	var xs, ys [submarine.MaxShips]int
	for k, i := range ships {
		x, y := b.XY(cellOf(t, i))
		xs[k], ys[k] = x-disp[i][0], y-disp[i][1]
		for m := range k {
			if max(abs(xs[k]-xs[m]), abs(ys[k]-ys[m])) < sp.spread {
				return false
			}
		}
	}
	return true
}
