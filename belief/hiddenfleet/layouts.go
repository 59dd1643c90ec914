package hiddenfleet

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// ErrBudget is returned when an exact enumeration would visit more
// candidate layouts than allowed.
var ErrBudget = errors.New("hiddenfleet: over budget")

// spot is one place of one ship: its cells and the cells around them.
type spot struct {
	cells, zone grid.Set
	ship        battleship.Ship
}

func (t *Tracker) spotsOf(l int) []spot {
	b := t.board
	var out []spot
	for _, d := range [][2]int{{1, 0}, {0, 1}} {
		for y := range b.Height() {
			for x := range b.Width() {
				var sp spot
				ok := true
				for i := range l {
					c, on := b.At(x+i*d[0], y+i*d[1])
					if !on || !b.IsUsable(c) {
						ok = false
						break
					}
					sp.cells.Add(c)
					sp.zone = sp.zone.Union(t.around[c])
					sp.ship = append(sp.ship, c)
				}
				if ok {
					out = append(out, sp)
				}
			}
		}
	}
	return out
}

// frame is what every candidate layout shares now: the sunk ships, the big
// ships still to place (longest first) with their possible spots, and the
// cells the afloat 1-decks may take.
type frame struct {
	fixed    battleship.Placement // sunk big ships
	fixedOcc grid.Set
	zone     grid.Set // cells no afloat ship may take: around sunk ships (and sunk 1-decks unless MoveMayTouch)
	deadOnes grid.Set
	todo     []int
	spots    [][]spot // by todo index
	onesFree grid.Set // cells an afloat 1-deck may take before the big ships are placed
	ones     int
}

func (t *Tracker) frame() *frame {
	f := &frame{ones: t.onesAfloat()}
	left := slices.Clone(t.big)
	for _, s := range t.sunk {
		if len(s.cells) == 1 {
			f.deadOnes.Add(s.cells[0])
			if !t.opt.MoveMayTouch {
				f.zone = f.zone.Union(t.around[s.cells[0]])
			}
			continue
		}
		f.fixed = append(f.fixed, slices.Clone(s.cells))
		for _, c := range s.cells {
			f.fixedOcc.Add(c)
			f.zone = f.zone.Union(t.around[c])
		}
		if i := slices.Index(left, len(s.cells)); i >= 0 {
			left = slices.Delete(left, i, i+1)
		}
	}
	f.todo = left
	var firstMiss grid.Set
	for _, s := range t.shots {
		if s.kind == ansMiss {
			firstMiss.Add(s.at)
		}
	}
	cache := map[int][]spot{}
	for _, l := range left {
		if _, ok := cache[l]; !ok {
			blocked := t.shotSet.AndNot(t.hits).Union(t.sunkSet).Union(f.deadOnes)
			if t.enemy == abilities.AI && l == abilities.DefenderLen {
				blocked = blocked.AndNot(firstMiss)
			}
			var keep []spot
			for _, sp := range t.spotsOf(l) {
				if !sp.cells.Intersects(blocked) && !sp.cells.Intersects(f.zone) && !sp.cells.AndNot(t.hits).Empty() {
					keep = append(keep, sp)
				}
			}
			cache[l] = keep
		}
		f.spots = append(f.spots, cache[l])
	}
	f.onesFree = t.board.Usable().AndNot(t.shotSet).AndNot(f.fixedOcc).AndNot(f.deadOnes)
	if !t.opt.MoveMayTouch {
		f.onesFree = f.onesFree.AndNot(f.zone)
	}
	return f
}

// Stats says how an enumeration or an estimate went.
type Stats struct {
	Candidates int // layouts checked (enumeration) or drawn (estimate)
	Consistent int // of them consistent
	// Unsure counts the layouts whose 1-deck history search ran out of
	// work and were taken as consistent (never on small boards).
	Unsure int
}

// Layouts enumerates every layout of the enemy fleet consistent with what
// the seat was told (each once: ships of one length are not told apart),
// exactly. It gives up with ErrBudget after maxCandidates candidate
// layouts; maxWork bounds each history search (0: DefaultMaxWork).
func (t *Tracker) Layouts(maxCandidates, maxWork int) ([]Layout, Stats, error) {
	var out []Layout
	st, err := t.enumerate(maxCandidates, maxWork, func(l Layout) { out = append(out, l) })
	return out, st, err
}

