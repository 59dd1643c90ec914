package battleship

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// ErrPlacement is wrapped by every reason a placement is invalid.
var ErrPlacement = errors.New("battleship: invalid placement")

// Ship is the cells of one ship.
type Ship []grid.Cell

// Placement is a fleet layout: one Ship per ship of the fleet, in any order.
type Placement []Ship

// Cells is the set of cells the placement occupies.
func (p Placement) Cells() grid.Set {
	var s grid.Set
	for _, sh := range p {
		for _, c := range sh {
			if c >= 0 && int(c) < grid.MaxCells {
				s.Add(c)
			}
		}
	}
	return s
}

// Lengths lists the ship lengths in placement order.
func (p Placement) Lengths() []int {
	out := make([]int, len(p))
	for i, s := range p {
		out[i] = len(s)
	}
	return out
}

// Normalize returns a copy with each ship's cells sorted and the ships sorted
// longest first, then by first cell: two placements of the same layout
// normalize to equal values.
func (p Placement) Normalize() Placement {
	out := make(Placement, len(p))
	for i, s := range p {
		out[i] = slices.Clone(s)
		slices.Sort(out[i])
	}
	slices.SortFunc(out, func(a, b Ship) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		if len(a) == 0 {
			return 0
		}
		return cmp.Compare(a[0], b[0])
	})
	return out
}

// ShipsOf splits a set of occupied cells into its 4-connected groups (a BFS
// flood fill), each sorted, ordered by first cell. For a valid layout the
// groups are exactly the ships.
func ShipsOf(b *grid.Board, occupied grid.Set) Placement {
	var out Placement
	seen := grid.Set{}
	for start := range occupied.All() {
		if seen.Has(start) {
			continue
		}
		group := bfs(b, occupied, start)
		for _, c := range group {
			seen.Add(c)
		}
		slices.Sort(group)
		out = append(out, Ship(group))
	}
	return out
}

// bfs returns the 4-connected component of start within cells.
func bfs(b *grid.Board, cells grid.Set, start grid.Cell) []grid.Cell {
	var seen grid.Set
	seen.Add(start)
	queue := []grid.Cell{start}
	for i := 0; i < len(queue); i++ {
		x, y := b.XY(queue[i])
		for _, d := range [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			n, ok := b.At(x+d[0], y+d[1])
			if ok && cells.Has(n) && !seen.Has(n) {
				seen.Add(n)
				queue = append(queue, n)
			}
		}
	}
	return queue
}

// ValidatePlacement checks that p is a legal layout of the fleet: every ship
// on usable cells, connected (BFS over its cells) and straight, no cell used
// twice, no two ships touching (corners included), and ship lengths equal to
// the fleet. It reports every problem it finds, joined with errors.Join; each
// wraps ErrPlacement.
func (r *Rules) ValidatePlacement(p Placement) error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrPlacement}, args...)...))
	}
	b := r.Board
	owner := make([]int, b.Size())
	for i := range owner {
		owner[i] = -1
	}
	shipOK := make([]bool, len(p))
	for i, s := range p {
		if len(s) == 0 {
			bad("ship %d has no cells", i)
			continue
		}
		ok := true
		var cells grid.Set
		for _, c := range s {
			switch {
			case !b.IsUsable(c):
				if c >= 0 && int(c) < b.Size() {
					bad("ship %d: cell %s is a rock", i, r.CellName(c))
				} else {
					bad("ship %d: cell %s is off the board", i, r.CellName(c))
				}
				ok = false
			case cells.Has(c):
				bad("ship %d: cell %s is listed twice", i, r.CellName(c))
				ok = false
			default:
				cells.Add(c)
				if o := owner[c]; o >= 0 {
					bad("ships %d and %d share cell %s", o, i, r.CellName(c))
					ok = false
				} else {
					owner[c] = i
				}
			}
		}
		if !ok {
			continue
		}
		if comp := bfs(b, cells, s[0]); len(comp) != len(s) {
			bad("ship %d (%s) is not connected", i, r.shipName(s))
			continue
		}
		if !straight(b, s) {
			bad("ship %d (%s) is not straight", i, r.shipName(s))
			continue
		}
		shipOK[i] = true
	}
	// Touching: a cell of ship i next to (8 directions) a cell of ship j.
	reported := map[[2]int]bool{}
	for i, s := range p {
		if !shipOK[i] {
			continue
		}
		for _, c := range s {
			for n := range b.Around(c).All() {
				j := owner[n]
				if j < 0 || j == i || !shipOK[j] {
					continue
				}
				key := [2]int{min(i, j), max(i, j)}
				if reported[key] {
					continue
				}
				reported[key] = true
				bad("ships %d (%s) and %d (%s) touch at %s/%s", key[0], r.shipName(p[key[0]]), key[1], r.shipName(p[key[1]]), r.CellName(c), r.CellName(n))
			}
		}
	}
	want := CountByLength(r.Fleet)
	got := CountByLength(p.Lengths())
	for l := 1; l < max(len(want), len(got)); l++ {
		w, g := at(want, l), at(got, l)
		if w != g {
			bad("%d ships of length %d, the fleet has %d", g, l, w)
		}
	}
	return errors.Join(errs...)
}

func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// straight reports whether the (connected) cells lie in one row or one column.
func straight(b *grid.Board, s Ship) bool {
	x0, y0 := b.XY(s[0])
	sameRow, sameCol := true, true
	for _, c := range s[1:] {
		x, y := b.XY(c)
		sameRow = sameRow && y == y0
		sameCol = sameCol && x == x0
	}
	return sameRow || sameCol
}

// shipName formats a ship as its first and last cell, e.g. [0,0]-[0,3].
func (r *Rules) shipName(s Ship) string {
	lo, hi := slices.Min(s), slices.Max(s)
	if lo == hi {
		return r.CellName(lo)
	}
	return r.CellName(lo) + "-" + r.CellName(hi)
}
