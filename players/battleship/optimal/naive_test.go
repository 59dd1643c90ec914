package bsoptimal

import (
	"math"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// naive values the game by the plainest search: every consistent layout
// re-derived from the layouts of Placements, every unshot usable cell tried
// at every state, memoised on the full list of shots and answers only. It
// shares no code with the Solver but the layout list (checked on its own
// by TestLayouts).
type naive struct {
	b       *grid.Board
	layouts []battleship.Placement
	memo    map[string]float64
}

func (nv *naive) value(set []int, marks []byte, pol func([]int, []byte) []int) float64 {
	key := string(marks)
	if v, ok := nv.memo[key]; ok {
		return v
	}
	// the fleet is sunk when every layout's cells are all shot (they are
	// all the same then)
	sunk := true
	for c := range nv.layouts[set[0]].Cells().All() {
		if marks[c] == '.' {
			sunk = false
		}
	}
	if sunk {
		return 0
	}
	var cells []int
	if pol != nil {
		cells = pol(set, marks)
	} else {
		for c := range nv.b.Usable().All() {
			if marks[c] == '.' {
				cells = append(cells, int(c))
			}
		}
	}
	best, mean := math.Inf(1), 0.0
	for _, c := range cells {
		groups := map[string][]int{}
		for _, i := range set {
			groups[nv.answer(i, marks, c)] = append(groups[nv.answer(i, marks, c)], i)
		}
		q := 1.0
		for a, g := range groups {
			next := []byte(a)
			q += float64(len(g)) / float64(len(set)) * nv.value(g, next, pol)
		}
		best = min(best, q)
		mean += q / float64(len(cells))
	}
	v := best
	if pol != nil {
		v = mean
	}
	nv.memo[key] = v
	return v
}

// answer is the marks after a shot at c if layout i is the truth: 'o' a
// miss, 'x' a hit, and a kill turns the ship's cells to '#'.
func (nv *naive) answer(i int, marks []byte, c int) string {
	next := []byte(string(marks))
	next[c] = 'o'
	for _, ship := range nv.layouts[i] {
		for _, sc := range ship {
			if int(sc) != c {
				continue
			}
			next[c] = 'x'
			whole := true
			for _, o := range ship {
				if next[o] == '.' || next[o] == 'o' {
					whole = false
				}
			}
			if whole {
				for _, o := range ship {
					next[o] = '#'
				}
			}
		}
	}
	return string(next)
}