// Counts are exact counts of the consistent layouts.
type Counts struct {
	Total int64
	Cells []int64 // by cell: the layouts with an afloat ship on it
	Stats Stats
}

// Share is the fraction of the layouts with an afloat ship on c.
func (c *Counts) Share(x grid.Cell) float64 {
	if c.Total == 0 {
		return 0
	}
	return float64(c.Cells[x]) / float64(c.Total)
}

// Count counts the consistent layouts and, per cell, those with an afloat
// ship on it, exactly (see Layouts for the budget).
func (t *Tracker) Count(maxCandidates, maxWork int) (*Counts, error) {
	c := &Counts{Cells: make([]int64, t.board.Size())}
	st, err := t.enumerate(maxCandidates, maxWork, func(l Layout) {
		c.Total++
		for x := range l.Cells(t.sunkSet).All() {
			c.Cells[x]++
		}
	})
	c.Stats = st
	return c, err
}

func (t *Tracker) enumerate(maxCandidates, maxWork int, visit func(Layout)) (Stats, error) {
	f := t.frame()
	k := t.newChecker(maxWork)
	var st Stats
	big := slices.Clone(f.fixed)
	var rec func(i, from int, occ, zone grid.Set) error
	rec = func(i, from int, occ, zone grid.Set) error {
		if i == len(f.todo) {
			k.failed = nil
			if !k.static(big) {
				return nil
			}
			free := f.onesFree.AndNot(occ)
			if !t.opt.MoveMayTouch {
				free = free.AndNot(zone)
			}
			return t.chooseOnes(free.Cells(), 0, f.ones, nil, func(ones []grid.Cell) error {
				st.Candidates++
				if st.Candidates > maxCandidates {
					return fmt.Errorf("%w: more than %d candidate layouts", ErrBudget, maxCandidates)
				}
				k.unsure = false
				if !k.ones(ones) {
					return nil
				}
				st.Consistent++
				if k.unsure {
					st.Unsure++
				}
				visit(Layout{Big: slices.Clone(big), Ones: slices.Clone(ones)})
				return nil
			})
		}
		start := 0
		if i > 0 && f.todo[i] == f.todo[i-1] {
			start = from
		}
		for j := start; j < len(f.spots[i]); j++ {
			sp := &f.spots[i][j]
			if sp.cells.Intersects(zone) {
				continue
			}
			big = append(big, sp.ship)
			err := rec(i+1, j+1, occ.Union(sp.cells), zone.Union(sp.zone))
			big = big[:len(big)-1]
			if err != nil {
				return err
			}
		}
		return nil
	}
	err := rec(0, 0, f.fixedOcc, f.zone)
	return st, err
}

// chooseOnes calls visit with every set of n cells of free (ascending),
// apart from each other unless MoveMayTouch.
func (t *Tracker) chooseOnes(free []grid.Cell, from, n int, pick []grid.Cell, visit func([]grid.Cell) error) error {
	if len(pick) == n {
		return visit(pick)
	}
	for i := from; i <= len(free)-(n-len(pick)); i++ {
		c := free[i]
		if !t.opt.MoveMayTouch && slices.ContainsFunc(pick, func(p grid.Cell) bool { return t.around[p].Has(c) }) {
			continue
		}
		if err := t.chooseOnes(free, i+1, n, append(pick, c), visit); err != nil {
			return err
		}
	}
	return nil
}

// Estimate is a weighted sample of the consistent layouts.
type Estimate struct {
	Sum   float64   // total weight of the consistent draws
	ESS   float64   // effective sample size, (sum w)^2 / sum w^2
	Cells []float64 // by cell: weight of the consistent draws with an afloat ship on it
	Stats Stats
}

// Share is the estimated fraction of the consistent layouts with an afloat
// ship on c.
func (e *Estimate) Share(c grid.Cell) float64 {
	if e.Sum == 0 {
		return 0
	}
	return e.Cells[c] / e.Sum
}

// Estimate draws layouts by sequential importance sampling. First the
// unsunk hits are covered, the lowest uncovered hit first, each by a ship
// and a place drawn uniformly among those that cover it; then the other
// big ships, longest first, each uniformly among the places left (off
// water, sunk ships, the ships placed and their surroundings); then the
// afloat 1-decks uniformly among the free cells. The order is a function
// of the layout but for ships of one length placed in the second phase,
// so a consistent draw gets weight prod(choices) / prod(m_l!) (m_l such
// ships of length l) and the weighted shares converge to the exact ones
// as draws grows. maxWork bounds each history search (0: DefaultMaxWork).
func (t *Tracker) Estimate(rng *rand.Rand, draws, maxWork int) *Estimate {
	f := t.frame()
	k := t.newChecker(maxWork)
	est := &Estimate{Cells: make([]float64, t.board.Size())}
	big := make(battleship.Placement, 0, len(f.fixed)+len(f.todo))
	ones := make([]grid.Cell, 0, f.ones)
	var sumSq float64
	idx := make([]int, 0, 256)
	type pick struct{ i, j int }
	cover := make([]pick, 0, 64)
	hits := t.hits.AndNot(t.sunkSet)
	used := make([]bool, len(f.todo))
	for range draws {
		est.Stats.Candidates++
		big = append(big[:0], f.fixed...)
		ones = ones[:0]
		clear(used)
		occ, zone := f.fixedOcc, f.zone
		w := 1.0
		for left := hits; !left.Empty() && w > 0; left = hits.AndNot(occ) {
			h := left.First()
			cover = cover[:0]
			for i := range f.todo {
				if used[i] || (i > 0 && f.todo[i] == f.todo[i-1] && !used[i-1]) {
					continue // one ship per length: the first unused one
				}
				for j := range f.spots[i] {
					if sp := &f.spots[i][j]; sp.cells.Has(h) && !sp.cells.Intersects(zone) {
						cover = append(cover, pick{i, j})
					}
				}
			}
			if len(cover) == 0 {
				w = 0
				break
			}
			p := cover[rng.IntN(len(cover))]
			w *= float64(len(cover))
			sp := &f.spots[p.i][p.j]
			used[p.i] = true
			big = append(big, sp.ship)
			occ, zone = occ.Union(sp.cells), zone.Union(sp.zone)
		}
		run := 0 // ships of one length placed in this phase so far
		for i := range f.todo {
			if w == 0 {
				break
			}
			if used[i] {
				continue
			}
			if i > 0 && f.todo[i] == f.todo[i-1] && !used[i-1] {
				run++
				w /= float64(run + 1)
			} else {
				run = 0
			}
			idx = idx[:0]
			for j := range f.spots[i] {
				if !f.spots[i][j].cells.Intersects(zone) {
					idx = append(idx, j)
				}
			}
			if len(idx) == 0 {
				w = 0
				break
			}
			sp := &f.spots[i][idx[rng.IntN(len(idx))]]
			w *= float64(len(idx))
			big = append(big, sp.ship)
			occ, zone = occ.Union(sp.cells), zone.Union(sp.zone)
		}
		if w == 0 {
			continue
		}
		free := f.onesFree.AndNot(occ)
		if !t.opt.MoveMayTouch {
			free = free.AndNot(zone)
		}
		for range f.ones {
			n := free.Count()
			if n == 0 {
				w = 0
				break
			}
			c := free.Nth(rng.IntN(n))
			w *= float64(n)
			ones = append(ones, c)
			if t.opt.MoveMayTouch {
				free.Remove(c)
			} else {
				free = free.AndNot(t.around[c])
			}
		}
		if w == 0 {
			continue
		}
		k.failed = nil
		k.unsure = false
		if !k.static(big) {
			continue
		}
		slices.Sort(ones)
		if !k.ones(ones) {
			continue
		}
		est.Stats.Consistent++
		if k.unsure {
			est.Stats.Unsure++
		}
		est.Sum += w
		sumSq += w * w
		for _, sh := range big {
			for _, c := range sh {
				if !t.sunkSet.Has(c) {
					est.Cells[c] += w
				}
			}
		}
		for _, c := range ones {
			est.Cells[c] += w
		}
	}
	if sumSq > 0 {
		est.ESS = est.Sum * est.Sum / sumSq
	}
	return est
}
